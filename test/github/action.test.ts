/**
 * The GitHub Action (action.yml → action/run.sh) as a workflow runs it, against the sandbox (state kept in a file
 * between steps) and a local stand-in for the GitHub API: validate annotates, plan comments once and edits that
 * comment, apply applies the saved plan. Spawns the built CLI (dist/cli/main.js: `npm run build` first).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO } from '../daemon/build.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';

const TOKEN = 'ghs_action_test_token_0123456789';
const dir = mkdtempSync(join(tmpdir(), 'docops-action-'));
let github: FakeGitHub;

beforeAll(async () => {
  github = await startFakeGitHub({ token: TOKEN, owner: 'acme', repo: 'docs-org', issue: 12 });
});
afterAll(async () => {
  await github.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Step {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
}

let steps = 0;
function runStep(inputs: Record<string, string>, event = 'pull_request'): Promise<Step> {
  const outputFile = join(dir, `output-${++steps}.txt`);
  writeFileSync(outputFile, '');
  const eventFile = join(dir, 'event.json');
  writeFileSync(eventFile, JSON.stringify({ pull_request: { number: 12, head: { sha: 'feedbeef00' } } }));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NO_COLOR: '1',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_REPOSITORY: 'acme/docs-org',
    GITHUB_API_URL: github.url,
    GITHUB_TOKEN: TOKEN,
    GITHUB_OUTPUT: outputFile,
    GITHUB_ACTION_PATH: REPO,
    RUNNER_TEMP: dir,
    DOCOPS_MANIFESTS_DIR: join(REPO, 'config.example/manifests'),
    DOCOPS_PLAN_FILE: join(dir, 'plan.json'),
    DOCOPS_LOG_LEVEL: 'warn',
    ...inputs,
  };
  return new Promise((resolve) => {
    execFile('bash', [join(REPO, 'action/run.sh')], { cwd: dir, env }, (err, stdout, stderr) => {
      const outputs = Object.fromEntries(
        readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? -1) : 0, stdout, stderr, outputs });
    });
  });
}

describe('action.yml', () => {
  it('is a composite action on an LTS Node with the three commands, running action/run.sh', () => {
    const action = parse(readFileSync(join(REPO, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { default?: string; required?: boolean }>;
      runs: { using: string; steps: { run?: string; uses?: string; env?: Record<string, string> }[] };
    };
    expect(action.runs.using).toBe('composite');
    expect(['22', '24']).toContain(action.inputs['node-version']?.default);
    expect(action.inputs.command?.required).toBe(true);
    const step = action.runs.steps.find((s) => s.run?.includes('action/run.sh'));
    expect(step?.env?.DOCOPS_COMMAND).toBe('${{ inputs.command }}');
    expect(step?.env?.GITHUB_TOKEN).toBe('${{ inputs.github-token }}');
  });

  it('examples/github uses the action for validate, plan and apply', () => {
    const workflow = readFileSync(join(REPO, 'examples/github/docops.yml'), 'utf8');
    for (const command of ['validate', 'plan', 'apply']) expect(workflow).toMatch(new RegExp(`uses: your-org/docops@\\S+\\n\\s+with: \\{ command: ${command},`));
    expect(workflow).not.toContain('actions/github-script');
  });
});

describe('action/run.sh, as the workflow runs it', () => {
  const sandbox = (): string => `--sandbox-state ${join(dir, 'sandbox.json')}`;

  it('validate: a bad manifest is an ::error annotation at its line, and the step fails', async () => {
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'team.yaml'), 'apiVersion: docops/v1\nkind: Team\nmetadata: { organization: org-demo }\nspec:\n  title: T\n  members:\n    - { email: not-an-email }\n');
    const run = await runStep({ DOCOPS_COMMAND: 'validate', DOCOPS_MANIFESTS_DIR: bad });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error file=.*team\.yaml,line=7,col=\d+::/m);
    expect(run.outputs['exit-code']).toBe('1');
  });

  it('plan on a pull request: one comment, edited in place after apply; apply applies the saved plan', async () => {
    const first = await runStep({ DOCOPS_COMMAND: 'plan', DOCOPS_ARGS: sandbox() });
    expect(first.code, first.stderr).toBe(0);
    expect(first.outputs).toMatchObject({ changes: 'true', 'exit-code': '2' });
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]!.body).toMatch(/^<!-- docops-plan -->\n### docops plan/);
    expect(github.comments[0]!.body).toContain('Commit feedbee');
    expect(github.comments[0]!.body).toContain('Token scopes');

    const apply = await runStep({ DOCOPS_COMMAND: 'apply', DOCOPS_ARGS: sandbox() }, 'push');
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain('Apply complete');

    const again = await runStep({ DOCOPS_COMMAND: 'plan', DOCOPS_ARGS: sandbox() });
    expect(again.code, again.stderr).toBe(0);
    expect(again.outputs).toMatchObject({ changes: 'false', 'exit-code': '0' });
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]!.body).toContain('No changes');
    expect(github.requests.filter((r) => r.startsWith('POST /repos/'))).toHaveLength(1);
  }, 60_000);

  it('plan on a push posts no comment', async () => {
    const before = github.requests.length;
    const run = await runStep({ DOCOPS_COMMAND: 'plan', DOCOPS_ARGS: `--sandbox-state ${join(dir, 'other.json')}` }, 'push');
    expect(run.code, run.stderr).toBe(0);
    expect(github.requests.length).toBe(before);
  });
});
