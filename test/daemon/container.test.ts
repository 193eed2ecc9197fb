/**
 * The Dockerfile's invariants and the Kubernetes manifests that run its image. The image itself is built and run
 * in test/image/image.test.ts (buildah).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { CONFIG_DEFAULTS } from '../../src/config/config.js';
import { REPO } from './build.js';

interface Instruction {
  op: string;
  args: string;
  stage: number;
}

/** Dockerfile → instructions (continuations joined, comments dropped), each with its stage index. */
function parseDockerfile(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ');
  let stage = -1;
  const out: Instruction[] = [];
  for (const line of joined.split('\n')) {
    const m = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === 'FROM') stage++;
    out.push({ op: m[1]!, args: m[2]!.trim(), stage });
  }
  return out;
}

const dockerfile = readFileSync(join(REPO, 'Dockerfile'), 'utf8');
const steps = parseDockerfile(dockerfile);
const runtime = Math.max(...steps.map((s) => s.stage));
const inRuntime = steps.filter((s) => s.stage === runtime);
const execForm = (op: string): string[] => JSON.parse(inRuntime.find((s) => s.op === op)!.args) as string[];

describe('Dockerfile', () => {
  it('is multi-stage: a build stage compiles and installs the release tarball, the runtime copies the result', () => {
    const froms = steps.filter((s) => s.op === 'FROM');
    expect(froms.length).toBeGreaterThanOrEqual(2);
    expect(froms[0]!.args).toMatch(/ AS build$/);
    const build = steps.filter((s) => s.stage === 0 && s.op === 'RUN').map((s) => s.args);
    // npm 10 runs the self-link's `prepare` under `npm ci --ignore-scripts`: the link is dropped before the install
    expect(build.some((r) => /npm pkg delete devDependencies\.docops && npm ci --ignore-scripts/.test(r))).toBe(true);
    expect(build).toContain('npm run build');
    expect(build.some((r) => r.startsWith('node dist-tools/build/release-tarball.js '))).toBe(true);
    expect(build.some((r) => r.includes('npm ci --omit=dev --ignore-scripts'))).toBe(true);
    // the runtime stage runs no npm: it copies the installed package
    const runs = inRuntime.filter((s) => s.op === 'RUN').map((s) => s.args);
    expect(runs.filter((r) => /\bnpm\b/.test(r))).toEqual([]);
    expect(inRuntime.filter((s) => s.op === 'COPY').map((s) => s.args)).toEqual(['--from=build /out /app']);
  });

  it('pins an LTS Node major on a slim image', () => {
    const arg = /ARG NODE_IMAGE=(\S+)/.exec(dockerfile)?.[1];
    expect(arg).toMatch(/^node:(22|24)-(bookworm-)?slim$/);
  });

  it('runs as a non-root user, with a node-based health check on /healthz and the daemon as default command', () => {
    const users = inRuntime.filter((s) => s.op === 'USER');
    expect(users.at(-1)?.args).toBe('node');
    expect(inRuntime.findIndex((s) => s.op === 'USER')).toBeLessThan(inRuntime.findIndex((s) => s.op === 'ENTRYPOINT'));
    const health = inRuntime.find((s) => s.op === 'HEALTHCHECK')!.args;
    expect(health).toMatch(/CMD \["node", "-e", .*\/healthz/);
    expect(health).not.toMatch(/curl|wget/);
    // the installed command (package.json bin: the bundled CLI)
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { bin: { docops: string } };
    expect(execForm('ENTRYPOINT')).toEqual(['node', pkg.bin.docops]);
    expect(execForm('CMD')).toEqual(['daemon', '-c', '/config/docops.yaml']);
  });

  it("documents the read-only manifests mount, and docker-run.md runs the repository's own docops.yaml", () => {
    expect(dockerfile).toMatch(/\/manifests:ro/);
    const run = readFileSync(join(REPO, 'deploy/docker-run.md'), 'utf8');
    expect(run).toMatch(/"\$PWD:\/repo:ro"/);
    expect(run).toContain('docops daemon -c /repo/docops.yaml');
    expect(run).toContain('DOCOPS_JOURNAL_DIR=/var/lib/docops/journal');
  });

  it('.dockerignore keeps out local state but not what the build copies', () => {
    const ignored = readFileSync(join(REPO, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    for (const p of ['node_modules', 'dist', '.git', '.docops']) expect(ignored).toContain(p);
    const copied = steps
      .filter((s) => s.op === 'COPY' && !s.args.startsWith('--from'))
      .flatMap((s) => s.args.split(/\s+/).slice(0, -1));
    for (const src of copied) {
      expect(ignored, src).not.toContain(src);
      expect(existsSync(join(REPO, src)), src).toBe(true);
    }
  });
});

describe('deploy/kubernetes', () => {
  interface Container {
    name: string;
    image: string;
    args: string[];
    livenessProbe: { httpGet: { path: string } };
    readinessProbe: { httpGet: { path: string } };
    ports: { containerPort: number }[];
    resources: { requests?: object; limits: { memory?: string } };
    securityContext: object;
    env?: { name: string; value?: string }[];
    volumeMounts: { mountPath: string; readOnly?: boolean }[];
  }
  interface Manifest {
    kind: string;
    data: Record<string, string>;
    spec: {
      replicas: number;
      template: {
        spec: {
          securityContext: { runAsNonRoot?: boolean };
          terminationGracePeriodSeconds: number;
          containers: Container[];
        };
      };
    };
  }
  const load = (name: string): Manifest[] =>
    parseAllDocuments(readFileSync(join(REPO, 'deploy/kubernetes', name), 'utf8')).map((d) => d.toJS() as Manifest);

  it.each(['deployment.yaml'])('%s probes /healthz and /readyz and runs non-root on a read-only root', (file) => {
    const [deployment] = load(file);
    expect(deployment!.kind).toBe('Deployment');
    expect(deployment!.spec.replicas).toBe(1);
    const pod = deployment!.spec.template.spec;
    const docops = pod.containers.find((c) => c.name === 'docops')!;
    // The image's command with the repository's docops.yaml, from git-sync's checkout, for the image's /config one.
    expect(docops.args).toEqual(
      execForm('CMD').map((a) => (a === '/config/docops.yaml' ? '/git/current/docops.yaml' : a)),
    );
    expect(docops.livenessProbe.httpGet.path).toBe('/healthz');
    expect(docops.readinessProbe.httpGet.path).toBe('/readyz');
    expect(docops.ports[0]!.containerPort).toBe(8080);
    expect(docops.resources.requests).toBeDefined();
    expect(docops.resources.limits.memory).toBeDefined();
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(docops.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    const mounts = Object.fromEntries(docops.volumeMounts.map((m) => [m.mountPath, m.readOnly === true]));
    expect(mounts['/git']).toBe(true);
    expect(mounts['/var/lib/docops']).toBe(false); // the journal is the one writable place
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(CONFIG_DEFAULTS.shutdownGraceMs);
  });

  it('runs registry.k8s.io/git-sync beside docops (manifests from git by default)', () => {
    const pod = load('deployment.yaml')[0]!.spec.template.spec;
    expect(pod.containers.map((c) => c.image.split(':')[0])).toContain('registry.k8s.io/git-sync/git-sync');
  });

  it("has no docops.yaml of its own: the repository's, with the pod's settings as DOCOPS_* variables", () => {
    expect(existsSync(join(REPO, 'deploy/kubernetes/configmap.yaml'))).toBe(false);
    const docops = load('deployment.yaml')[0]!.spec.template.spec.containers.find((c) => c.name === 'docops')!;
    const env = Object.fromEntries((docops.env ?? []).map((e) => [e.name, e.value ?? 'from the Secret']));
    expect(env).toMatchObject({
      DOCOPS_LISTEN: '0.0.0.0:8080',
      DOCOPS_JOURNAL_DIR: '/var/lib/docops/journal',
      DOCOPS_TOKEN: 'from the Secret',
      DOCOPS_RECONCILE_SECRET: 'from the Secret',
    });
  });
});
