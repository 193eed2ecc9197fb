/**
 * Every command loads only what it uses (docs/dev/benchmarks.md, "Start-up"): each command runs as a real process
 * from a build of src/ (one file per module, so what loads is visible by path), with the benchmark's probe
 * counting the modules it loads. Pass/fail is about which modules load, never about time.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProbe } from '../../tools/bench/probe-read.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { quickBuild, REPO } from '../daemon/build.js';
import { startLeaseServer } from '../daemon/lease-server.js';

let build: string;
let sandbox: RunningSandbox;
let scratch: string;

beforeAll(async () => {
  build = quickBuild();
  // The build's generated validators, as `npm run build` makes them (validate must not need ajv's compiler).
  execFileSync(process.execPath, [join(build, 'dist-tools/build/precompile-validators.js')], { cwd: build });
  sandbox = await startSandbox({ seed: 'demo' });
  scratch = mkdtempSync(join(tmpdir(), 'docops-startup-'));
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  rmSync(scratch, { recursive: true, force: true });
});

let runs = 0;

/**
 * Run `docops …` from the build (asynchronously: the sandbox answers from this process); the files it loaded,
 * as paths relative to the build (dist/… or node_modules/…).
 */
async function loaded(args: string[], env: Record<string, string> = {}, expectCode = 0): Promise<string[]> {
  const out = join(scratch, `probe-${++runs}.txt`);
  const childEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NO_COLOR: '1',
    DOCOPS_PROBE_OUT: out,
    DOCOPS_PROBE_MODULES: '1',
    ...env,
  };
  const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', join(build, 'dist-tools/bench/probe.js'), join(build, 'dist/cli/main.js'), ...args],
      { cwd: REPO, env: childEnv },
      (err, _stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code ?? -1) : 0, stderr }),
    );
  });
  expect(code, `docops ${args.join(' ')}: ${stderr}`).toBe(expectCode);
  const root = `${pathToFileURL(build).href}/`;
  const repoModules = `${pathToFileURL(realpathSync(join(REPO, 'node_modules'))).href}/`;
  return parseProbe(readFileSync(out, 'utf8')).modules.map((u) =>
    u.replace(root, '').replace(repoModules, 'node_modules/'),
  );
}

