/**
 * The Action's plan comment when the plan fails before it has a plan to show (issue 34, point 7's class: an error
 * whose sentence is lost on its way to a surface): the PR's one comment says the plan failed and what docops said
 * (a YAML mistake at file:line:column, a manifests directory that does not exist) — it is never left showing an
 * older commit's plan. Runs the action's source in-process (action/run-action.ts) against the sandbox and the local
 * GitHub stand-in; test/github/action.test.ts runs the committed bundle.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { runAction } from '../../action/run-action.js';
import { REPO } from '../daemon/build.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';

const GITHUB_TOKEN = 'ghs_action_failed_plan_0123456789';
const dir = mkdtempSync(join(tmpdir(), 'docops-action-failed-'));
let github: FakeGitHub;
let sandbox: RunningSandbox;

beforeAll(async () => {
  github = await startFakeGitHub({ token: GITHUB_TOKEN, owner: 'acme', repo: 'docs-org', issue: 12 });
  sandbox = await startSandbox({ seed: 'demo' });
});
afterAll(async () => {
  await github?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

let step = 0;
async function plan(manifests: string): Promise<{ code: number; stderr: string }> {
  step++;
  const eventFile = join(dir, 'event.json');
  writeFileSync(eventFile, JSON.stringify({ pull_request: { number: 12, head: { sha: 'feedbeef00' } } }));
  const outputFile = join(dir, `output-${step}.txt`);
  writeFileSync(outputFile, '');
  let stderr = '';
  const code = await runAction(
    {
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: eventFile,
      GITHUB_REPOSITORY: 'acme/docs-org',
      GITHUB_API_URL: github.url,
      GITHUB_OUTPUT: outputFile,
      RUNNER_TEMP: dir,
      DOCOPS_API_URL: sandbox.url,
      DOCOPS_LOG_LEVEL: 'warn',
      INPUT_COMMAND: 'plan',
      INPUT_MANIFESTS: manifests,
      INPUT_TOKEN: sandbox.token,
      'INPUT_GITHUB-TOKEN': GITHUB_TOKEN,
      'INPUT_PLAN-FILE': join(dir, `plan-${step}.json`),
    },
    { stdout: { write: () => true }, stderr: { write: (c: string) => ((stderr += c), true) } },
  );
  return { code, stderr };
}

describe('the plan comment of a plan that failed', () => {
  it('replaces the last plan with what docops said: a YAML mistake, then a directory that does not exist', async () => {
    const good = await plan(join(REPO, 'config.example/manifests'));
    expect(good.code, good.stderr).toBe(0);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]!.body).toContain('### docops plan');

    const broken = join(dir, 'broken');
    mkdirSync(broken);
    writeFileSync(
      join(broken, 'team.yaml'),
      'apiVersion: docops/v1\nkind: Team\nmetadata:\n  organization: org-demo\nspec:\n  title: Platform\n   members: []\n',
    );
    const yaml = await plan(broken);
    expect(yaml.code).toBe(1);
    expect(github.comments).toHaveLength(1);
    const body = github.comments[0]!.body;
    expect(body).toContain('**The plan failed**: nothing was planned for this commit.');
    expect(body).toContain(
      `${join(broken, 'team.yaml')}:7:4: indentation: "members" is indented 3 spaces, but "title" on line 6 is indented 2`,
    );
    expect(body).not.toContain('Plan:');

    const missing = await plan(join(dir, 'manifestz'));
    expect(missing.code).toBe(1);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]!.body).toContain(`manifests directory ${join(dir, 'manifestz')} does not exist`);
  }, 60_000);
});
