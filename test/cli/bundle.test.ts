/**
 * The bundled CLI (src/build/bundle-cli.ts) is what `docops` runs after `npm run build`: it must behave like the
 * modules it is made of (undici reduced to its Pool, paths built from import.meta.url, the generated
 * validators found from a chunk), keep each command's laziness (a chunk per lazily imported module), and use
 * the compile cache (src/cli/compile-cache.ts) without ever failing because of it.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProbe } from '../../src/bench/probe-read.js';
import { BIN_FILE, bundleCli, CHUNK_PREFIX } from '../../src/build/bundle-cli.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { quickBuild, REPO } from '../daemon/build.js';
import { startLeaseServer } from '../daemon/lease-server.js';

let build: string;
let sandbox: RunningSandbox;
let scratch: string;

beforeAll(async () => {
  build = quickBuild();
  execFileSync(process.execPath, [join(build, 'dist/build/precompile-validators.js')], { cwd: build });
  // As `npm run build` does: the bundle's entry and its chunks beside tsc's dist/cli modules.
  await bundleCli({ entry: join(REPO, 'src/cli/bin.ts'), outDir: join(build, 'dist/cli') });
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
  // TMPDIR: a compile cache of this test's own (the default is shared by every run of the user)
  const childEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: join(scratch, 'tmp'), NO_COLOR: '1', DOCOPS_PROBE_OUT: out, DOCOPS_PROBE_MODULES: '1', ...env };
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ['--import', join(build, 'dist/bench/probe.js'), join(build, 'dist/cli', BIN_FILE), ...args], { cwd: REPO, env: childEnv }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? -1) : 0, stdout, stderr }),
    );
  });
  const root = `${pathToFileURL(build).href}/`;
  return { ...r, files: parseProbe(readFileSync(out, 'utf8')).modules.map((u) => u.replace(root, '')) };
}

describe('the bundled CLI', () => {
  it('is an entry plus chunks with source maps pointing at src/', () => {
    const names = readdirSync(join(build, 'dist/cli'));
    const chunks = names.filter((n) => n.startsWith(CHUNK_PREFIX) && n.endsWith('.cjs'));
    expect(chunks.length).toBeGreaterThan(5);
    const map = JSON.parse(readFileSync(join(build, 'dist/cli', `${BIN_FILE}.map`), 'utf8')) as { sources: string[] };
    expect(map.sources.some((s) => s.endsWith('src/cli/bin.ts'))).toBe(true);
  });

  it('--version reads package.json and loads no package and no command chunk', async () => {
    const r = await docops(['--version']);
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect(r).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    expect(r.files).toEqual([`dist/cli/${BIN_FILE}`]);
  });

  it('validate finds the schemas and the generated validators from its chunks (no schema compiler)', async () => {
    const r = await docops(['validate', '-m', 'config.example/manifests']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+ documents, \d+ objects valid\n$/);
    expect(r.files).toEqual(expect.arrayContaining(['dist/manifests/validators/index.cjs', 'dist/manifests/validators/site.cjs']));
    expect(r.files.filter((f) => /node_modules\/ajv\/dist\/(ajv|core)\.js$/.test(f))).toEqual([]);
  });

  it('validate reads config.example without the logger, and words YAML errors with their positions', async () => {
    const common = await docops(['validate', '-m', 'config.example/manifests']);
    expect(common.code, common.stderr).toBe(0);
    expect(common.files.filter((f) => /node_modules\/pino\//.test(f) || /chunk-(dist-|log-(?!options-))/.test(f))).toEqual([]); // chunk-log-options: level names only
    const dir = join(scratch, 'duplicate');
    mkdirSync(dir, { recursive: true });
    const org = readFileSync(join(REPO, 'config.example/manifests/organization.yaml'), 'utf8');
    writeFileSync(join(dir, 'org.yaml'), `${org}\nspec: {}\n`);
    const dup = await docops(['validate', '-m', dir]);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/org\.yaml:\d+:1: duplicate key "spec" \(first set on line \d+\)/);
  });

  it('validate does not load node:crypto: the digests of file references (config.example reads an OpenAPI spec file) are computed when a plan reads them', async () => {
    // Node's own list of the built-ins a process loaded, written at exit by a preload.
    const list = join(scratch, 'builtins.txt');
    const preload = join(scratch, 'builtins.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`);
    const builtins = async (args: string[]): Promise<string[]> => {
      const code = await new Promise<number>((resolve) =>
        execFile(process.execPath, ['-r', preload, join(build, 'dist/cli', BIN_FILE), ...args], { cwd: REPO, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: join(scratch, 'tmp'), DOCOPS_TOKEN: sandbox.token } }, (err) =>
          resolve(err ? Number((err as { code?: unknown }).code ?? -1) : 0),
        ),
      );
      expect(code, args.join(' ')).toBe(0);
      return readFileSync(list, 'utf8').split('\n');
    };
    expect(readFileSync(join(REPO, 'config.example/manifests/openapi.yaml'), 'utf8')).toMatch(/file: /);
    expect(await builtins(['validate', '-m', 'config.example/manifests'])).not.toContain('NativeModule crypto');
    // the probe can fail: a plan compares the spec file's digest
    expect(await builtins(['plan', '-m', 'config.example/manifests', '--api-url', sandbox.url])).toContain('NativeModule crypto');
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
      const args = ['--import', join(build, 'dist/bench/probe.js'), join(build, 'dist/cli', BIN_FILE), 'daemon', '-c', join(dir, 'docops.yaml'), '--api-url', sandbox.url, '--listen', '127.0.0.1:0', '--log-format', 'json'];
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
      expect(readdirSync(join(build, 'dist/cli')).filter((n) => n.endsWith('.cjs') && readFileSync(join(build, 'dist/cli', n), 'utf8').includes('class CoordinationV1Api'))).toEqual([]);
    } finally {
      await leases.close();
    }
  });
});

describe('the compile cache of the bundled CLI (Node 20: its own, for the package\'s CommonJS files)', () => {
  const uid = typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
  // Each command keeps its own entries (compile-cache.ts, `profile`).
  const cacheRoot = (): string => join(scratch, 'tmp', `docops-compile-cache-${uid}`);
  const entriesDir = (command = 'validate'): string => join(cacheRoot(), `${process.version}-${process.arch}`, command);
  const entries = (command = 'validate'): Map<string, number> => {
    let names: string[] = [];
    try {
      names = readdirSync(entriesDir(command));
    } catch {
      return new Map();
    }
    // sources.json: which file each entry was made from (for pruning stale entries)
    return new Map(names.filter((n) => n !== 'sources.json').map((n) => [n, statSync(join(entriesDir(command), n)).mtimeMs]));
  };
  const validate = (env: Record<string, string> = {}) => docops(['validate', '-m', 'config.example/manifests'], env);
  const reset = (): void => rmSync(join(scratch, 'tmp'), { recursive: true, force: true });
  const hasNodeCache = 'enableCompileCache' in nodeModule;

  it.skipIf(hasNodeCache)('is written by the first run, then read and kept: same output, same files loaded', async () => {
    reset();
    mkdirSync(join(scratch, 'tmp'));
    const first = await validate();
    expect(first.code, first.stderr).toBe(0);
    const written = entries();
    // one entry per file of dist/ the run compiled: the chunks and the generated validators, not the entry
    const fromDist = first.files.filter((f) => f.startsWith('dist/') && f !== `dist/cli/${BIN_FILE}`);
    expect(written.size).toBe(fromDist.length);
    const second = await validate();
    expect({ code: second.code, stdout: second.stdout, stderr: second.stderr, files: second.files }).toEqual({ code: 0, stdout: first.stdout, stderr: first.stderr, files: first.files });
    expect(entries()).toEqual(written); // accepted: nothing rewritten
    for (const dir of [cacheRoot(), dirname(entriesDir()), entriesDir()]) expect(statSync(dir).mode & 0o777, dir).toBe(0o700);
  });

  it.skipIf(hasNodeCache)('keeps each command\'s entries apart: another command neither reads nor rewrites validate\'s', async () => {
    reset();
    mkdirSync(join(scratch, 'tmp'));
    expect((await validate()).code).toBe(0);
    const mine = entries();
    expect(mine.size).toBeGreaterThan(0);
    const other = await docops(['plan', '--help']);
    expect(other.code, other.stderr).toBe(0);
    const theirs = entries('plan');
    expect(theirs.size).toBeGreaterThan(0);
    expect(entries()).toEqual(mine);
    // A chunk both load has an entry in each (each with the functions its own command ran).
    const shared = [...theirs.keys()].filter((n) => mine.has(n));
    expect(shared.length).toBeGreaterThan(0);
    // An argument that is no command's name is not a directory name: those runs share one profile.
    expect((await docops(['../../x'])).code).not.toBe(0);
    expect(readdirSync(dirname(entriesDir())).sort()).toEqual(['other', 'plan', 'validate']);
  });

  it.skipIf(hasNodeCache)('removes the entries of files that changed or are gone, and only those, when it writes new ones', async () => {
    reset();
    mkdirSync(join(scratch, 'tmp'));
    expect((await validate()).code).toBe(0);
    const before = entries();
    // A rebuild of one chunk validate loads: the same path, another time (and so another entry).
    const chunk = [...before.keys()].find((n) => n.startsWith(CHUNK_PREFIX))!.replace(/\.cjs-.*$/, '.cjs');
    const path = join(build, 'dist/cli', chunk);
    const later = new Date(statSync(path).mtimeMs + 5_000);
    utimesSync(path, later, later);
    // An entry an older docops made (not in the index) is left alone.
    writeFileSync(join(entriesDir(), 'legacy.cjs-1-2-3-4-5'), 'x');
    // (The build is shared with the other tests: the chunk keeps its new time, which only renames its entry.)
    expect((await validate()).code).toBe(0);
    const after = entries();
    const stale = [...before.keys()].filter((n) => n.startsWith(`${chunk}-`));
    expect(stale.length).toBe(1);
    expect(after.has(stale[0]!)).toBe(false);
    expect([...after.keys()].filter((n) => n.startsWith(`${chunk}-`)).length).toBe(1);
    for (const n of before.keys()) if (!n.startsWith(`${chunk}-`)) expect(after.get(n), n).toBe(before.get(n));
    expect(after.has('legacy.cjs-1-2-3-4-5')).toBe(true);
    const index = JSON.parse(readFileSync(join(entriesDir(), 'sources.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(index).sort()).toEqual([...after.keys()].filter((n) => n !== 'legacy.cjs-1-2-3-4-5').sort());
  });

  it.skipIf(hasNodeCache)('rewrites entries V8 rejects (corrupt, or made for other code)', async () => {
    reset();
    mkdirSync(join(scratch, 'tmp'));
    await validate();
    const before = entries();
    for (const name of before.keys()) writeFileSync(join(entriesDir(), name), 'not a code cache');
    const r = await validate();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+ documents, \d+ objects valid\n$/);
    for (const name of before.keys()) expect(readFileSync(join(entriesDir(), name), 'utf8')).not.toBe('not a code cache');
  });

  it('never fails the command: no cache where the directory is not ours alone, or cannot be made', async () => {
    reset();
    mkdirSync(join(scratch, 'tmp'));
    // open to others (another user could plant bytecode): not used
    mkdirSync(cacheRoot(), { mode: 0o777 });
    chmodSync(cacheRoot(), 0o777);
    const open = await validate();
    expect(open.code, open.stderr).toBe(0);
    expect(entries().size).toBe(0);
    // a file where the directory should be
    reset();
    mkdirSync(join(scratch, 'tmp'));
    writeFileSync(cacheRoot(), '');
    const blocked = await validate();
    expect(blocked.code, blocked.stderr).toBe(0);
    expect(blocked.stdout).toMatch(/^\d+ documents, \d+ objects valid\n$/);
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE and with source maps (stack traces keep their src/ lines)', async () => {
    reset();
    mkdirSync(join(scratch, 'tmp'));
    expect((await validate({ NODE_DISABLE_COMPILE_CACHE: '1' })).code).toBe(0);
    expect((await validate({ NODE_OPTIONS: '--enable-source-maps' })).code).toBe(0);
    expect(entries().size).toBe(0);
  });
});
