/**
 * The deploy kit as `kubectl apply -k` applies it (issue 23, part 7): every kustomization under deploy/ is rendered
 * with `kubectl kustomize` and its resources checked —
 * - no Secret among them (an apply never overwrites the user's token with a placeholder; they create it);
 * - manifests from git (git-sync) unless the overlay says why not;
 * - the delete journal on a PersistentVolumeClaim (shared by all replicas where there are several);
 * - a NetworkPolicy that admits only the scraper, on the daemon's port;
 * - the daemon runs the docops.yaml of the repository `docops init` wrote (from git-sync's checkout, or a ConfigMap
 *   the user makes of that file), whichever applier it chose, never a copy of the kit's own (issue 34); only a
 *   fleet of several organizations, which init does not write, brings its own.
 * The kubectl is DOCOPS_KUBECTL or the one on PATH, kubectl 1.21 or later (kustomize v4+); .ci/install-kubectl
 * provides one. Never skipped: without it the test fails saying how to get it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import { type DocopsConfig } from '../../src/config/config.js';
import { daemonConfigText } from '../../src/init/index.js';
import { REPO } from '../daemon/build.js';

interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  ports?: { name?: string; containerPort: number }[];
  livenessProbe?: { httpGet: { port: string | number } };
  readinessProbe?: { httpGet: { port: string | number } };
  volumeMounts: { name: string; mountPath: string }[];
}
interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string };
  configMap?: { name: string };
  secret?: { secretName: string };
}
interface PodSpec {
  terminationGracePeriodSeconds?: number;
  containers: Container[];
  initContainers?: Container[];
  volumes: Volume[];
}
interface Peer {
  podSelector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: { matchLabels?: Record<string, string> };
  ipBlock?: unknown;
}
interface Resource {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    replicas?: number;
    selector?: { matchLabels: Record<string, string> };
    template?: { metadata: { labels: Record<string, string> }; spec: PodSpec };
    accessModes?: string[];
    podSelector?: { matchLabels: Record<string, string> };
    policyTypes?: string[];
    ingress?: { from?: Peer[]; ports?: { port: number | string; protocol?: string }[] }[];
  };
}

const DEPLOY = join(REPO, 'deploy');
const OVERLAYS = readdirSync(DEPLOY).filter((d) => existsSync(join(DEPLOY, d, 'kustomization.yaml')));
const KUBECTL = process.env.DOCOPS_KUBECTL ?? 'kubectl';

function kubectlMinor(): number {
  const r = spawnSync(KUBECTL, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  if (r.status !== 0) return 0;
  return Number.parseInt((JSON.parse(r.stdout) as { clientVersion: { minor: string } }).clientVersion.minor, 10) || 0;
}

const rendered = new Map<string, Resource[]>();
const scratch = mkdtempSync(join(tmpdir(), 'docops-kustomize-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

beforeAll(() => {
  const minor = kubectlMinor();
  if (minor < 21) {
    throw new Error(
      `${KUBECTL}: ${minor === 0 ? 'not found' : `kubectl 1.${minor}`}; rendering deploy/ needs kubectl 1.21 or later (kustomize v4+). ` +
        'Run `export DOCOPS_KUBECTL="$(.ci/install-kubectl)"` (as .ci/run does), or put a recent kubectl on PATH.',
    );
  }
  for (const overlay of OVERLAYS) {
    const r = spawnSync(KUBECTL, ['kustomize', join(DEPLOY, overlay)], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr, `${overlay}: kustomize warned`).toBe(''); // e.g. a deprecated field
    rendered.set(
      overlay,
      parseAllDocuments(r.stdout).map((d) => d.toJS() as Resource),
    );
  }
});

const only = (all: Resource[], kind: string): Resource => {
  const found = all.filter((r) => r.kind === kind);
  expect(
    found.map((r) => r.metadata.name),
    kind,
  ).toHaveLength(1);
  return found[0]!;
};
const podOf = (all: Resource[]): PodSpec => only(all, 'Deployment').spec!.template!.spec;
const docopsOf = (pod: PodSpec): Container => pod.containers.find((c) => c.name === 'docops')!;

/** The docops.yaml `docops init` writes, for each applier: what the repository holds. */
const REPOSITORY_CONFIGS = {
  workflow: daemonConfigText('org-demo', { applier: 'workflow' }),
  daemon: daemonConfigText('org-demo', { applier: 'daemon', repository: 'acme/docs-org', approvers: 'acme/docs' }),
};
/** The Secret the user creates (kustomization.yaml), as the pod's environment reads it. */
const SECRET: Record<string, string> = { token: 'an-api-token', 'reconcile-secret': 'a-reconcile-secret-for-the-test' };

