/**
 * deploy/kubernetes-ha: the kustomize overlay of deploy/kubernetes that runs two replicas electing a leader.
 * The files are checked as written; test/deploy/kustomize.test.ts renders it as `kubectl apply -k` would apply it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadDaemonConfig, type DaemonConfig } from '../../src/daemon/config.js';
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

async function configOf(configMap: Resource): Promise<DaemonConfig> {
  const dir = mkdtempSync(join(tmpdir(), 'docops-ha-cm-'));
  writeFileSync(join(dir, 'reconcile-secret'), 'a-reconcile-secret-for-the-test\n');
  writeFileSync(
    join(dir, 'docops.yaml'),
    configMap.data!['docops.yaml']!.replace('/var/run/secrets/docops/reconcile-secret', join(dir, 'reconcile-secret')),
  );
  return loadDaemonConfig(join(dir, 'docops.yaml'), { env: {}, cwd: dir });
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
    const config = await configOf(load('deploy/kubernetes-ha', 'configmap-ha.yaml')[0]!);
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

  it("its docops.yaml is the base one plus ha: kubernetes with client-go's timings", async () => {
    const ha = await configOf(load('deploy/kubernetes-ha', 'configmap-ha.yaml')[0]!);
    const single = await configOf(load('deploy/kubernetes', 'configmap.yaml')[0]!);
    expect(ha.ha).toEqual({
      mode: 'kubernetes',
      leaseName: 'docops',
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    });
    // Besides ha, they differ only in where they are: the file, and the places of its fields in it.
    const { ha: _ha, configFile: _a, reconcileSecret: _s, at: atHa, ...rest } = ha;
    const { configFile: _b, reconcileSecret: _t, at: atBase, ...base } = single;
    expect(rest).toEqual(base);
    expect(atHa?.tokenFile && { line: atHa.tokenFile.line, column: atHa.tokenFile.column }).toEqual(
      atBase?.tokenFile && { line: atBase.tokenFile.line, column: atBase.tokenFile.column },
    );
  });
});
