/**
 * deploy/kubernetes-ha: the kustomize overlay of deploy/kubernetes that runs two replicas electing a leader.
 * The files are checked as written; test/deploy/kustomize.test.ts renders it as `kubectl apply -k` would apply it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import { type DocopsConfig } from '../../src/config/config.js';
import { daemonConfigText } from '../../src/init/index.js';
import { REPO } from './build.js';

interface Resource {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  rules?: { apiGroups: string[]; resources: string[]; resourceNames?: string[]; verbs: string[] }[];
  roleRef?: { kind: string; name: string };
  subjects?: { kind: string; name: string }[];
  spec?: Record<string, unknown>;
}

const parse = (text: string): Resource[] => parseAllDocuments(text).map((d) => d.toJS() as Resource);
const load = (dir: string, name: string): Resource[] => parse(readFileSync(join(REPO, dir, name), 'utf8'));
const one = (all: Resource[], kind: string): Resource => all.find((r) => r.kind === kind)!;

interface Container {
  name: string;
  args?: string[];
  env?: { name: string; value?: string }[];
}
const docopsOf = (deployment: Resource): Container =>
  (deployment.spec!.template as { spec: { containers: Container[] } }).spec.containers.find(
    (c) => c.name === 'docops',
  )!;

/** The repository's docops.yaml (as `docops init` writes it), read with the plain values a Deployment sets. */
async function configOf(...deployments: Resource[]): Promise<DocopsConfig> {
  const dir = mkdtempSync(join(tmpdir(), 'docops-ha-cm-'));
  writeFileSync(join(dir, 'docops.yaml'), daemonConfigText('org-demo', { applier: 'workflow' }));
  const env = Object.fromEntries(
    deployments
      .flatMap((d) => docopsOf(d).env ?? [])
      .flatMap((e) => (e.value !== undefined ? [[e.name, e.value]] : [])),
  );
  return loadConfig(join(dir, 'docops.yaml'), { env, cwd: dir });
}

describe('deploy/kubernetes-ha', () => {
  it('patches the base Deployment to two replicas, rolled one at a time, with the bound service account', () => {
    const deployment = load('deploy/kubernetes-ha', 'deployment-ha.yaml')[0]!;
    expect(deployment.spec).toMatchObject({
      replicas: 2,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } },
    });
    const pod = (
      deployment.spec!.template as { spec: { serviceAccountName: string; automountServiceAccountToken: boolean } }
    ).spec;
    expect(pod.automountServiceAccountToken).toBe(true); // the base turns it off
    const rbac = load('deploy/kubernetes-ha', 'rbac.yaml');
    expect(one(rbac, 'ServiceAccount').metadata.name).toBe(pod.serviceAccountName);
    expect(one(rbac, 'RoleBinding').subjects).toEqual([{ kind: 'ServiceAccount', name: pod.serviceAccountName }]);
    expect(one(rbac, 'RoleBinding').roleRef).toMatchObject({ kind: 'Role', name: one(rbac, 'Role').metadata.name });
  });

  it("the Role grants what the election does to the config's Lease (get, create, update) and nothing else", async () => {
    const config = await configOf(
      load('deploy/kubernetes', 'deployment.yaml')[0]!,
      load('deploy/kubernetes-ha', 'deployment-ha.yaml')[0]!,
    );
    const rules = one(load('deploy/kubernetes-ha', 'rbac.yaml'), 'Role').rules!;
    for (const r of rules) expect(r).toMatchObject({ apiGroups: ['coordination.k8s.io'], resources: ['leases'] });
    const allowed = (verb: string, name: string): boolean =>
      rules.some((r) => r.verbs.includes(verb) && (r.resourceNames === undefined || r.resourceNames.includes(name)));
    for (const verb of ['get', 'update', 'create']) expect(allowed(verb, config.ha!.leaseName), verb).toBe(true);
    expect(allowed('get', 'another-lease')).toBe(false);
    expect(rules.flatMap((r) => r.verbs).sort()).toEqual(['create', 'get', 'update']);
  });

  it('a PodDisruptionBudget keeps one replica through a drain', () => {
    const pdb = load('deploy/kubernetes-ha', 'pdb.yaml')[0]!;
    const base = load('deploy/kubernetes', 'deployment.yaml')[0]!;
    expect(pdb.spec).toMatchObject({ minAvailable: 1, selector: (base.spec as { selector: object }).selector });
  });

  it("runs the repository's docops.yaml, as the single replica does, with DOCOPS_HA_MODE=kubernetes: the election with client-go's timings", async () => {
    const base = load('deploy/kubernetes', 'deployment.yaml')[0]!;
    const patch = load('deploy/kubernetes-ha', 'deployment-ha.yaml')[0]!;
    expect(docopsOf(patch).args).toBeUndefined(); // the base's: the repository's docops.yaml
    const ha = await configOf(base, patch);
    const single = await configOf(base);
    expect(ha.ha).toEqual({
      mode: 'kubernetes',
      leaseName: 'docops',
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    });
    expect(single.ha).toBeUndefined();
    // Besides ha, they differ only in where they are.
    const { ha: _ha, configFile: _a, manifestsDir: _m, ...rest } = ha;
    const { configFile: _b, manifestsDir: _n, ...same } = single;
    expect(rest).toEqual(same);
  });
});
