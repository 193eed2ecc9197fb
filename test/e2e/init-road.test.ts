/**
 * The road a team walks from `docops init` (issue 34), with every file init writes and every command its "Next:"
 * prints used unchanged, for each choice of who applies a merge (`--applier workflow`, `--applier daemon`):
 * - the printed git commands run for real, with a git whose default branch is `master`; the push goes to a git
 *   repository standing in for the one on GitHub (git's `insteadOf` points the printed URL at it);
 * - the written workflow runs on each push and pull request in the stand-in runner (test/github/workflow-runner.ts),
 *   with the Action init wrote beside it, against the sandbox and the local GitHub stand-in, given exactly the
 *   secrets and the environment "Next:" names;
 * - the Kubernetes kit (deploy/kubernetes, rendered by kubectl) runs its daemon on the repository's own
 *   docops.yaml, following the repository through git-sync (test/e2e/kit-pod.ts).
 * The first push plans (no changes, no comment); the pull request gets its plan as one comment; the merge is
 * applied once, by the chosen applier, and only after the approval that setup requires; nothing else writes.
 * kubectl: DOCOPS_KUBECTL or the one on PATH (test/deploy/kustomize.test.ts says how to get one).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { REPO } from '../daemon/build.js';
import { startFakeGitHub, type FakeGitHub } from '../github/fake-github.js';
import { runWorkflow, type RunnerOptions, type WorkflowEvent } from '../github/workflow-runner.js';
import { renderKit, startKitPod, type KitPod } from './kit-pod.js';

const WRITE = 'docops-write-token-0123456789';
const READ = 'docops-read-token-0123456789';
const WORKFLOW_TOKEN = 'ghs_workflow_token_0123456789';
const DAEMON_GITHUB = 'ghp_daemon_reads_pulls_0123456789';
const ALICE = 'ghp_alice_0123456789';
const MALLORY = 'ghp_mallory_0123456789';
const REPOSITORY = 'acme/docs-org';
const TEAM = 'acme/docs-approvers';
const ORG = 'org-demo';

const scratch = mkdtempSync(join(tmpdir(), 'docops-road-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let sandbox: RunningSandbox;
let github: FakeGitHub;
const pulls: Record<string, number[]> = {};
beforeAll(async () => {
  github = await startFakeGitHub({
    token: WORKFLOW_TOKEN,
    accounts: {
      [DAEMON_GITHUB]: { login: 'docops-bot', type: 'User' },
      [ALICE]: { login: 'alice', type: 'User' },
      [MALLORY]: { login: 'mallory', type: 'User' },
    },
    owner: 'acme',
    repo: 'docs-org',
    issue: 1,
    pulls,
    teams: { [TEAM]: { alice: 'active' } },
  });
});
afterAll(async () => {
  await github?.close();
});

const writes = (): number => {
  const s = sandbox.stats();
  return s.total - (s.byMethod['GET'] ?? 0);
};

async function teamTitles(): Promise<string[]> {
  const res = await fetch(`${sandbox.url}/orgs/${ORG}/teams?limit=1000`, {
    headers: { authorization: `Bearer ${WRITE}` },
  });
  return ((await res.json()) as { items: { title: string }[] }).items.map((t) => t.title).sort();
}

/** A user's machine: a HOME whose git makes `master` by default, and the stand-in for GitHub's repository. */
function machine(name: string): { home: string; remote: string; env: NodeJS.ProcessEnv } {
  const home = join(scratch, name, 'home');
  const remote = join(scratch, name, 'github', 'docs-org.git');
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, '.gitconfig'),
    [
      '[init]\n\tdefaultBranch = master',
      '[user]\n\tname = Ada\n\temail = ada@acme.test',
      `[url "${remote}"]\n\tinsteadOf = https://github.com/${REPOSITORY}.git`,
      '',
    ].join('\n'),
  );
  const env = { ...process.env, HOME: home, GIT_CONFIG_GLOBAL: join(home, '.gitconfig'), GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', ['init', '--quiet', '--bare', remote], { env });
  return { home, remote, env };
}

/** The docops command as installed (the build's bundle: `npm run build`), run where the user is. */
function docops(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(REPO, 'dist/cli/docops.cjs'), ...args],
      { cwd, env: { ...env, NO_COLOR: '1' } },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: unknown }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

