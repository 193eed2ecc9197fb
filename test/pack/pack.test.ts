/**
 * The release tarball (issues 17 and 23), made as `npm run tarball` makes it (dist-tools/build/release-tarball.js: packs
 * the current build; `npm ci` builds in CI) and installed as docs/install.md says, `npm install -g
 * ./docops-VERSION.tgz`, into an empty prefix (its dependencies from the registry, nothing from this checkout):
 * - it holds what runs and nothing else (no sources, source maps, benchmark or build scripts), and every file
 *   the bundled command loads by a relative path;
 * - it installs without a warning, with no install script, the dependencies its shrinkwrap pins, and without the
 *   optional Kubernetes client;
 * - the installed command runs: --version, --help, a plan on the sandbox (with the shipped scopes table), a PR
 *   comment (the GitHub client is a dependency), and `ha: {mode: kubernetes}` says what is missing — then, with
 *   the client installed beside it as that message says, leads through a Lease.
 */
import { execFile, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KUBERNETES_CLIENT, KUBERNETES_CLIENT_RANGE } from '../../src/daemon/ha/leadership.js';
import { REPO } from '../daemon/build.js';
import { startLeaseServer } from '../daemon/lease-server.js';
import { waitFor } from '../daemon/wait.js';
import { startFakeGitHub } from '../github/fake-github.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const baseEnv = (env: Record<string, string>): NodeJS.ProcessEnv => {
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false', ...env };
  delete base.NODE_OPTIONS; // vitest's loader hooks must not reach the installed tool
  return base;
};

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  timeout = 0,
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: baseEnv(env), maxBuffer: 64 * 1024 * 1024, timeout }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'docops-pack-'));
const prefix = join(scratch, 'global');
const docops = join(prefix, 'bin', 'docops');
const installed = join(prefix, 'lib', 'node_modules', 'docops');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
let tarball = '';
let files: string[] = [];
let install: Run;

beforeAll(async () => {
  const packed = await run(process.execPath, [join(REPO, 'dist-tools/build/release-tarball.js'), scratch], REPO);
  expect(packed.code, packed.stderr).toBe(0);
  tarball = packed.stdout.trim();
  expect(tarball).toBe(join(scratch, `docops-${pkg.version}.tgz`));
  const listed = await run('tar', ['-tzf', tarball], scratch);
  files = listed.stdout
    .split('\n')
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ''));
  // The documented install: no --loglevel, so every warning npm gives a user shows.
  install = await run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', tarball], scratch);
}, 180_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const packed = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(installed, name), 'utf8')) as Record<string, unknown>;

