/**
 * The bundled CLI (src/build/bundle-cli.ts) is what `docops` runs after `npm run build`: it must behave like the
 * modules it is made of (undici reduced to its Pool, paths built from import.meta.url, the generated
 * validators found from a chunk), and keep each command's laziness (a chunk per lazily imported module).
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProbe } from '../../src/bench/probe-read.js';
import { bundleCli, CHUNK_PREFIX } from '../../src/build/bundle-cli.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { quickBuild, REPO } from '../daemon/build.js';
import { startLeaseServer } from '../daemon/lease-server.js';

let build: string;
let sandbox: RunningSandbox;
let scratch: string;

beforeAll(async () => {
  build = quickBuild();
  execFileSync(process.execPath, [join(build, 'dist/build/precompile-validators.js')], { cwd: build });
  // As `npm run build` does: the bundle replaces dist/cli/main.js, its chunks beside it.
  await bundleCli({ entry: join(REPO, 'src/cli/main.ts'), outDir: join(build, 'dist/cli') });
  sandbox = await startSandbox({ seed: 'demo' });
  scratch = mkdtempSync(join(tmpdir(), 'docops-bundle-'));
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  rmSync(scratch, { recursive: true, force: true });
});

let runs = 0;

async function docops(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string; files: string[] }> {
  const out = join(scratch, `probe-${++runs}.txt`);
  const childEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', DOCOPS_PROBE_OUT: out, DOCOPS_PROBE_MODULES: '1', ...env };
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ['--import', join(build, 'dist/bench/probe.js'), join(build, 'dist/cli/main.js'), ...args], { cwd: REPO, env: childEnv }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? -1) : 0, stdout, stderr }),
    );
  });
  const root = `${pathToFileURL(build).href}/`;
  return { ...r, files: parseProbe(readFileSync(out, 'utf8')).modules.map((u) => u.replace(root, '')) };
}

describe('the bundled CLI', () => {
  it('is an entry plus chunks with source maps pointing at src/', () => {
    const names = readdirSync(join(build, 'dist/cli'));
    const chunks = names.filter((n) => n.startsWith(CHUNK_PREFIX) && n.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(5);
    const map = JSON.parse(readFileSync(join(build, 'dist/cli/main.js.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.some((s) => s.endsWith('src/cli/main.ts'))).toBe(true);
  });

  it('--version reads package.json and loads no package and no command chunk', async () => {
    const r = await docops(['--version']);
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect(r).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    expect(r.files.filter((f) => f.includes('node_modules/'))).toEqual([]);
    expect(r.files.some((f) => /chunk-(validate|plan|apply|kinds|client)/.test(f))).toBe(false);
  });

  it('validate finds the schemas and the generated validators from its chunks (no schema compiler)', async () => {
    const r = await docops(['validate', '-m', 'config.example/manifests']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+ documents, \d+ objects valid\n$/);
    expect(r.files).toContain('dist/manifests/validators/members.cjs');
    expect(r.files.filter((f) => /node_modules\/ajv\/dist\/(ajv|core)\.js$/.test(f))).toEqual([]);
  });

  it('plan talks to the API through the reduced undici (a Pool with the request API)', async () => {
    const r = await docops(['plan', '-m', 'config.example/manifests', '--api-url', sandbox.url, '--format', 'json'], { DOCOPS_TOKEN: sandbox.token });
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as { steps: unknown[] };
    expect(plan.steps.length).toBeGreaterThan(0); // config.example differs from the demo seed
    expect(r.files.some((f) => f.includes('/sandbox/') || /chunk-sandbox/.test(f))).toBe(false);
  });

  it('the daemon with ha: kubernetes imports the Kubernetes client from node_modules (not bundled) and elects itself through it', async () => {
    const leases = await startLeaseServer();
    try {
      const dir = mkdtempSync(join(scratch, 'ha-'));
      writeFileSync(join(dir, 'kubeconfig'), leases.kubeconfig('bundle'));
      const config = readFileSync(join(REPO, 'config.example/docops.yaml'), 'utf8').replace('manifests: ./manifests', `manifests: ${join(REPO, 'config.example/manifests')}`);
      writeFileSync(join(dir, 'docops.yaml'), `${config}\nha: { mode: kubernetes, leaseName: bundled }\n`);
      const out = join(scratch, `probe-${++runs}.txt`);
      const env = { PATH: process.env.PATH ?? '', HOME: scratch, NO_COLOR: '1', DOCOPS_PROBE_OUT: out, DOCOPS_PROBE_MODULES: '1', DOCOPS_TOKEN: sandbox.token, KUBECONFIG: join(dir, 'kubeconfig') };
      const args = ['--import', join(build, 'dist/bench/probe.js'), join(build, 'dist/cli/main.js'), 'daemon', '-c', join(dir, 'docops.yaml'), '--api-url', sandbox.url, '--listen', '127.0.0.1:0', '--log-format', 'json'];
      const child = spawn(process.execPath, args, { cwd: REPO, env, stdio: ['ignore', 'ignore', 'pipe'] });
      const exited = once(child, 'exit') as Promise<[number | null]>;
      let log = '';
      let stopping = false;
      child.stderr!.on('data', (d: Buffer) => {
        log += d.toString();
        if (!stopping && /"msg":"reconcile (applied|done)"/.test(log)) stopping = child.kill('SIGTERM');
      });
      const [code] = await exited;
      expect(code, log).toBe(0);
      expect(log).toContain('"reasons":["leader"]');
      expect(leases.lease('docops', 'bundled')!.spec.holderIdentity).toBe(''); // released on SIGTERM
      const files = parseProbe(readFileSync(out, 'utf8')).modules.map((u) => u.replace(`${pathToFileURL(build).href}/`, ''));
      // Lazily, from node_modules (EXTERNAL in bundle-cli.ts): no chunk holds it.
      expect(files.some((f) => f.includes('node_modules/@kubernetes/client-node/'))).toBe(true);
      expect(readdirSync(join(build, 'dist/cli')).filter((n) => n.endsWith('.js') && readFileSync(join(build, 'dist/cli', n), 'utf8').includes('class CoordinationV1Api'))).toEqual([]);
    } finally {
      await leases.close();
    }
  });
});