/** Split a printed command into words as a shell would (single quotes only: what init prints). */
const words = (line: string): string[] =>
  [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] ?? m[2]!).replace(/'\\''/g, "'"));

/** The commands of the printed "Next:" block and the lines that follow, without their comments. */
function printed(stdout: string): { commands: string[]; text: string } {
  const text = stdout.slice(stdout.indexOf('Next:'));
  const commands = text
    .split('\n')
    .filter((l) => /^ {2}(cd|git|docops) /.test(l))
    .map((l) => l.replace(/\s{2,}#.*$/, '').trim());
  return { commands, text };
}

async function walk(applier: 'workflow' | 'daemon'): Promise<void> {
  // The organization as the demo seed has it, for each road.
  sandbox = await startSandbox({ token: WRITE, readToken: READ, seed: 'demo' });
  try {
    await road(applier);
  } finally {
    await sandbox.close();
  }
}

async function road(applier: 'workflow' | 'daemon'): Promise<void> {
  const m = machine(applier);
  const dir = join(scratch, applier, 'acme-docs');
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync('git', args, { cwd, env: m.env, encoding: 'utf8' }).trim();

  // 1. docops init, as getting-started says, with a read-only token (init only reads).
  const user = { ...m.env, DOCOPS_TOKEN: READ, DOCOPS_LOG_LEVEL: 'warn' };
  const init = await docops(
    ['init', '--org', ORG, dir, '--api-url', sandbox.url, '--applier', applier]
      .concat(['--github-repo', REPOSITORY])
      .concat(applier === 'daemon' ? ['--approvers', TEAM] : []),
    scratch,
    user,
  );
  expect(init.code, init.stderr).toBe(0);
  const next = printed(init.stdout);
  expect(next.commands[0]).toBe(`cd ${dir}`);

  // 2. The printed commands, as typed: git (a master-default git), the first plan, the push.
  let cwd = scratch;
  for (const command of next.commands) {
    if (command.startsWith('cd ')) cwd = words(command)[1]!;
    else if (command.startsWith('git ')) execFileSync('bash', ['-c', command], { cwd, env: m.env, stdio: 'pipe' });
    else if (command.startsWith('docops plan ')) {
      const plan = await docops(words(command).slice(1), cwd, user);
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toContain('No changes');
    }
  }
  expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
  expect(git(m.remote, 'branch', '--list', '--format=%(refname:short)')).toBe('main');
  // GitHub makes the first branch pushed to an empty repository its default branch.
  git(m.remote, 'symbolic-ref', 'HEAD', 'refs/heads/main');

  // What "Next:" says the workflow needs, and nothing else: its secrets and its environment.
  const repoSecrets = [...next.text.matchAll(/repository secret (DOCOPS_\w+)/g)].map((x) => x[1]!);
  const environments = [...next.text.matchAll(/environment (\S+): .*?secret (DOCOPS_\w+)/g)];
  const token = (name: string): string => (name.includes('WRITE') ? WRITE : READ);
  const reviews: string[] = [];
  let review: (job: string) => Promise<boolean> = () => Promise.reject(new Error('nobody was asked to review'));
  const runner: RunnerOptions = {
    remote: m.remote,
    repository: REPOSITORY,
    defaultBranch: 'main',
    secrets: Object.fromEntries(repoSecrets.map((s) => [s, token(s)])),
    environments: Object.fromEntries(
      environments.map(([, env, secret]) => [
        env!,
        { secrets: { [secret!]: token(secret!) }, review: (job: string) => (reviews.push(job), review(job)) },
      ]),
    ),
    githubToken: WORKFLOW_TOKEN,
    githubApiUrl: github.url,
    env: { DOCOPS_API_URL: sandbox.url, DOCOPS_LOG_LEVEL: 'warn' },
    scratch: mkdtempSync(join(scratch, `${applier}-runs-`)),
  };
  const workflow = '.github/workflows/docops.yml';
  const on = (event: WorkflowEvent) => runWorkflow(workflow, event, runner);

  // 3. The first push plans: no changes, no comment, no approval asked, nothing written.
  sandbox.resetStats();
  const first = await on({
    name: 'push',
    branch: 'main',
    before: '0'.repeat(40),
    after: git(dir, 'rev-parse', 'HEAD'),
  });
  expect(first.triggered).toBe(true);
  expect(first.jobs['plan']).toMatchObject({ result: 'success', outputs: { changes: 'false' } });
  expect(Object.values(first.jobs).filter((j) => j.result === 'failure')).toEqual([]);
  expect(reviews).toEqual([]);
  expect(github.comments).toHaveLength(0);

  // 4. The kit's daemon, on the repository's own docops.yaml: the first run finds nothing to do.
  const pod: KitPod = await startKitPod({
    resources: renderKit('kubernetes'),
    root: join(scratch, applier, 'pod'),
    remote: m.remote,
    secret: { token: WRITE, 'reconcile-secret': 'a-reconcile-secret-0123456789', 'github-token': DAEMON_GITHUB },
    env: { DOCOPS_API_URL: sandbox.url, DOCOPS_GITHUB_API_URL: github.url },
  });
  try {
    const started = await pod.run(0);
    expect(started).toMatchObject({ result: 'success', mode: applier === 'daemon' ? 'apply' : 'plan', planned: 0 });
    expect(writes()).toBe(0);

    // 5. A pull request renames a team: its plan is the PR's one comment; nothing is written.
    git(dir, 'checkout', '--quiet', '-b', 'rename-platform');
    const teams = join(dir, 'manifests', 'teams.yaml');
    writeFileSync(teams, readFileSync(teams, 'utf8').replace('title: Platform\n', 'title: Platform Engineering\n'));
    git(dir, 'commit', '--quiet', '-am', 'Rename the Platform team');
    git(dir, 'push', '--quiet', '-u', 'origin', 'rename-platform');
    const pr = await on({ name: 'pull_request', number: 1, head: 'rename-platform', base: 'main' });
    expect(pr.jobs['plan']).toMatchObject({ result: 'success', outputs: { changes: 'true' } });
    expect(github.comments).toHaveLength(1);
    const comment = github.comments[0]!.body;
    expect(comment).toContain('Platform Engineering');
    expect(reviews).toEqual([]);
    expect(writes()).toBe(0);

    // 6. The merge: the push to main, and git-sync following it into the pod.
    git(dir, 'checkout', '--quiet', 'main');
    git(dir, 'merge', '--quiet', '--no-ff', '-m', 'Merge pull request #1', 'rename-platform');
    git(dir, 'push', '--quiet', 'origin', 'main');
    const merge = git(dir, 'rev-parse', 'HEAD');
    pulls[merge] = [1];
    const before = git(dir, 'rev-parse', 'HEAD~1');
    const synced = async () => {
      const seen = pod.daemon.runs.length;
      expect(pod.gitSync.sync()).toBe(merge);
      return pod.run(seen);
    };

    if (applier === 'workflow') {
      // The daemon reports the pending change and writes nothing; the workflow's apply waits for its reviewer.
      review = async (job) => {
        const run = await synced();
        expect(run).toMatchObject({ mode: 'plan', planned: 1 });
        expect(run.applied ?? 0).toBe(0);
        expect(writes()).toBe(0);
        expect(job).toBe('apply');
        return true;
      };
      const push = await on({ name: 'push', branch: 'main', before, after: merge });
      expect(reviews).toEqual(['apply']);
      expect(push.jobs['apply']).toMatchObject({ result: 'success', environment: { approved: true } });
      expect(push.jobs['apply']!.steps.map((s) => s.stdout).join('')).toContain('Apply complete');
    } else {
      // The workflow only plans; the daemon's plan waits for an approval from the team, given on the pull request.
      const push = await on({ name: 'push', branch: 'main', before, after: merge });
      expect(Object.keys(push.jobs)).toEqual(['plan']);
      expect(reviews).toEqual([]);
      const waiting = await synced();
      expect(waiting.result).toBe('refused');
      const checksum = /\/docops approve (sha256:[0-9a-f]{64})/.exec(comment)?.[1];
      expect(checksum, comment).toBe(waiting.approval?.checksum);
      expect(writes()).toBe(0);
      // Not a member of the team: approves nothing.
      await github.postAs(MALLORY, `/docops approve ${checksum}`);
      await pod.daemon.approvals!.check();
      expect(writes()).toBe(0);
      const seen = pod.daemon.runs.length;
      await github.postAs(ALICE, `/docops approve ${checksum}`);
      await pod.daemon.approvals!.check();
      const applied = await pod.run(seen);
      expect(applied).toMatchObject({ result: 'success', applied: 1 });
      expect(applied.reasons).toContain('approval');
    }
    const applied = writes();
    expect(applied).toBeGreaterThan(0);
    expect(await teamTitles()).toContain('Platform Engineering');
    expect(await teamTitles()).not.toContain('Platform');

    // 7. Once: the daemon's next run (its schedule) finds nothing left to do, and writes nothing.
    const seen = pod.daemon.runs.length;
    pod.scheduler.tick();
    expect(await pod.run(seen)).toMatchObject({ result: 'success', planned: 0 });
    expect(writes()).toBe(applied);
    expect(github.comments).toHaveLength(applier === 'daemon' ? 3 : 1);
  } finally {
    expect(await pod.stop()).toBe(0);
  }
}

describe('from docops init to an applied merge, as written', () => {
  it('the workflow applies, after its environment reviewer approves; the daemon only reports', async () => {
    github.comments.length = 0;
    await walk('workflow');
  }, 180_000);

  it('the daemon applies, after a member of the approvers team approves on the pull request; the workflow only plans', async () => {
    github.comments.length = 0;
    await walk('daemon');
  }, 180_000);
});