describe('the release tarball', () => {
  it('holds what runs — the bundled command, its generated data, the schemas, the example, what init writes — and nothing else', () => {
    for (const f of [
      'package.json',
      'README.md',
      'npm-shrinkwrap.json',
      'dist/cli/docops.cjs',
      'dist/api/operation-scopes.json',
      'dist/manifests/validators/index.cjs',
      'dist/cli/spec-bodies/index.cjs',
      'schemas/document.schema.json',
      'config.example/docops.yaml',
      'examples/github/docops.yml',
      'examples/github/docops-plan.yml',
      'action.yml',
      'action/dist/index.cjs',
      'action/dist/licenses.txt',
    ]) {
      expect(files).toContain(f);
    }
    const runs =
      /^(package\.json|README\.md|LICENSE|npm-shrinkwrap\.json|dist\/cli\/(docops|chunk-[\w-]+)\.cjs|dist\/api\/operation-scopes\.json|dist\/(manifests\/validators|cli\/spec-bodies)\/[\w-]+\.cjs|schemas\/[\w-]+\.schema\.json|config\.example\/.+\.ya?ml|examples\/github\/docops(-plan)?\.yml|action\.yml|action\/dist\/(index\.cjs|licenses\.txt))$/;
    expect(files.filter((f) => !runs.test(f))).toEqual([]);
    expect(
      files.filter(
        (f) =>
          f.endsWith('.map') ||
          /^(src|test|bench|tools|packages|dist-tools|dist\/bench|dist\/build|dist\/sandbox)\//.test(f),
      ),
    ).toEqual([]);
    // nothing of the checkout's layout either: the sandbox is in the bundle, the tools stay home
    expect(Object.keys(packed('package.json'))).not.toEqual(expect.arrayContaining(['workspaces']));
    expect(Object.keys(packed('package.json'))).not.toEqual(expect.arrayContaining(['imports']));
  });

  it('is what docs/install.md says it is: its count of files and its size, within a tenth (issue 34 §9)', () => {
    const doc = readFileSync(join(REPO, 'docs/install.md'), 'utf8');
    const said = /about (\d+) files, ([\d.]+) MB/.exec(doc);
    expect(said, 'docs/install.md says "about N files, X MB"').not.toBeNull();
    const near = (actual: number, written: number): boolean => Math.abs(actual - written) <= written / 10;
    const mb = statSync(tarball).size / 1e6;
    expect(near(files.length, Number(said![1])), `${files.length} files, the docs say ${said![1]}`).toBe(true);
    expect(near(mb, Number(said![2])), `${mb.toFixed(2)} MB, the docs say ${said![2]}`).toBe(true);
  });

  it('has every file the bundled command loads by a relative path', () => {
    const cli = files.filter((f) => /^dist\/cli\/.+\.cjs$/.test(f));
    const named = new Set<string>();
    for (const f of cli) {
      const code = readFileSync(join(installed, f), 'utf8');
      // the code's own double-quoted paths: chunks, package.json, schemas, the generated tables and validators
      for (const [, rel] of code.matchAll(/"(\.{1,2}\/[^"]+\.(?:cjs|js|json))"/g))
        named.add(posix.normalize(posix.join('dist/cli', rel!)));
    }
    expect(named.size).toBeGreaterThan(cli.length / 2);
    expect([...named].filter((f) => !files.includes(f))).toEqual([]);
  });

  it('names in package.json only files it has, and no script npm would run or list on install', () => {
    const manifest = packed('package.json') as {
      bin: Record<string, string>;
      main?: string;
      exports: Record<string, string>;
      scripts?: object;
      devDependencies?: object;
    };
    const targets = [
      ...Object.values(manifest.bin),
      ...Object.values(manifest.exports),
      ...(manifest.main ? [manifest.main] : []),
    ];
    expect(targets.map((t) => posix.normalize(t))).toEqual(
      expect.arrayContaining(['dist/cli/docops.cjs', 'package.json']),
    );
    expect(targets.map((t) => posix.normalize(t)).filter((t) => !files.includes(t))).toEqual([]);
    expect(manifest.scripts).toBeUndefined(); // prepare among them: npm 11 lists it as an install script of a file install
    expect(manifest.devDependencies).toBeUndefined();
  });

  it('pins the production dependencies in its shrinkwrap, without the optional Kubernetes client', () => {
    const shrinkwrap = packed('npm-shrinkwrap.json') as {
      packages: Record<string, { dev?: boolean; optional?: boolean; peer?: boolean }>;
    };
    const entries = Object.entries(shrinkwrap.packages).filter(([path]) => path !== '');
    expect(entries.length).toBeGreaterThan(20);
    expect(entries.filter(([, e]) => e.dev || e.peer).map(([path]) => path)).toEqual([]);
    expect(entries.filter(([path]) => path.includes(KUBERNETES_CLIENT))).toEqual([]);
    const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string }>;
    };
    for (const [path, entry] of entries) expect(entry, path).toMatchObject({ version: lock.packages[path]!.version });
  });
});

