/**
 * The bundled CLI (tools/build/bundle-cli.ts) is what `docops` runs after `npm run build`: it must behave like the
 * modules it is made of (undici reduced to its Pool, paths built from import.meta.url, the generated
 * validators found from a chunk), keep each command's laziness (a chunk per lazily imported module), and use
 * Node's compile cache where Node has one (src/cli/compile-cache.ts) without ever failing because of it.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProbe } from '../../tools/bench/probe-read.js';
import { BIN_FILE, bundleCli, CHUNK_PREFIX } from '../../tools/build/bundle-cli.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { quickBuild, REPO } from '../daemon/build.js';
import { startLeaseServer } from '../daemon/lease-server.js';

let build: string;
let sandbox: RunningSandbox;
let scratch: string;

beforeAll(async () => {
  build = quickBuild();
  execFileSync(process.execPath, [join(build, 'dist-tools/build/precompile-validators.js')], { cwd: build });
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

async function docops(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string; files: string[] }> {
  const out = join(scratch, `probe-${++runs}.txt`);
  // TMPDIR: a compile cache of this test's own (the default is shared by every run of the user)
  const childEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    TMPDIR: join(scratch, 'tmp'),
    NO_COLOR: '1',
    DOCOPS_PROBE_OUT: out,
    DOCOPS_PROBE_MODULES: '1',
    ...env,
  };
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', join(build, 'dist-tools/bench/probe.js'), join(build, 'dist/cli', BIN_FILE), ...args],
      { cwd: REPO, env: childEnv },
      (err, stdout, stderr) =>
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
    expect(r.files).toEqual(
      expect.arrayContaining(['dist/manifests/validators/index.cjs', 'dist/manifests/validators/site.cjs']),
    );
    expect(r.files.filter((f) => /node_modules\/ajv\/dist\/(ajv|core)\.js$/.test(f))).toEqual([]);
  });

  it('validate reads config.example without the logger, and words YAML errors with their positions', async () => {
    const common = await docops(['validate', '-m', 'config.example/manifests']);
    expect(common.code, common.stderr).toBe(0);
    expect(
      common.files.filter((f) => /node_modules\/pino\//.test(f) || /chunk-(dist-|log-(?!options-))/.test(f)),
    ).toEqual([]); // chunk-log-options: level names only
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
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`,
    );
    const builtins = async (args: string[]): Promise<string[]> => {
      const code = await new Promise<number>((resolve) =>
        execFile(
          process.execPath,
          ['-r', preload, join(build, 'dist/cli', BIN_FILE), ...args],
          {
            cwd: REPO,
            env: {
              PATH: process.env.PATH ?? '',
              HOME: process.env.HOME ?? '',
              TMPDIR: join(scratch, 'tmp'),
              DOCOPS_TOKEN: sandbox.token,
            },
          },
          (err) => resolve(err ? Number((err as { code?: unknown }).code ?? -1) : 0),
        ),
      );
      expect(code, args.join(' ')).toBe(0);
      return readFileSync(list, 'utf8').split('\n');
    };
    expect(readFileSync(join(REPO, 'config.example/manifests/openapi.yaml'), 'utf8')).toMatch(/file: /);
    expect(await builtins(['validate', '-m', 'config.example/manifests'])).not.toContain('NativeModule crypto');
    // the probe can fail: a plan compares the spec file's digest
    expect(await builtins(['plan', '-m', 'config.example/manifests', '--api-url', sandbox.url])).toContain(
      'NativeModule crypto',
    );
  });

  it('plan talks to the API through the reduced undici (a Pool with the request API)', async () => {
    const r = await docops(['plan', '-m', 'config.example/manifests', '--api-url', sandbox.url, '--format', 'json'], {
      DOCOPS_TOKEN: sandbox.token,
    });
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
      const config = readFileSync(join(REPO, 'config.example/docops.yaml'), 'utf8').replace(
        'manifests: ./manifests',
        `manifests: ${join(REPO, 'config.example/manifests')}`,
      );
      writeFileSync(join(dir, 'docops.yaml'), `${config}\nha: { mode: kubernetes, leaseName: bundled }\n`);
      const out = join(scratch, `probe-${++runs}.txt`);
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: scratch,
        NO_COLOR: '1',
        DOCOPS_PROBE_OUT: out,
        DOCOPS_PROBE_MODULES: '1',
        DOCOPS_TOKEN: sandbox.token,
        KUBECONFIG: join(dir, 'kubeconfig'),
      };
      const args = [
        '--import',
        join(build, 'dist-tools/bench/probe.js'),
        join(build, 'dist/cli', BIN_FILE),
        'daemon',
        '-c',
        join(dir, 'docops.yaml'),
        '--api-url',
        sandbox.url,
        '--listen',
        '127.0.0.1:0',
        '--log-format',
        'json',
      ];
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
      const files = parseProbe(readFileSync(out, 'utf8')).modules.map((u) =>
        u.replace(`${pathToFileURL(build).href}/`, ''),
      );
      // Lazily, from node_modules (EXTERNAL in bundle-cli.ts): no chunk holds it.
      expect(files.some((f) => f.includes('node_modules/@kubernetes/client-node/'))).toBe(true);
      expect(
        readdirSync(join(build, 'dist/cli')).filter(
          (n) =>
            n.endsWith('.cjs') && readFileSync(join(build, 'dist/cli', n), 'utf8').includes('class CoordinationV1Api'),
        ),
      ).toEqual([]);
    } finally {
      await leases.close();
    }
  });
});

describe("the compile cache of the bundled CLI: Node's own (≥ 22.1), none on Node 20", () => {
  const uid = typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
  const cacheRoot = (): string => join(scratch, 'tmp', `docops-compile-cache-${uid}`);
  /** Files Node's cache holds for a command (compile-cache.ts, `profile`), in whatever layout Node keeps them. */
  const entries = (command = 'validate'): string[] => {
    try {
      return readdirSync(join(cacheRoot(), command), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name));
    } catch {
      return [];
    }
  };
  const validate = (env: Record<string, string> = {}) => docops(['validate', '-m', 'config.example/manifests'], env);
  const reset = (): void => {
    rmSync(join(scratch, 'tmp'), { recursive: true, force: true });
    mkdirSync(join(scratch, 'tmp'));
  };
  const hasNodeCache = 'enableCompileCache' in nodeModule;

  it.skipIf(hasNodeCache)('Node 20: nothing is cached and no directory is made', async () => {
    reset();
    const r = await validate();
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(join(scratch, 'tmp'))).toEqual([]);
  });

  it.runIf(hasNodeCache)(
    'is written by the first run into a private directory per command, then read: same output, same files loaded',
    async () => {
      reset();
      const first = await validate();
      expect(first.code, first.stderr).toBe(0);
      expect(entries().length).toBeGreaterThan(0);
      const second = await validate();
      expect({ code: second.code, stdout: second.stdout, stderr: second.stderr, files: second.files }).toEqual({
        code: 0,
        stdout: first.stdout,
        stderr: first.stderr,
        files: first.files,
      });
      expect(statSync(cacheRoot()).mode & 0o777).toBe(0o700);
      expect((await docops(['plan', '--help'])).code).toBe(0);
      expect(entries('plan').length).toBeGreaterThan(0);
      // An argument that is no command's name is not a directory name: those runs share one profile.
      expect((await docops(['../../x'])).code).not.toBe(0);
      expect(readdirSync(cacheRoot()).sort()).toEqual(['other', 'plan', 'validate']);
    },
  );

  it('never fails the command: no cache where the directory is not ours alone, or cannot be made', async () => {
    reset();
    // open to others (another user could plant bytecode): not used
    mkdirSync(cacheRoot(), { mode: 0o777 });
    chmodSync(cacheRoot(), 0o777);
    const open = await validate();
    expect(open.code, open.stderr).toBe(0);
    expect(readdirSync(cacheRoot())).toEqual([]);
    // a file where the directory should be
    reset();
    writeFileSync(cacheRoot(), '');
    const blocked = await validate();
    expect(blocked.code, blocked.stderr).toBe(0);
    expect(blocked.stdout).toMatch(/^\d+ documents, \d+ objects valid\n$/);
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE', async () => {
    reset();
    expect((await validate({ NODE_DISABLE_COMPILE_CACHE: '1' })).code).toBe(0);
    expect(readdirSync(join(scratch, 'tmp'))).toEqual([]);
  });
});
