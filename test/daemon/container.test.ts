/**
 * The container, without a Docker engine: the Dockerfile's invariants, then the same install and start
 * commands it runs, outside a container, in a temp copy laid out like the image's /app.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { bundleCli } from '../../src/build/bundle-cli.js';
import { loadDaemonConfig } from '../../src/daemon/config.js';
import { quickBuild, REPO } from './build.js';

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
  it('is multi-stage: a build stage compiles, the runtime installs production dependencies only', () => {
    const froms = steps.filter((s) => s.op === 'FROM');
    expect(froms.length).toBeGreaterThanOrEqual(2);
    expect(froms[0]!.args).toMatch(/ AS build$/);
    const build = steps.filter((s) => s.stage === 0 && s.op === 'RUN').map((s) => s.args);
    expect(build).toContain('npm ci --ignore-scripts');
    expect(build).toContain('npm run build');
    const runs = inRuntime.filter((s) => s.op === 'RUN').map((s) => s.args);
    expect(runs.some((r) => r.includes('npm ci --omit=dev --ignore-scripts'))).toBe(true);
    expect(runs.some((r) => /npm ci(?! --omit=dev)/.test(r))).toBe(false);
    // The runtime installs the package `npm pack` made in the build stage (its `files`: dist, schemas, config.example).
    expect(build.some((r) => r.startsWith('npm pack --ignore-scripts'))).toBe(true);
    expect(inRuntime.map((s) => s.args)).toContain('--from=build /tmp/docops.tgz /tmp/docops.tgz');
    expect(runs.some((r) => r.startsWith('tar -xzf /tmp/docops.tgz --strip-components=1 -C /app'))).toBe(true);
    expect(inRuntime.filter((s) => s.op === 'COPY').map((s) => s.args)).not.toContain('schemas ./schemas');
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

  it('documents the read-only manifests mount', () => {
    expect(dockerfile).toMatch(/\/manifests:ro/);
    expect(readFileSync(join(REPO, 'deploy/docker-run.md'), 'utf8')).toMatch(/:\/manifests:ro/);
  });

  it('.dockerignore keeps out local state but not what the build copies', () => {
    const ignored = readFileSync(join(REPO, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    for (const p of ['node_modules', 'dist', '.git', '.docops']) expect(ignored).toContain(p);
    const copied = steps.filter((s) => s.op === 'COPY' && !s.args.startsWith('--from')).flatMap((s) => s.args.split(/\s+/).slice(0, -1));
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
    volumeMounts: { mountPath: string; readOnly?: boolean }[];
  }
  interface Manifest {
    kind: string;
    data: Record<string, string>;
    spec: { replicas: number; template: { spec: { securityContext: { runAsNonRoot?: boolean }; terminationGracePeriodSeconds: number; containers: Container[] } } };
  }
  const load = (name: string): Manifest[] => parseAllDocuments(readFileSync(join(REPO, 'deploy/kubernetes', name), 'utf8')).map((d) => d.toJS() as Manifest);

  it.each(['deployment.yaml'])('%s probes /healthz and /readyz and runs non-root on a read-only root', (file) => {
    const [deployment] = load(file);
    expect(deployment!.kind).toBe('Deployment');
    expect(deployment!.spec.replicas).toBe(1);
    const pod = deployment!.spec.template.spec;
    const docops = pod.containers.find((c) => c.name === 'docops')!;
    expect(docops.args).toEqual(execForm('CMD'));
    expect(docops.livenessProbe.httpGet.path).toBe('/healthz');
    expect(docops.readinessProbe.httpGet.path).toBe('/readyz');
    expect(docops.ports[0]!.containerPort).toBe(8080);
    expect(docops.resources.requests).toBeDefined();
    expect(docops.resources.limits.memory).toBeDefined();
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(docops.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    const mounts = Object.fromEntries(docops.volumeMounts.map((m) => [m.mountPath, m.readOnly === true]));
    expect(mounts['/config']).toBe(true);
    expect(mounts['/var/lib/docops']).toBe(false); // the journal is the one writable place
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(25_000);
  });

  it('runs registry.k8s.io/git-sync beside docops (manifests from git by default)', () => {
    const pod = load('deployment.yaml')[0]!.spec.template.spec;
    expect(pod.containers.map((c) => c.image.split(':')[0])).toContain('registry.k8s.io/git-sync/git-sync');
  });

  it('the ConfigMap holds a valid docops.yaml', async () => {
    const [configMap] = load('configmap.yaml');
    const dir = mkdtempSync(join(tmpdir(), 'docops-cm-'));
    // The Secret's mount, here a local file.
    writeFileSync(join(dir, 'reconcile-secret'), 'a-reconcile-secret-for-the-test\n');
    writeFileSync(join(dir, 'docops.yaml'), configMap!.data['docops.yaml']!.replace('/var/run/secrets/docops/reconcile-secret', join(dir, 'reconcile-secret')));
    const config = await loadDaemonConfig(join(dir, 'docops.yaml'), { env: {}, cwd: dir });
    expect(config).toMatchObject({ manifestsDir: '/git/current/manifests', listen: { host: '0.0.0.0', port: 8080 }, journalDir: '/var/lib/docops/journal', reconcileSecret: 'a-reconcile-secret-for-the-test' });
    expect(config.shutdownGraceMs).toBeLessThan(30_000); // below terminationGracePeriodSeconds
  });
});

describe('the image steps, run outside a container', () => {
  it('installs production dependencies only, starts the CMD, passes the HEALTHCHECK and stops on SIGTERM', async (ctx) => {
    const app = mkdtempSync(join(tmpdir(), 'docops-image-'));
    cpSync(join(REPO, 'package.json'), join(app, 'package.json'));
    cpSync(join(REPO, 'package-lock.json'), join(app, 'package-lock.json'));
    const install = await run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], app);
    if (install.code !== 0 && /ENOTCACHED|EAI_AGAIN|ENETUNREACH|ECONNREFUSED|ETIMEDOUT/.test(install.output)) {
      ctx.skip(`npm registry unreachable and packages not cached: ${install.output.slice(-200)}`);
    }
    expect(install.code, install.output).toBe(0);
    expect(existsSync(join(app, 'node_modules', 'typescript'))).toBe(false); // dev dependencies stay out

    const built = quickBuild(); // the build stage's dist/ (transpiled the same way tsc emits it)
    cpSync(join(built, 'dist'), join(app, 'dist'), { recursive: true });
    await bundleCli({ outDir: join(app, 'dist', 'cli') }); // and the bundled command, the last step of `npm run build`
    cpSync(join(REPO, 'schemas'), join(app, 'schemas'), { recursive: true });
    cpSync(join(REPO, 'config.example'), join(app, 'config.example'), { recursive: true });
    const [entry, ...entryArgs] = execForm('ENTRYPOINT');
    expect(existsSync(join(app, entryArgs[0]!))).toBe(true);

    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DOCOPS_LISTEN: `127.0.0.1:${port}`, NO_COLOR: '1' };
    delete env.NODE_OPTIONS; // vitest's loader hooks must not leak into the "image"
    // The CMD with the example config (the image's /config/docops.yaml) and the in-process sandbox.
    const cmd = execForm('CMD').map((a) => (a === '/config/docops.yaml' ? 'config.example/docops.yaml' : a));
    const child = spawn(entry === 'node' ? process.execPath : entry!, [...entryArgs, ...cmd, '--sandbox', '--log-format', 'json'], { cwd: app, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
    const lines: string[] = [];
    const reader = createInterface({ input: child.stderr! });
    const firstRun = new Promise<void>((resolve, reject) => {
      reader.on('line', (line) => {
        lines.push(line);
        if (/"msg":"reconcile (applied|done)"/.test(line)) resolve();
      });
      void exited.then(() => reject(new Error(`exited before the first reconcile:\n${lines.join('\n')}`)));
    });
    await firstRun;

    const health = JSON.parse(/CMD (\[.*\])$/.exec(inRuntime.find((s) => s.op === 'HEALTHCHECK')!.args)![1]!) as string[];
    const check = await run(health[0] === 'node' ? process.execPath : health[0]!, health.slice(1), app, env);
    expect(check.code, check.output).toBe(0);

    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code, lines.join('\n')).toBe(0);
  });
});

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}