describe('npm install -g ./docops-VERSION.tgz', () => {
  it('installs without a warning, production dependencies only, without the Kubernetes client', () => {
    expect(install.code, install.stderr).toBe(0);
    expect(install.stderr).not.toMatch(/npm warn/i);
    expect(existsSync(join(installed, 'dist/cli/docops.cjs'))).toBe(true);
    const deps = readdirSync(join(installed, 'node_modules'));
    for (const dev of ['typescript', 'vitest', '@gitbook', 'rolldown', 'docops']) expect(deps, dev).not.toContain(dev);
    expect(existsSync(join(installed, 'node_modules', KUBERNETES_CLIENT))).toBe(false);
    expect(deps).toContain('pino');
  });

  it('docops --version and --help', async () => {
    const version = await run(docops, ['--version'], scratch);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);
    const help = await run(docops, ['--help'], scratch);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Commands:/m);
  });

  it('docops plan --sandbox, with the token scopes from the shipped table', async () => {
    const r = await run(
      docops,
      [
        'plan',
        '-m',
        join(installed, 'config.example/manifests'),
        '--sandbox',
        '--format',
        'json',
        '--log-level',
        'warn',
      ],
      scratch,
    );
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { steps: unknown[]; scopes: { apply: { scopes: string[] } } };
    expect(doc.steps.length).toBeGreaterThan(0);
    expect(doc.scopes.apply.scopes).toContain('organization:members:write');
  });

  it('docops pr-comment reaches GitHub with its client', async () => {
    const github = await startFakeGitHub({ token: 'ghs_pack', owner: 'acme', repo: 'docs', issue: 3 });
    try {
      writeFileSync(join(scratch, 'plan.md'), '### docops plan\n');
      const r = await run(
        docops,
        ['pr-comment', '--body-file', 'plan.md', '--repo', 'acme/docs', '--pr', '3'],
        scratch,
        { GITHUB_TOKEN: 'ghs_pack', GITHUB_API_URL: github.url },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(github.comments).toHaveLength(1);
    } finally {
      await github.close();
    }
  });

  it('docops init writes the workflow, the Action and the schemas the package ships (in package.json files)', async () => {
    const dir = mkdtempSync(join(scratch, 'init-'));
    const r = await run(docops, ['init', '--org', 'org-demo', 'acme-docs', '--sandbox', '--log-level', 'warn'], dir);
    expect(r.code, r.stderr).toBe(0);
    for (const f of [
      'acme-docs/.github/workflows/docops.yml',
      'acme-docs/.github/actions/docops/action.yml',
      'acme-docs/.github/actions/docops/action/dist/index.cjs',
      'acme-docs/schemas/document.schema.json',
      'acme-docs/docops.yaml',
      'acme-docs/manifests/teams.yaml',
    ])
      expect(existsSync(join(dir, f)), f).toBe(true);
  });

  it('ha: {mode: kubernetes} without the client says what is missing; installed beside docops as it says, it leads', async () => {
    const leases = await startLeaseServer();
    try {
      const dir = mkdtempSync(join(scratch, 'ha-'));
      mkdirSync(join(dir, 'manifests'));
      writeFileSync(join(dir, 'kubeconfig'), leases.kubeconfig('installed'));
      writeFileSync(
        join(dir, 'docops.yaml'),
        [
          'manifests: ./manifests',
          'listen: 127.0.0.1:0',
          'journalDir: ./journal',
          'ha: { mode: kubernetes, leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 500 }',
          '',
        ].join('\n'),
      );
      const env = { KUBECONFIG: join(dir, 'kubeconfig'), HOSTNAME: 'installed' };
      const args = ['daemon', '-c', join(dir, 'docops.yaml'), '--sandbox', '--log-format', 'json'];

      const missing = await run(docops, args, dir, env, 30_000); // a daemon that starts would run until killed
      expect(missing.code, missing.stderr).toBe(1);
      expect(missing.stderr).toContain(`ha: {mode: kubernetes} needs ${KUBERNETES_CLIENT}`);
      expect(missing.stderr).toContain(`npm install -g ${KUBERNETES_CLIENT}@${KUBERNETES_CLIENT_RANGE}`);
      expect(missing.stderr).not.toMatch(/Require stack|at .*\.cjs:\d+/); // the message, not a stack trace
      expect(leases.events).toEqual([]);

      const added = await run(
        'npm',
        [
          'install',
          '-g',
          '--prefix',
          prefix,
          '--no-audit',
          '--no-fund',
          `${KUBERNETES_CLIENT}@${KUBERNETES_CLIENT_RANGE}`,
        ],
        scratch,
      );
      expect(added.code, added.stderr).toBe(0);
      const daemon = spawn(docops, args, { cwd: dir, env: baseEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
      const exited = new Promise<number | null>((resolve) => daemon.on('exit', (code) => resolve(code)));
      const logs: string[] = [];
      createInterface({ input: daemon.stderr! }).on('line', (line) => logs.push(line));
      try {
        await waitFor(
          () => String(leases.lease('docops', 'docops')?.spec.holderIdentity ?? '').startsWith('installed-'),
          60_000,
          () => `the lease taken:\n${logs.join('\n')}`,
        );
      } finally {
        daemon.kill('SIGTERM');
      }
      expect(await exited, logs.join('\n')).toBe(0);
    } finally {
      await leases.close();
    }
  }, 120_000);
});
