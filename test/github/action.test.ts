/**
 * The GitHub Action as the runner runs it: `node` on action.yml's `runs.main` (the committed bundle), with every
 * input as an INPUT_<NAME> variable (action.yml's defaults filled in) and the outputs read from $GITHUB_OUTPUT.
 * The bundle runs from a copy of the action holding nothing else — no node_modules, no dist/, no src/ — against
 * the sandbox (a read-only token for plan, a write token for apply) and a local stand-in for the GitHub API:
 * validate annotates, plan comments once and edits that comment, apply applies the saved plan.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { REPO } from '../daemon/build.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';
import { readOutputs } from './workflow-runner.js';

/** The Node that runs the bundle: this one (docops's floor, 20.19+), or DOCOPS_ACTION_NODE (e.g. a node24 binary, the runner's). */
const NODE = process.env.DOCOPS_ACTION_NODE ?? process.execPath;
const GITHUB_TOKEN = 'ghs_action_test_token_0123456789';
const WRITE_TOKEN = 'docops-write-token-0123456789';
const READ_TOKEN = 'docops-read-token-0123456789';

interface ActionYml {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { description: string; value?: string }>;
  runs: { using: string; main?: string; steps?: unknown };
}
const action = parse(readFileSync(join(REPO, 'action.yml'), 'utf8')) as ActionYml;

const dir = mkdtempSync(join(tmpdir(), 'docops-action-'));
/** The action as a workflow gets it, reduced to action.yml and its bundle. */
const actionPath = join(dir, 'docops-action');
let github: FakeGitHub;
let sandbox: RunningSandbox;

beforeAll(async () => {
  mkdirSync(actionPath);
  cpSync(join(REPO, 'action.yml'), join(actionPath, 'action.yml'));
  const main = action.runs.main;
  if (main !== undefined && existsSync(join(REPO, main))) cpSync(join(REPO, main), join(actionPath, main));
  github = await startFakeGitHub({ token: GITHUB_TOKEN, owner: 'acme', repo: 'docs-org', issue: 12 });
  sandbox = await startSandbox({ token: WRITE_TOKEN, readToken: READ_TOKEN, seed: 'demo' });
});
afterAll(async () => {
  await github?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Step {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
}

/** The INPUT_<NAME> variables the runner sets: every input of action.yml, given or defaulted. */
function inputVariables(given: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    const value = given[name] ?? (spec.default === '${{ github.token }}' ? GITHUB_TOKEN : (spec.default ?? ''));
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  }
  return env;
}

let steps = 0;
function runStep(
  inputs: Record<string, string>,
  event = 'pull_request',
  extraEnv: Record<string, string> = {},
): Promise<Step> {
  const outputFile = join(dir, `output-${++steps}.txt`);
  writeFileSync(outputFile, '');
  const eventFile = join(dir, 'event.json');
  writeFileSync(eventFile, JSON.stringify({ pull_request: { number: 12, head: { sha: 'feedbeef00' } } }));
  const runnerTemp = join(dir, `runner-temp-${steps}`);
  mkdirSync(runnerTemp);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NO_COLOR: '1',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_REPOSITORY: 'acme/docs-org',
    GITHUB_API_URL: github.url,
    GITHUB_OUTPUT: outputFile,
    GITHUB_ACTION_PATH: actionPath,
    GITHUB_WORKSPACE: dir,
    RUNNER_TEMP: runnerTemp,
    // The workflow's env: the API the sandbox serves (a real workflow leaves it unset), quieter logs.
    DOCOPS_API_URL: sandbox.url,
    DOCOPS_LOG_LEVEL: 'warn',
    ...inputVariables({
      manifests: join(REPO, 'config.example/manifests'),
      'plan-file': join(dir, 'plan.json'),
      ...inputs,
    }),
    ...extraEnv,
  };
  return new Promise((resolve) => {
    execFile(NODE, [join(actionPath, action.runs.main!)], { cwd: dir, env }, (err, stdout, stderr) => {
      resolve({
        code: err ? Number((err as { code?: unknown }).code ?? -1) : 0,
        stdout,
        stderr,
        outputs: readOutputs(outputFile),
      });
    });
  });
}

describe('action.yml', () => {
  it('is a JavaScript action on node24 running the committed bundle, with the three commands', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'action/dist/index.cjs' });
    expect(action.inputs.command?.required).toBe(true);
    expect(action.inputs['github-token']?.default).toBe('${{ github.token }}');
    expect(Object.keys(action.outputs).sort()).toEqual(['changes', 'exit-code', 'plan-file']);
    for (const output of Object.values(action.outputs)) expect(output.value).toBeUndefined(); // a JavaScript action sets them itself
  });

  it('examples/github uses the action for validate, plan and apply', () => {
    const workflow = readFileSync(join(REPO, 'examples/github/docops.yml'), 'utf8');
    for (const command of ['validate', 'plan', 'apply'])
      expect(workflow).toMatch(new RegExp(`uses: \\./\\.github/actions/docops\\n\\s+with: \\{ command: ${command},`));
    expect(workflow).not.toContain('actions/github-script');
  });
});