/**
 * The config the pod's daemon runs: the file its `-c` names — the repository's docops.yaml (under git-sync's
 * /git/current, or the ConfigMap the user makes of it), or a ConfigMap of the kit — read with the container's
 * environment. Paths come back as the container sees them.
 */
async function daemonConfigOf(
  all: Resource[],
  docops: Container,
  repository = REPOSITORY_CONFIGS.workflow,
): Promise<DocopsConfig> {
  const file = docops.args![docops.args!.indexOf('-c') + 1]!;
  const mount = docops.volumeMounts.find((m) => file.startsWith(`${m.mountPath}/`))!;
  const volume = podOf(all).volumes.find((v) => v.name === mount.name)!;
  const kitConfig = all.find((r) => r.kind === 'ConfigMap' && r.metadata.name === volume.configMap?.name);
  const dir = mkdtempSync(join(scratch, 'pod-'));
  const text = kitConfig ? kitConfig.data!['docops.yaml']! : repository;
  writeFileSync(join(dir, 'docops.yaml'), text);
  const env: Record<string, string> = {};
  for (const e of docops.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    if (ref) expect(ref.name, e.name).toBe('docops');
    const value = ref ? SECRET[ref.key] : e.value;
    if (value !== undefined) env[e.name] = value;
  }
  const config = await loadConfig(join(dir, 'docops.yaml'), { env, cwd: '/' });
  // The file's relative paths are relative to where the pod has it.
  const back = (p: string): string => (p.startsWith(dir) ? dirname(file) + p.slice(dir.length) : p);
  return {
    ...config,
    configFile: file,
    manifestsDir: back(config.manifestsDir),
    journalDir: back(config.journalDir),
    ...(config.organizations
      ? { organizations: config.organizations.map((o) => ({ ...o, manifestsDir: back(o.manifestsDir) })) }
      : {}),
  };
}

