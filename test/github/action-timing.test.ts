/**
 * Time from the start of a pull request's plan job to its comment, the composite action against the bundle, side
 * by side in one run (docs/pr-checks.md, "Time to the comment"). Not part of `npm test` — it installs docops's
 * 285 packages from the registry and takes minutes; it prints numbers and asserts no time:
 *
 *     DOCOPS_ACTION_TIMING=1 npx vitest run test/github/action-timing.test.ts
 *
 * The job is the example workflow's (examples/github/docops.yml) for a pull request: the action used twice, to
 * validate and then to plan and comment.
 *
 * - before, as the composite action did at every use: `npm ci` in the action's checkout (a copy of the committed
 *   files, as the runner downloads them; `prepare` builds docops), then the command through the CLI as its
 *   action/run.sh did (`plan --format markdown`, then `pr-comment`). With an empty npm cache (a hosted runner: the
 *   composite set up no cache), and with this machine's warm cache.
 * - after: `node action/dist/index.cjs` with the validate inputs, then with the plan inputs (median of five jobs).
 *
 * Each against the same sandbox and its own GitHub stand-in, measured up to the moment the stand-in receives the
 * comment. Not measured, the same in both or favouring before: the runner's download of the action, and the
 * composite's actions/setup-node step.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { REPO } from '../daemon/build.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';

const TOKEN = 'ghs_timing_token_0123456789';
const dir = mkdtempSync(join(tmpdir(), 'docops-action-timing-'));
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ token: 'timing-write-token', readToken: 'timing-read-token', seed: 'demo' });
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
}, 120_000);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function exec(command: string, args: string[], cwd: string, env: Record<string, string | undefined>): Promise<Run> {
  const clean: NodeJS.ProcessEnv = { ...env };
  delete clean.NODE_OPTIONS; // vitest's loader hooks must not reach the child
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: clean, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

/** The workflow's environment on a pull_request event (the job's working directory is `workspace`). */
function jobEnv(github: FakeGitHub, workspace: string): Record<string, string | undefined> {
  const event = join(workspace, 'event.json');
  writeFileSync(event, JSON.stringify({ pull_request: { number: 7, head: { sha: 'c0ffee0000' } } }));
  return {
    ...process.env,
    NO_COLOR: '1',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: event,
    GITHUB_REPOSITORY: 'acme/docs-org',
    GITHUB_API_URL: github.url,
    GITHUB_TOKEN: TOKEN,
    GITHUB_WORKSPACE: workspace,
    RUNNER_TEMP: workspace,
    DOCOPS_API_URL: sandbox.url,
    DOCOPS_LOG_LEVEL: 'warn',
  };
}

