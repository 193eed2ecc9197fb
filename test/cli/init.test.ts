/**
 * `docops init --org ID DIR` (issue 23, part 3): the organization's manifests, a docops.yaml the daemon loads,
 * the GitHub workflow the package documents and a .gitignore — and the result plans no changes, on the demo
 * organization and on the large generated one. Issue 34: everything a written file names is something the team
 * has (the editor schemas and the Action, written beside it; the secrets and the environment "Next:" names), the
 * printed git commands make the branch the workflow follows, and who applies a merge is one choice (--applier)
 * that docops.yaml and the workflow both follow. test/e2e/init-road.test.ts walks the whole road.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { once } from 'node:events';
import { loadConfig } from '../../src/config/load.js';
import { Daemon } from '../../src/daemon/daemon.js';
import type { RunRecord } from '../../src/daemon/run.js';
import { createLogger } from '../../src/log.js';
import { FakeClock, FakeScheduler, testClientFactory } from '../daemon/helpers.js';
import {
  GITIGNORE_ENTRIES,
  INIT_JOURNAL_DIR,
  INIT_LAYOUT,
  PACKAGE_FILES,
  mergeGitignore,
} from '../../src/init/index.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { tokenNeeds } from '../../src/scopes/needs.js';
import { documentedScopes } from './docs-scopes.js';
import { runCli } from './run-cli.js';
import { filesIn, liveCli, tempDir } from './safety-cli-helpers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((fn) => fn()));
});

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const DAEMON_FLAGS = ['--github-repo', 'acme/docs-org', '--approvers', 'acme/docs-approvers'];

interface WorkflowFile {
  on: Record<string, { branches?: string[]; paths?: string[] } | null>;
  jobs: Record<
    string,
    {
      if?: string;
      environment?: string;
      steps: { uses?: string; if?: string; with?: Record<string, string> }[];
    }
  >;
}
const parseWorkflow = (text: string): WorkflowFile => parse(text) as WorkflowFile;

describe('docops init', () => {
  it('writes the manifests, docops.yaml, the workflow and .gitignore; the manifests plan to no changes; only GETs', async () => {
    const live = await liveCli();
    const dir = path.join(await tempDir(), 'acme-docs');
    live.sb.resetStats();
    const r = await live.run(['init', '--org', 'org-demo', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(live.sb.stats().byMethod)).toEqual(['GET']);
    const files = await filesIn(dir);
    for (const f of [
      'docops.yaml',
      '.gitignore',
      path.join('.github', 'workflows', 'docops.yml'),
      path.join('manifests', 'teams.yaml'),
      path.join('manifests', 'members.yaml'),
    ]) {
      expect(files).toContain(f);
    }
    const plan = await live.run(['plan', '-m', path.join(dir, INIT_LAYOUT.manifests), '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes.');
  });

  it('prints the next commands with the connection it used, never the token', async () => {
    const live = await liveCli();
    const dir = path.join(await tempDir(), 'acme docs');
    const r = await live.run(['init', '--org', 'org-demo', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`cd '${dir}'`);
    expect(r.stdout).toContain(`docops plan -m manifests --api-url ${live.sb.url}`);
    expect(r.stdout).toContain(`docops daemon -c docops.yaml --api-url ${live.sb.url}`);
    expect(r.stdout).toContain('DOCOPS_READ_TOKEN');
    expect(r.stdout).not.toContain(live.sb.token);
    const sandbox = await runCli([
      'init',
      '--org',
      'org-demo',
      path.join(await tempDir(), 'x'),
      '--sandbox',
      '--log-level',
      'silent',
    ]);
    expect(sandbox.stdout).toMatch(/docops plan -m manifests --sandbox +# No changes/);
  });

  it('docops.yaml is a valid daemon config for the manifests beside it, and its journal is git-ignored', async () => {
    const live = await liveCli();
    const dir = path.join(await tempDir(), 'repo');
    expect((await live.run(['init', '--org', 'org-demo', dir])).code).toBe(0);
    const config = await loadConfig(path.join(dir, 'docops.yaml'), { env: {}, cwd: dir });
    expect(config.manifestsDir).toBe(path.join(dir, INIT_LAYOUT.manifests));
    expect(config.journalDir).toBe(path.join(dir, INIT_JOURNAL_DIR));
    expect(config.mode).toBe('plan'); // the workflow applies (the default applier)
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const ignored = (p: string): boolean => {
      try {
        execFileSync('git', ['check-ignore', '-q', p], { cwd: dir });
        return true;
      } catch {
        return false;
      }
    };
    expect(ignored(path.join(INIT_JOURNAL_DIR, 'journal-1.jsonl'))).toBe(true);
    expect(ignored('docops-plan.json')).toBe(true);
    expect(ignored(path.join(INIT_LAYOUT.manifests, 'teams.yaml'))).toBe(false);
    expect(ignored('docops.yaml')).toBe(false);
  });

  it("the daemon started with init's docops.yaml reconciles the imported organization: no change, then a renamed team", async () => {
    const live = await liveCli();
    const dir = path.join(await tempDir(), 'repo');
    expect((await live.run(['init', '--org', 'org-demo', dir, '--applier', 'daemon', ...DAEMON_FLAGS])).code).toBe(0);
    // Without its policy: this test is about the config's manifests and journal, approvals are the e2e test's.
    const text = await readFile(path.join(dir, 'docops.yaml'), 'utf8');
    await writeFile(path.join(dir, 'docops.yaml'), text.slice(0, text.indexOf('\npolicy:')) + '\n');
    const config = await loadConfig(path.join(dir, 'docops.yaml'), { env: {}, cwd: dir });
    const daemon = new Daemon(
      { ...config, apiUrl: live.sb.url, listen: { host: '127.0.0.1', port: 0 }, debounceMs: 100 },
      {
        env: { DOCOPS_TOKEN: live.sb.token },
        logger: createLogger({ level: 'silent', format: 'json', stream: { write: () => undefined } }),
        scheduler: new FakeScheduler(),
        clock: new FakeClock(),
        random: () => 1,
        defaultMetrics: false,
        createClient: await testClientFactory(),
        resolveSettings: async () => ({ baseUrl: live.sb.url, token: live.sb.token }),
      },
    );
    closers.push(async () => void (await daemon.stop()));
    live.sb.resetStats();
    const first = once(daemon, 'run') as Promise<[RunRecord]>;
    await daemon.start();
    const [run] = await first;
    expect(run).toMatchObject({ result: 'success', mode: 'apply', planned: 0 });
    expect(live.writes()).toBe(0);
    const teamsFile = path.join(dir, INIT_LAYOUT.manifests, 'teams.yaml');
    const next = once(daemon, 'run') as Promise<[RunRecord]>;
    await writeFile(
      teamsFile,
      (await readFile(teamsFile, 'utf8')).replace('title: Platform', 'title: Platform Engineering'),
    );
    const [second] = await next;
    expect(second).toMatchObject({ result: 'success', planned: 1, applied: 1 });
  });

  it.each(['workflow', 'daemon'] as const)(
    'the workflow is the one the package ships for --applier %s, byte for byte, and plans the directory init wrote',
    async (applier) => {
      const live = await liveCli();
      const dir = path.join(await tempDir(), 'repo');
      const flags = applier === 'daemon' ? DAEMON_FLAGS : [];
      expect((await live.run(['init', '--org', 'org-demo', dir, '--applier', applier, ...flags])).code).toBe(0);
      const written = await readFile(path.join(dir, INIT_LAYOUT.workflow), 'utf8');
      expect(written).toBe(await readFile(path.join(REPO_ROOT, PACKAGE_FILES.workflows[applier]), 'utf8'));
      // Every docops step reads the manifests init wrote (the Action's default, or named).
      const steps = Object.values(parseWorkflow(written).jobs)
        .flatMap((j) => j.steps)
        .filter((s) => s.uses === `./${INIT_LAYOUT.action}`);
      expect(steps.length).toBeGreaterThan(0);
      for (const s of steps) expect(s.with?.manifests ?? INIT_LAYOUT.manifests).toBe(INIT_LAYOUT.manifests);
      // The package ships it.
      const pkg = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { files: string[] };
      expect(pkg.files).toContain(PACKAGE_FILES.workflows[applier]);
    },
  );

  it('refuses to replace docops.yaml or the workflow without --overwrite, before writing anything; --overwrite replaces them', async () => {
    const live = await liveCli();
    const dir = await tempDir();
    await writeFile(path.join(dir, 'docops.yaml'), 'mine: true\n');
    const r = await live.run(['init', '--org', 'org-demo', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${path.join(dir, 'docops.yaml')} already exists; pass --overwrite`);
    expect(existsSync(path.join(dir, INIT_LAYOUT.manifests))).toBe(false);
    expect(existsSync(path.join(dir, INIT_LAYOUT.workflow))).toBe(false);
    expect(await readFile(path.join(dir, 'docops.yaml'), 'utf8')).toBe('mine: true\n');
    const again = await live.run(['init', '--org', 'org-demo', dir, '--overwrite']);
    expect(again.code, again.stderr).toBe(0);
    expect(await readFile(path.join(dir, 'docops.yaml'), 'utf8')).toContain('manifests: ./manifests');
  });

  it('an existing .gitignore keeps its lines and gains only those it lacks', async () => {
    const live = await liveCli();
    const dir = await tempDir();
    await writeFile(path.join(dir, '.gitignore'), 'node_modules/\nplan.json');
    expect((await live.run(['init', '--org', 'org-demo', dir])).code).toBe(0);
    const text = await readFile(path.join(dir, '.gitignore'), 'utf8');
    expect(text.startsWith('node_modules/\nplan.json\n')).toBe(true);
    expect(text.split('\n').filter((l) => l === 'plan.json')).toHaveLength(1);
    for (const e of GITIGNORE_ENTRIES) expect(text.split('\n')).toContain(e);
    expect(mergeGitignore(text)).toBe(text); // nothing left to add
    expect(mergeGitignore('')).toBe(
      `# docops: delete journals and saved plans stay out of git\n${GITIGNORE_ENTRIES.join('\n')}\n`,
    );
  });

  it('names what is missing: --org, DIR; a second directory is a stray argument', async () => {
    const noOrg = await runCli(['init', 'dir', '--sandbox']);
    expect(noOrg.code).toBe(1);
    expect(noOrg.stderr).toContain('missing --org ID');
    expect(noOrg.stderr).toContain('docops orgs');
    const noDir = await runCli(['init', '--org', 'org-demo', '--sandbox']);
    expect(noDir.stderr).toContain('missing DIR');
    const two = await runCli(['init', '--org', 'org-demo', 'a', 'b', '--sandbox']);
    expect(two.code).toBe(1);
    expect(two.stderr).toContain('unexpected argument b');
  });

  it('imports the large generated organization (--seed large) into manifests that plan to no changes', async () => {
    const sb: RunningSandbox = await startSandbox({ seed: { large: 400 } });
    closers.push(() => sb.close());
    const dir = path.join(await tempDir(), 'bench');
    const run = (argv: string[]) =>
      runCli([...argv, '--api-url', sb.url, '--log-level', 'silent'], { DOCOPS_TOKEN: sb.token });
    const orgs = JSON.parse((await run(['orgs', '--format', 'json'])).stdout) as { id: string }[];
    expect(orgs.map((o) => o.id)).toEqual(['org-bench']);
    sb.resetStats();
    const r = await run(['init', '--org', 'org-bench', dir]);
    expect(r.code, r.stderr).toBe(0);
    // Every kind the generated organization holds: the scopes docs/getting-started.md gives init and export.
    const needs = tokenNeeds(sb.stats().requests.map((q) => ({ method: q.method, path: q.path })));
    expect(documentedScopes('init')).toEqual(needs.scopes);
    expect(await filesIn(path.join(dir, INIT_LAYOUT.manifests))).toEqual(
      expect.arrayContaining(['members.yaml', 'teams.yaml', expect.stringMatching(/^sites[/\\]/)]),
    );
    const plan = await run(['plan', '-m', path.join(dir, INIT_LAYOUT.manifests), '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  }, 60_000);
});