/** Like `loaded`, for `docops daemon`: stopped with SIGTERM once a log line matches `until`. */
async function daemonLoaded(args: string[], env: Record<string, string>, until: RegExp): Promise<string[]> {
  const out = join(scratch, `probe-${++runs}.txt`);
  const childEnv = {
    PATH: process.env.PATH ?? '',
    HOME: scratch,
    NO_COLOR: '1',
    DOCOPS_PROBE_OUT: out,
    DOCOPS_PROBE_MODULES: '1',
    ...env,
  };
  const child = spawn(
    process.execPath,
    [
      '--import',
      join(build, 'dist-tools/bench/probe.js'),
      join(build, 'dist/cli/main.js'),
      'daemon',
      ...args,
      '--listen',
      '127.0.0.1:0',
      '--log-format',
      'json',
    ],
    {
      cwd: REPO,
      env: childEnv,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const exited = once(child, 'exit') as Promise<[number | null]>;
  let log = '';
  let stopping = false;
  child.stderr!.on('data', (d: Buffer) => {
    log += d.toString();
    if (!stopping && until.test(log)) stopping = child.kill('SIGTERM'); // once: a second one would find no handler
  });
  const [code] = await exited;
  expect(code, log).toBe(0);
  const root = `${pathToFileURL(build).href}/`;
  const repoModules = `${pathToFileURL(realpathSync(join(REPO, 'node_modules'))).href}/`;
  return parseProbe(readFileSync(out, 'utf8')).modules.map((u) =>
    u.replace(root, '').replace(repoModules, 'node_modules/'),
  );
}

const packages = (files: readonly string[]): string[] =>
  [
    ...new Set(
      files
        .filter((f) => f.startsWith('node_modules/'))
        .map((f) =>
          f
            .split('/')
            .slice(1, f.split('/')[1]!.startsWith('@') ? 3 : 2)
            .join('/'),
        ),
    ),
  ].sort();
const under = (files: readonly string[], dir: string): string[] => files.filter((f) => f.startsWith(dir));

// What only the daemon, the sandbox, a pretty terminal or a run-time schema compile need.
const DAEMON_ONLY = ['prom-client', 'chokidar', 'node-cron'];
/** The policy's expression language, and its modules beyond what plan output renders: only when a policy is configured. */
const POLICY_ONLY = '@marcbachmann/cel-js';
const policyModules = (files: readonly string[]): string[] =>
  under(files, 'dist/policy/').filter((f) => !['dist/policy/render.js', 'dist/policy/model.js'].includes(f));
const AJV_COMPILER = /^node_modules\/ajv\/dist\/(ajv|core|2019|2020)\.js$/;

describe('which modules each command loads', () => {
  it('--version loads the entry module alone', async () => {
    for (const args of [['--version'], ['-v']])
      expect(await loaded(args), args[0]).toEqual(['dist/cli/io.js', 'dist/cli/main.js', 'dist/cli/version.js']);
  });

  it('--version and --help load no package and no command', async () => {
    for (const args of [['--version'], ['--help'], ['-v']]) {
      const files = await loaded(args);
      expect(packages(files), args.join(' ')).toEqual([]);
      expect(
        under(files, 'dist/cli/commands/').filter((f) => !f.endsWith('/index.js')),
        args.join(' '),
      ).toEqual([]);
      for (const dir of [
        'dist/kinds/',
        'dist/manifests/',
        'dist/api/client',
        'packages/sandbox/dist/',
        'dist/daemon/',
        'dist/engine/reconcile',
        'dist/log.js',
      ])
        expect(under(files, dir), dir).toEqual([]);
    }
  });

  it('validate reads manifests offline: no HTTP client, sandbox, daemon, logger, second YAML parser or schema compiler', async () => {
    const files = await loaded(['validate', '-m', 'config.example/manifests']);
    expect(under(files, 'dist/kinds/').length).toBeGreaterThan(0); // it did validate
    expect(files).toEqual(
      expect.arrayContaining(['dist/manifests/validators/index.cjs', 'dist/manifests/validators/site.cjs']),
    ); // with the build's validators (the kinds' small ones are in index.cjs),
    expect(under(files, 'dist/manifests/validators/config')).toEqual([]); // only those it uses
    const pkgs = packages(files);
    // One YAML parser, the `yaml` package; pino only when validate's debug line can show.
    expect(pkgs).toContain('yaml');
    for (const p of ['js-yaml', 'undici', 'pino', 'pino-pretty', POLICY_ONLY, ...DAEMON_ONLY])
      expect(pkgs).not.toContain(p);
    expect(under(files, 'dist/policy/')).toEqual([]);
    expect(files).not.toContain('dist/log.js');
    expect(files.filter((f) => AJV_COMPILER.test(f))).toEqual([]);
    for (const dir of [
      'dist/api/client',
      'packages/sandbox/dist/',
      'dist/daemon/',
      'dist/cli/commands/plan',
      'dist/cli/commands/apply',
    ])
      expect(under(files, dir), dir).toEqual([]);
    // Nor the planning side: fetching, diffing, ordering, the token's scopes (src/cli/plan-run.ts).
    for (const f of ['dist/cli/plan-run.js', 'dist/engine/reconcile.js', 'dist/scopes/needs.js'])
      expect(files).not.toContain(f);
  });

  it('plan against an API loads the HTTP client but not the sandbox, the daemon or the pretty printer', async () => {
    const files = await loaded(['plan', '-m', 'config.example/manifests', '--api-url', sandbox.url], {
      DOCOPS_TOKEN: sandbox.token,
    });
    expect(packages(files)).toContain('undici');
    const pkgs = packages(files);
    for (const p of ['pino-pretty', POLICY_ONLY, ...DAEMON_ONLY]) expect(pkgs).not.toContain(p);
    expect(policyModules(files)).toEqual([]);
    expect(files.filter((f) => AJV_COMPILER.test(f))).toEqual([]);
    for (const dir of ['packages/sandbox/dist/', 'dist/daemon/']) expect(under(files, dir), dir).toEqual([]);
  });

  it('plan --policy loads the policy and its expression language (the guards above can fail)', async () => {
    const dir = mkdtempSync(join(scratch, 'policy-'));
    writeFileSync(
      join(dir, 'policy.yaml'),
      'rules:\n  - { name: teams, when: \'change.kind == "Team"\', outcome: warn, message: m }\n',
    );
    const files = await loaded(
      ['plan', '-m', 'config.example/manifests', '--api-url', sandbox.url, '--policy', join(dir, 'policy.yaml')],
      { DOCOPS_TOKEN: sandbox.token },
    );
    expect(packages(files)).toContain(POLICY_ONLY);
    expect(files).toContain('dist/policy/evaluate.js');
    expect(files.filter((f) => AJV_COMPILER.test(f))).toEqual([]); // the policy's validators are generated by the build too
  });

  it.each(['whoami', 'orgs'])(
    '%s reads the API only: no kind, manifest loader, YAML parser, schema validator, sandbox or daemon',
    async (command) => {
      const files = await loaded([command, '--api-url', sandbox.url], { DOCOPS_TOKEN: sandbox.token });
      expect(packages(files)).toContain('undici'); // it did read
      for (const p of ['js-yaml', 'yaml', 'ajv', ...DAEMON_ONLY]) expect(packages(files)).not.toContain(p);
      for (const dir of ['dist/kinds/', 'dist/manifests/', 'dist/export/', 'packages/sandbox/dist/', 'dist/daemon/'])
        expect(under(files, dir), dir).toEqual([]);
    },
  );

  it('plan --sandbox loads the sandbox (the guard above can fail)', async () => {
    const files = await loaded(['plan', '-m', 'config.example/manifests', '--sandbox']);
    expect(files).toContain('packages/sandbox/dist/index.js');
    expect(packages(files).filter((p) => DAEMON_ONLY.includes(p))).toEqual([]);
  });

  it('validate loads the logger when its debug line can show', async () => {
    expect(packages(await loaded(['validate', '-m', 'config.example/manifests', '--log-level', 'debug']))).toContain(
      'pino',
    );
  });

  it('pino-pretty loads only for the pretty format', async () => {
    expect(
      packages(
        await loaded(['validate', '-m', 'config.example/manifests', '--log-format', 'pretty', '--log-level', 'debug']),
      ),
    ).toContain('pino-pretty');
    expect(
      packages(await loaded(['validate', '-m', 'config.example/manifests', '--log-level', 'debug'])),
    ).not.toContain('pino-pretty');
  });

  it('daemon --help and a bad daemon flag load no daemon part (metrics, watcher, scheduler, server) and no logger', async () => {
    for (const [args, code] of [
      [['daemon', '--help'], 0],
      [['daemon', '--nope'], 1],
    ] as const) {
      const files = await loaded([...args], {}, code);
      expect(packages(files), args.join(' ')).toEqual([]);
      expect(under(files, 'dist/daemon/'), args.join(' ')).toEqual([]);
    }
  });

  it('the daemon without ha does not load the Kubernetes client nor the election', async () => {
    // A copy of the example config, so its journal directory (`../.docops/journal`, where the daemon keeps what a
    // run wrote) is in the scratch directory, not in the checkout.
    const dir = mkdtempSync(join(scratch, 'single-'));
    const config = readFileSync(join(REPO, 'config.example/docops.yaml'), 'utf8').replace(
      'manifests: ./manifests',
      `manifests: ${join(REPO, 'config.example/manifests')}`,
    );
    writeFileSync(join(dir, 'docops.yaml'), config);
    const files = await daemonLoaded(
      ['-c', join(dir, 'docops.yaml'), '--api-url', sandbox.url],
      { DOCOPS_TOKEN: sandbox.token },
      /"msg":"reconcile (applied|done)"/,
    );
    expect(files).toContain('dist/daemon/daemon.js'); // it did run
    expect(packages(files)).not.toContain('@kubernetes/client-node');
    expect(packages(files)).not.toContain(POLICY_ONLY); // no policy configured
    expect(policyModules(files)).toEqual([]);
    expect(under(files, 'dist/daemon/ha/')).toEqual([]);
  });

  it('the daemon with ha: kubernetes loads the Kubernetes client (the guard above can fail)', async () => {
    const leases = await startLeaseServer();
    try {
      const dir = mkdtempSync(join(scratch, 'ha-'));
      writeFileSync(join(dir, 'kubeconfig'), leases.kubeconfig('probe'));
      const config = readFileSync(join(REPO, 'config.example/docops.yaml'), 'utf8').replace(
        'manifests: ./manifests',
        `manifests: ${join(REPO, 'config.example/manifests')}`,
      );
      writeFileSync(
        join(dir, 'docops.yaml'),
        `${config}\nha: { mode: kubernetes, leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 500 }\n`,
      );
      const files = await daemonLoaded(
        ['-c', join(dir, 'docops.yaml'), '--api-url', sandbox.url],
        { DOCOPS_TOKEN: sandbox.token, KUBECONFIG: join(dir, 'kubeconfig') },
        /"msg":"reconcile (applied|done)"/,
      );
      expect(packages(files)).toContain('@kubernetes/client-node');
      expect(files).toContain('dist/daemon/ha/kubernetes.js');
    } finally {
      await leases.close();
    }
  });

  it('sandbox --help and a bad sandbox flag load only its flag parsing (faults and rate-limit specs)', async () => {
    for (const [args, code] of [
      [['sandbox', '--help'], 0],
      [['sandbox', '--seed', 'nope'], 1],
    ] as const) {
      const files = await loaded([...args], {}, code);
      expect(packages(files), args.join(' ')).toEqual([]);
      expect(under(files, 'packages/sandbox/dist/'), args.join(' ')).toEqual([
        'packages/sandbox/dist/cli.js',
        'packages/sandbox/dist/faults.js',
        'packages/sandbox/dist/rate-limit.js',
      ]);
    }
  });

  it('apply without --config does not load the config loader (node-cron, the config schema)', async () => {
    const files = await loaded(
      ['apply', '-m', 'config.example/manifests', '--api-url', sandbox.url, '--journal-dir', join(scratch, 'journal')],
      { DOCOPS_TOKEN: sandbox.token },
    );
    expect(under(files, 'dist/daemon/')).toEqual([]);
    expect(under(files, 'dist/config/')).toEqual([]);
    expect(packages(files)).not.toContain('node-cron');
  });

  it("plan --config with organizations: reads docops.yaml and each organization's token, and nothing of the daemon", async () => {
    const dir = mkdtempSync(join(scratch, 'orgs-'));
    writeFileSync(
      join(dir, 'docops.yaml'),
      `organizations:\n  - id: org-demo\n    manifests: ${join(REPO, 'config.example/manifests')}\n    tokenEnv: DEMO_TOKEN\n`,
    );
    const files = await loaded(['plan', '--config', join(dir, 'docops.yaml'), '--api-url', sandbox.url], {
      DEMO_TOKEN: sandbox.token,
    });
    expect(files).toContain('dist/config/load.js'); // it did read the config,
    expect(files).toContain('dist/config/tokens.js'); // and the organization's token
    expect(under(files, 'dist/daemon/')).toEqual([]);
  });

  it('apply --config validates docops.yaml with the generated validators (no schema compiler)', async () => {
    const files = await loaded(
      [
        'apply',
        '-m',
        'config.example/manifests',
        '--config',
        'config.example/docops.yaml',
        '--api-url',
        sandbox.url,
        '--journal-dir',
        join(scratch, 'journal'),
      ],
      {
        DOCOPS_TOKEN: sandbox.token,
        DOCOPS_SCHEDULE: '*/5 * * * *', // an overridden field is checked against its own schema
      },
    );
    expect(files).toContain('dist/config/load.js');
    expect(under(files, 'dist/daemon/')).toEqual([]); // docops.yaml is both hosts': reading it loads no daemon part
    expect(files).toContain('dist/manifests/validators/config.cjs');
    expect(files).toContain('dist/manifests/validators/config-schedule.cjs');
    expect(files.filter((f) => AJV_COMPILER.test(f))).toEqual([]);
  });
});