describe('the example workflow (examples/github/docops.yml)', () => {
  interface WorkflowStep {
    id?: string;
    uses?: string;
    if?: string;
    with?: Record<string, string>;
  }
  interface Job {
    if?: string;
    needs?: string | string[];
    environment?: string | { name: string };
    outputs?: Record<string, string>;
    steps: WorkflowStep[];
  }
  const workflow = parse(readFileSync(join(REPO, 'examples/github/docops.yml'), 'utf8')) as {
    on: Record<string, unknown>;
    jobs: Record<string, Job>;
  };
  const docopsSteps = (job: Job, command: string): WorkflowStep[] =>
    job.steps.filter((s) => s.uses === './.github/actions/docops' && s.with?.command === command);
  const planJobs = Object.entries(workflow.jobs).filter(([, job]) => docopsSteps(job, 'plan').length > 0);

  it('plans once per event: one job with one plan step, for pull requests and pushes to the default branch', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
    expect(planJobs.map(([name]) => name)).toHaveLength(1);
    const [, job] = planJobs[0]!;
    expect(docopsSteps(job, 'plan')).toHaveLength(1);
    // Both events; a push only to the default branch, whatever its name (no branch filter assumes one).
    expect(job.if).toBe(
      "github.event_name == 'pull_request' || github.ref_name == github.event.repository.default_branch",
    );
  });

  it('asks for apply approval only when the plan has changes: the apply job needs the plan job and its `changes` output', () => {
    const [planName, planJob] = planJobs[0]!;
    const plan = docopsSteps(planJob, 'plan')[0]!;
    expect(plan.id).toBeDefined();
    expect(planJob.outputs?.changes).toBe(`\${{ steps.${plan.id}.outputs.changes }}`);
    const applyJobs = Object.values(workflow.jobs).filter((job) => docopsSteps(job, 'apply').length > 0);
    expect(applyJobs).toHaveLength(1);
    const apply = applyJobs[0]!;
    expect([apply.needs].flat()).toContain(planName);
    expect(apply.if).toMatch(new RegExp(`needs\\.${planName}\\.outputs\\.changes == 'true'`));
    expect(apply.if).toMatch(/github\.event_name == 'push'/);
    expect(apply.environment).toBeDefined();
    expect(docopsSteps(apply, 'apply')[0]!.with?.['plan-file']).toBe(plan.with?.['plan-file']);
  });
});

describe('the bundled action, as a workflow runs it', () => {
  it('validate: a bad manifest is an ::error annotation at its line, and the step fails', async () => {
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    writeFileSync(
      join(bad, 'team.yaml'),
      'apiVersion: docops/v1\nkind: Team\nmetadata: { organization: org-demo }\nspec:\n  title: T\n  members:\n    - { email: not-an-email }\n',
    );
    const run = await runStep({ command: 'validate', manifests: bad });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error file=bad\/team\.yaml,line=7,col=\d+::/m);
    expect(run.outputs['exit-code']).toBe('1');
  });

  it('plan on a pull request with a read-only token: one comment, edited in place after apply; apply applies the saved plan', async () => {
    const first = await runStep({ command: 'plan', token: READ_TOKEN });
    expect(first.code, first.stderr).toBe(0);
    expect(first.outputs).toMatchObject({ changes: 'true', 'exit-code': '2', 'plan-file': join(dir, 'plan.json') });
    expect(first.stdout).toContain('### docops plan'); // the plan in the log
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]!.body).toMatch(/^<!-- docops-plan -->\n### docops plan/);
    expect(github.comments[0]!.body).toContain('Commit feedbee');
    expect(github.comments[0]!.body).toContain('Token scopes');
    expect(JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8'))).toMatchObject({ formatVersion: 2 });

    const apply = await runStep({ command: 'apply', token: WRITE_TOKEN }, 'push');
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain('Apply complete');
    expect(apply.outputs['exit-code']).toBe('0');

    const again = await runStep({ command: 'plan', token: READ_TOKEN });
    expect(again.code, again.stderr).toBe(0);
    expect(again.outputs).toMatchObject({ changes: 'false', 'exit-code': '0' });
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]!.body).toContain('No changes');
    // One comment created, then edited in place (the GraphQL identity reads are POST /graphql).
    expect(github.requests.filter((r) => r.startsWith('POST /repos/'))).toHaveLength(1);
    expect(github.requests.filter((r) => r.startsWith('PATCH'))).toHaveLength(1);
  }, 60_000);

  it('plan on a push posts no comment', async () => {
    const before = github.requests.length;
    const run = await runStep({ command: 'plan', token: READ_TOKEN, 'plan-file': join(dir, 'push-plan.json') }, 'push');
    expect(run.code, run.stderr).toBe(0);
    expect(run.outputs.changes).toBe('false');
    expect(github.requests.length).toBe(before);
  });

  it('validate of valid manifests passes (no token needed)', async () => {
    const run = await runStep({ command: 'validate' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/objects valid/);
    expect(run.outputs['exit-code']).toBe('0');
  });

  it('what the bundle leaves out refuses with a usage error: --sandbox', async () => {
    const run = await runStep(
      { command: 'plan', token: READ_TOKEN, args: '--sandbox', 'plan-file': join(dir, 'sandbox-plan.json') },
      'push',
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /the in-process sandbox \(--sandbox\) is not part of the docops GitHub Action, which runs validate, plan and apply/,
    );
  });

  it('an unknown command fails with an ::error naming the three commands', async () => {
    const run = await runStep({ command: 'destroy%0A::warning::x' });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^::error::docops action: input 'command' must be validate, plan or apply \(got 'destroy%250A::warning::x'\)$/m,
    );
    expect(run.outputs['exit-code']).toBe('1');
  });
});