/** When the stand-in received the comment (its first POST or PATCH), in ms after `start`. */
function commentAt(github: FakeGitHub, start: number): number {
  const i = github.requests.findIndex((r) => r.startsWith('POST') || r.startsWith('PATCH'));
  expect(i, 'the comment was posted').toBeGreaterThanOrEqual(0);
  expect(github.comments[0]?.body).toMatch(/^<!-- docops-plan -->\n### docops plan/);
  return github.requestTimes[i]! - start;
}

const manifests = join(REPO, 'config.example/manifests');

/** The job with the composite action: twice npm ci in a copy of the committed files, validate, then plan and comment. */
async function composite(npmCache: string): Promise<{ install: number; comment: number }> {
  const checkout = mkdtempSync(join(dir, 'composite-'));
  const files = (await exec('git', ['ls-files', '-z'], REPO, process.env)).stdout.split('\0').filter(Boolean);
  for (const f of files) {
    mkdirSync(dirname(join(checkout, f)), { recursive: true });
    cpSync(join(REPO, f), join(checkout, f));
  }
  const github = await startFakeGitHub({ token: TOKEN, owner: 'acme', repo: 'docs-org', issue: 7 });
  try {
    const env = {
      ...jobEnv(github, checkout),
      DOCOPS_TOKEN: sandbox.readToken,
      npm_config_cache: npmCache,
      npm_config_update_notifier: 'false',
    };
    const cli = join(checkout, 'dist/cli/main.js');
    let installed = 0;
    const install = async (): Promise<void> => {
      const began = performance.now();
      const npm = await exec('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], checkout, env);
      expect(npm.code, npm.stderr).toBe(0);
      installed += performance.now() - began;
    };
    const start = performance.now();
    await install();
    const validate = await exec(process.execPath, [cli, 'validate', '-m', manifests], checkout, {
      ...env,
      DOCOPS_TOKEN: undefined,
    });
    expect(validate.code, validate.stderr).toBe(0);
    await install();
    const plan = await exec(
      process.execPath,
      [
        cli,
        'plan',
        '-m',
        manifests,
        '--format',
        'markdown',
        '--detailed-exitcode',
        '--out',
        join(checkout, 'plan.json'),
      ],
      checkout,
      env,
    );
    expect(plan.code, plan.stderr).toBe(2);
    writeFileSync(join(checkout, 'plan.md'), plan.stdout);
    const posted = await exec(
      process.execPath,
      [cli, 'pr-comment', '--body-file', join(checkout, 'plan.md'), '--marker', 'docops-plan'],
      checkout,
      env,
    );
    expect(posted.code, posted.stderr).toBe(0);
    return { install: installed, comment: commentAt(github, start) };
  } finally {
    await github.close();
    rmSync(checkout, { recursive: true, force: true }); // its node_modules: 220 MB
  }
}

/** The job with the bundled action: the runner starts `node action/dist/index.cjs` with validate's inputs, then plan's. */
async function bundled(): Promise<number> {
  const workspace = mkdtempSync(join(dir, 'bundle-'));
  const github = await startFakeGitHub({ token: TOKEN, owner: 'acme', repo: 'docs-org', issue: 7 });
  try {
    const env = {
      ...jobEnv(github, workspace),
      INPUT_COMMAND: 'plan',
      INPUT_MANIFESTS: manifests,
      INPUT_TOKEN: sandbox.readToken,
      'INPUT_PLAN-FILE': join(workspace, 'plan.json'),
      INPUT_COMMENT: 'true',
      'INPUT_COMMENT-MARKER': 'docops-plan',
      'INPUT_GITHUB-TOKEN': TOKEN,
      INPUT_ARGS: '',
      GITHUB_OUTPUT: join(workspace, 'output.txt'),
    };
    const action = join(REPO, 'action/dist/index.cjs');
    const start = performance.now();
    const validate = await exec(process.execPath, [action], workspace, {
      ...env,
      INPUT_COMMAND: 'validate',
      INPUT_TOKEN: '',
    });
    expect(validate.code, validate.stderr).toBe(0);
    const plan = await exec(process.execPath, [action], workspace, env);
    expect(plan.code, plan.stderr).toBe(0);
    return commentAt(github, start);
  } finally {
    await github.close();
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

describe.skipIf(process.env.DOCOPS_ACTION_TIMING !== '1')('time from job start to the PR comment', () => {
  it(
    'composite (npm ci + build at each use) against the bundle',
    async () => {
      const cold = await composite(mkdtempSync(join(dir, 'npm-cache-')));
      const warm = await composite(join(process.env.HOME ?? tmpdir(), '.npm'));
      const after: number[] = [];
      for (let i = 0; i < 5; i++) after.push(await bundled());
      const median = after.sort((a, b) => a - b)[2]!;
      const rows = [
        `| composite, empty npm cache (a hosted runner) | ${seconds(cold.comment)} | 2 × (npm ci + build): ${seconds(cold.install)} |`,
        `| composite, warm npm cache | ${seconds(warm.comment)} | 2 × (npm ci + build): ${seconds(warm.install)} |`,
        `| bundle (action/dist/index.cjs) | ${(median / 1000).toFixed(2)} s | median of 5: ${after.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s |`,
      ];
      process.stdout.write(`\n| action | job start → comment | |\n|---|---|---|\n${rows.join('\n')}\n\n`);
    },
    30 * 60_000,
  );
});