describe('deploy/: every kustomization, rendered', () => {
  it('finds the base and its variants', () => {
    expect(OVERLAYS.sort()).toEqual([
      'kubernetes',
      'kubernetes-configmap',
      'kubernetes-dynamic-shards',
      'kubernetes-ha',
      'kubernetes-shard',
    ]);
  });

  it.each(OVERLAYS)(
    '%s applies no Secret: the token and the reconcile secret are created by the user, as its kustomization says',
    (overlay) => {
      const all = rendered.get(overlay)!;
      expect(all.filter((r) => r.kind === 'Secret')).toEqual([]);
      const secretName = podOf(all).volumes.find((v) => v.secret)?.secret?.secretName;
      expect(secretName).toBe('docops');
      const howTo = readFileSync(join(DEPLOY, 'kubernetes', 'kustomization.yaml'), 'utf8');
      expect(howTo).toContain(`kubectl create secret generic ${secretName} --from-file=token=`);
      expect(howTo).toContain('reconcile-secret=');
    },
  );

  it.each(OVERLAYS)(
    '%s keeps the delete journal on a PersistentVolumeClaim, one every replica can mount',
    async (overlay) => {
      const all = rendered.get(overlay)!;
      const pod = podOf(all);
      const docops = docopsOf(pod);
      const config = await daemonConfigOf(all, docops);
      const mount = docops.volumeMounts.find(
        (m) => config.journalDir === m.mountPath || config.journalDir.startsWith(`${m.mountPath}/`),
      )!;
      expect(mount, 'the journal directory is on a mounted volume').toBeDefined();
      const claim = pod.volumes.find((v) => v.name === mount.name)?.persistentVolumeClaim?.claimName;
      expect(claim, 'the journal volume is a PersistentVolumeClaim').toBeDefined();
      const pvc = all.find((r) => r.kind === 'PersistentVolumeClaim' && r.metadata.name === claim)!;
      expect(pvc).toBeDefined();
      const replicas = only(all, 'Deployment').spec!.replicas ?? 1;
      expect(pvc.spec!.accessModes).toContain(replicas > 1 ? 'ReadWriteMany' : 'ReadWriteOnce');
    },
  );

  it.each(OVERLAYS)('%s admits only the scraper to the daemon port; the probes use that port', (overlay) => {
    const all = rendered.get(overlay)!;
    const deployment = only(all, 'Deployment');
    const policy = only(all, 'NetworkPolicy');
    expect(policy.spec!.podSelector!.matchLabels).toEqual(deployment.spec!.template!.metadata.labels);
    expect(policy.spec!.policyTypes).toContain('Ingress');
    const docops = docopsOf(deployment.spec!.template!.spec);
    const port = docops.ports![0]!;
    const portOf = (p: string | number): number =>
      typeof p === 'number' ? p : docops.ports!.find((x) => x.name === p)!.containerPort;
    expect(portOf(docops.livenessProbe!.httpGet.port)).toBe(port.containerPort);
    expect(portOf(docops.readinessProbe!.httpGet.port)).toBe(port.containerPort);
    const rules = policy.spec!.ingress!;
    expect(rules).toHaveLength(1);
    expect(rules[0]!.ports!.map((p) => portOf(p.port))).toEqual([port.containerPort]);
    // Named peers only: no rule without `from` (everyone), no IP block, no empty selector (every pod).
    const peers = rules[0]!.from!;
    expect(peers.length).toBeGreaterThan(0);
    for (const peer of peers) {
      expect(peer.ipBlock).toBeUndefined();
      expect(Object.keys(peer.podSelector?.matchLabels ?? {}).length).toBeGreaterThan(0);
      expect(Object.keys(peer.namespaceSelector?.matchLabels ?? {}).length).toBeGreaterThan(0);
    }
  });

  it('kubernetes, kubernetes-ha and the shard overlays read the manifests from git (git-sync beside docops)', async () => {
    for (const overlay of ['kubernetes', 'kubernetes-ha', 'kubernetes-shard', 'kubernetes-dynamic-shards']) {
      const all = rendered.get(overlay)!;
      const pod = podOf(all);
      expect(pod.containers.map((c) => c.image.split(':')[0])).toContain('registry.k8s.io/git-sync/git-sync');
      const config = await daemonConfigOf(all, docopsOf(pod));
      for (const dir of config.organizations?.map((o) => o.manifestsDir) ?? [config.manifestsDir])
        expect(dir.startsWith('/git/current/'), `${overlay}: ${dir}`).toBe(true);
      expect(docopsOf(pod).volumeMounts.map((m) => m.mountPath)).toContain('/git');
    }
  });

  it('kubernetes-configmap reads them from the ConfigMap the user creates, and says which directories it cannot hold', async () => {
    const all = rendered.get('kubernetes-configmap')!;
    const pod = podOf(all);
    expect([...pod.containers, ...(pod.initContainers ?? [])].map((c) => c.name)).toEqual(['docops']);
    const config = await daemonConfigOf(all, docopsOf(pod));
    const mount = docopsOf(pod).volumeMounts.find((m) => m.mountPath === config.manifestsDir)!;
    expect(pod.volumes.find((v) => v.name === mount.name)?.configMap?.name).toBe('docops-manifests');
    // Created by the user (like the Secret): an apply never replaces their manifests or their config with an example.
    expect(all.filter((r) => r.kind === 'ConfigMap')).toEqual([]);
    const configMount = docopsOf(pod).volumeMounts.find((m) => config.configFile.startsWith(`${m.mountPath}/`))!;
    expect(pod.volumes.find((v) => v.name === configMount.name)?.configMap?.name).toBe('docops-config');
    const text = readFileSync(join(DEPLOY, 'kubernetes-configmap', 'kustomization.yaml'), 'utf8');
    expect(text).toContain('kubectl create configmap docops-config --from-file=docops.yaml');
    expect(text).toContain('kubectl create configmap docops-manifests --from-file=manifests/');
    expect(text).toMatch(/sites\/, openapi\/ and saml\//);
    expect(text).toMatch(/skips subdirectories/);
  });

  it.each(['kubernetes', 'kubernetes-ha', 'kubernetes-configmap'])(
    "%s runs the repository's docops.yaml, as `docops init` wrote it for either applier, and holds none of its own",
    async (overlay) => {
      const all = rendered.get(overlay)!;
      expect(all.filter((r) => r.kind === 'ConfigMap' && r.data?.['docops.yaml'] !== undefined)).toEqual([]);
      const docops = docopsOf(podOf(all));
      const workflow = await daemonConfigOf(all, docops, REPOSITORY_CONFIGS.workflow);
      const daemon = await daemonConfigOf(all, docops, REPOSITORY_CONFIGS.daemon);
      // Who applies is the repository's decision; where the daemon listens, keeps its journal and finds its
      // secrets is the pod's.
      expect(workflow.mode).toBe('plan');
      expect(daemon.mode).toBe('apply');
      expect(daemon.policy).toBeDefined();
      for (const config of [workflow, daemon]) {
        expect(config.configFile.endsWith('/docops.yaml')).toBe(true);
        expect(config.listen).toEqual({ host: '0.0.0.0', port: 8080 });
        expect(config.journalDir).toBe('/var/lib/docops/journal');
        expect(config.reconcileSecret).toBe(SECRET['reconcile-secret']);
        expect(config.shutdownGraceMs).toBeLessThan(podOf(all).terminationGracePeriodSeconds! * 1000);
      }
      if (overlay !== 'kubernetes-configmap') expect(workflow.configFile).toBe('/git/current/docops.yaml');
      if (overlay !== 'kubernetes-configmap') expect(workflow.manifestsDir).toBe('/git/current/manifests');
      // git-sync follows the repository's default branch, whatever it is called.
      for (const c of [...(podOf(all).initContainers ?? []), ...podOf(all).containers].filter((x) =>
        x.name.startsWith('git-sync'),
      ))
        expect(c.args).toContain('--ref=HEAD');
    },
  );

  it('kubernetes-ha adds the election: two replicas, RBAC for the Lease, a PodDisruptionBudget', async () => {
    const all = rendered.get('kubernetes-ha')!;
    expect(all.map((r) => r.kind).sort()).toEqual([
      'Deployment',
      'NetworkPolicy',
      'PersistentVolumeClaim',
      'PodDisruptionBudget',
      'Role',
      'RoleBinding',
      'Service',
      'ServiceAccount',
    ]);
    expect(only(all, 'Deployment').spec).toMatchObject({ replicas: 2 });
    const config = await daemonConfigOf(all, docopsOf(podOf(all)));
    expect(config.ha).toMatchObject({ mode: 'kubernetes', leaseName: 'docops' });
  });

  it('kubernetes-shard is one static shard: its own Lease, granted by its Role; it selects only its own pods; the scraper keeps its labels', async () => {
    const all = rendered.get('kubernetes-shard')!;
    const config = await daemonConfigOf(all, docopsOf(podOf(all)));
    expect(config.shard).toEqual({ mode: 'static', index: 0, count: 2 });
    expect(config.organizations!.length).toBeGreaterThan(1);
    expect(config.ha!.leaseName).toBe('docops-shard-0');
    const role = only(all, 'Role') as Resource & { rules: { resourceNames?: string[]; verbs: string[] }[] };
    expect(role.rules.flatMap((r) => r.resourceNames ?? [])).toEqual([config.ha!.leaseName]);
    const deployment = only(all, 'Deployment');
    expect(deployment.spec!.selector!.matchLabels).toMatchObject({ 'docops.dev/shard': '0' });
    expect(only(all, 'NetworkPolicy').spec!.podSelector!.matchLabels).toEqual(
      deployment.spec!.template!.metadata.labels,
    );
    expect(only(all, 'NetworkPolicy').spec!.ingress![0]!.from![0]!.podSelector!.matchLabels).toEqual({
      'app.kubernetes.io/name': 'prometheus',
    });
  });

  it('kubernetes-dynamic-shards: replicas share shard.leases Leases, the Role grants exactly them and the member Leases, an alert fires below that many owners', async () => {
    const all = rendered.get('kubernetes-dynamic-shards')!;
    const config = await daemonConfigOf(all, docopsOf(podOf(all)));
    expect(config.shard).toEqual({ mode: 'dynamic', leases: 4 });
    expect(only(all, 'Deployment').spec!.replicas).toBe(3);
    const role = only(all, 'Role') as Resource & { rules: { resourceNames?: string[]; verbs: string[] }[] };
    const names = Array.from({ length: 4 }, (_, i) => [
      `${config.ha!.leaseName}-shard-${i}`,
      `${config.ha!.leaseName}-member-${i}`,
    ]).flat();
    expect(role.rules.flatMap((r) => r.resourceNames ?? []).sort()).toEqual(names.sort());
    const rule = only(all, 'PrometheusRule') as Resource & {
      spec: { groups: { rules: { alert: string; expr: string }[] }[] };
    };
    const alert = rule.spec.groups[0]!.rules.find((r) => r.alert === 'DocopsShardWithoutOwner')!;
    expect(alert.expr).toMatch(/docops_shard_owner[\s\S]*< max\(docops_shards\)/);
  });
});
