/**
 * What `docops init` writes names only what the team has (issue 34): the editor schemas and the GitHub Action are
 * written into the repository (and `init --refresh` renews them after an upgrade), the workflow needs no secret
 * nor environment that "Next:" does not name, the printed git commands make the branch the workflow follows, and
 * who applies a merge is one choice (--applier) that docops.yaml, the workflow and "Next:" all follow.
 * test/e2e/init-road.test.ts walks the whole road with these files.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import { INIT_LAYOUT } from '../../src/init/index.js';
import { runCli } from './run-cli.js';
import { filesIn, liveCli, tempDir, type LiveCli } from './safety-cli-helpers.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const DAEMON_FLAGS = ['--github-repo', 'acme/docs-org', '--approvers', 'acme/docs-approvers'];
const SCHEMA_LINE = /^# yaml-language-server: \$schema=(\S+)\n/;

interface Workflow {
  on: Record<string, { branches?: string[]; paths?: string[] } | null>;
  jobs: Record<
    string,
    { if?: string; environment?: string; steps: { uses?: string; with?: Record<string, string> }[] }
  >;
}

async function init(live: LiveCli, applier?: 'workflow' | 'daemon', dir?: string) {
  const target = dir ?? path.join(await tempDir(), 'acme-docs');
  const flags = applier === undefined ? [] : ['--applier', applier, ...(applier === 'daemon' ? DAEMON_FLAGS : [])];
  const r = await live.run(['init', '--org', 'org-demo', target, ...flags]);
  expect(r.code, r.stderr).toBe(0);
  const workflowText = await readFile(path.join(target, INIT_LAYOUT.workflow), 'utf8');
  return { dir: target, stdout: r.stdout, workflowText, workflow: parse(workflowText) as Workflow };
}

const yamlFiles = async (dir: string): Promise<string[]> =>
  (await filesIn(dir)).filter((f) => /\.ya?ml$/.test(f) && !f.startsWith('.github')).map((f) => path.join(dir, f));

describe('editor schemas: in the repository, never a package docops does not own', () => {
  it('init writes the schemas into schemas/; every file it writes points at them by a relative path', async () => {
    const live = await liveCli();
    const { dir } = await init(live);
    const shipped = readdirSync(path.join(REPO_ROOT, 'schemas')).sort();
    expect(readdirSync(path.join(dir, INIT_LAYOUT.schemas)).sort()).toEqual(shipped);
    for (const name of shipped)
      expect(await readFile(path.join(dir, INIT_LAYOUT.schemas, name), 'utf8')).toBe(
        await readFile(path.join(REPO_ROOT, 'schemas', name), 'utf8'),
      );
    const files = await yamlFiles(dir);
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      const schema = SCHEMA_LINE.exec(text)?.[1];
      expect(schema, file).toBeDefined();
      expect(schema).not.toMatch(/^[a-z]+:/); // no URL
      const target = path.resolve(path.dirname(file), schema!);
      expect(existsSync(target), `${file} → ${schema}`).toBe(true);
      expect(path.dirname(target)).toBe(path.join(dir, INIT_LAYOUT.schemas));
      expect(path.basename(target)).toBe(file.endsWith('docops.yaml') ? 'config.schema.json' : 'document.schema.json');
    }
    for (const f of await filesIn(dir)) {
      if (f.includes('action/dist') || !statSync(path.join(dir, f)).isFile()) continue;
      expect(await readFile(path.join(dir, f), 'utf8'), f).not.toMatch(/unpkg\.com|your-org\//);
    }
  });

  it('export into the repository uses its schemas; elsewhere it names none rather than a URL', async () => {
    const live = await liveCli();
    const { dir } = await init(live);
    const inside = path.join(dir, 'more');
    expect((await live.run(['export', '--org', 'org-demo', '-o', inside])).code).toBe(0);
    const elsewhere = path.join(await tempDir(), 'exported');
    expect((await live.run(['export', '--org', 'org-demo', '-o', elsewhere])).code).toBe(0);
    const teams = await readFile(path.join(inside, 'teams.yaml'), 'utf8');
    expect(SCHEMA_LINE.exec(teams)?.[1]).toBe('../schemas/document.schema.json');
    for (const file of await yamlFiles(elsewhere)) {
      const text = await readFile(file, 'utf8');
      expect(text).not.toContain('yaml-language-server');
      expect(text).not.toContain('unpkg');
    }
  });

  it('init --refresh renews the schemas and the Action from this docops, touches nothing else, needs no token', async () => {
    const live = await liveCli();
    const { dir } = await init(live);
    const teams = path.join(dir, INIT_LAYOUT.manifests, 'teams.yaml');
    const edited = (await readFile(teams, 'utf8')) + '# ours\n';
    await writeFile(teams, edited);
    await writeFile(path.join(dir, 'docops.yaml'), 'manifests: ./manifests\nmode: apply\n');
    await writeFile(path.join(dir, INIT_LAYOUT.schemas, 'document.schema.json'), '{"old": true}');
    await rm(path.join(dir, INIT_LAYOUT.schemas, 'team.schema.json'));
    const bundle = path.join(dir, INIT_LAYOUT.action, 'action/dist/index.cjs');
    await writeFile(bundle, '// an older docops\n');
    const r = await runCli(['init', '--refresh', dir, '--log-level', 'silent'], {});
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(path.join(dir, INIT_LAYOUT.schemas, 'document.schema.json'), 'utf8')).toBe(
      await readFile(path.join(REPO_ROOT, 'schemas/document.schema.json'), 'utf8'),
    );
    expect(existsSync(path.join(dir, INIT_LAYOUT.schemas, 'team.schema.json'))).toBe(true);
    expect(await readFile(bundle, 'utf8')).toBe(await readFile(path.join(REPO_ROOT, 'action/dist/index.cjs'), 'utf8'));
    expect(r.stdout).toContain(path.join(dir, INIT_LAYOUT.schemas, 'document.schema.json'));
    expect(await readFile(teams, 'utf8')).toBe(edited);
    expect(await readFile(path.join(dir, 'docops.yaml'), 'utf8')).toBe('manifests: ./manifests\nmode: apply\n');
    const empty = await tempDir();
    const refused = await runCli(['init', '--refresh', empty, '--log-level', 'silent'], {});
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('docops init --org ID');
  });
});

describe('the workflow needs nothing "Next:" does not name', () => {
  it.each(['workflow', 'daemon'] as const)(
    '--applier %s: the Action is in the repository; its secrets and its environment are printed',
    async (applier) => {
      const live = await liveCli();
      const { dir, stdout, workflow, workflowText } = await init(live, applier);
      expect(workflowText).not.toMatch(/copy (it )?to \.github/i);
      const uses = Object.values(workflow.jobs).flatMap((j) => j.steps.flatMap((s) => (s.uses ? [s.uses] : [])));
      for (const u of uses) {
        if (u.startsWith('./')) {
          const action = parse(await readFile(path.join(dir, u, 'action.yml'), 'utf8')) as { runs: { main: string } };
          expect(existsSync(path.join(dir, u, action.runs.main)), u).toBe(true);
          expect(stdout).toContain(u.slice(2));
        } else expect(u).toMatch(/^actions\/[\w-]+@v\d+$/); // GitHub's own, on every runner
      }
      expect(uses.some((u) => u === `./${INIT_LAYOUT.action}`)).toBe(true);
      const next = stdout.slice(stdout.indexOf('Next:'));
      for (const [, secret] of workflowText.matchAll(/secrets\.(\w+)/g)) expect(next).toContain(secret);
      for (const job of Object.values(workflow.jobs))
        if (job.environment !== undefined) expect(next).toContain(`environment ${job.environment}`);
    },
  );
});

describe('Next: makes the branch the workflow follows', () => {
  it('a new directory: git init -b main; inside a git repository: no git init; the workflow reads the default branch', async () => {
    const live = await liveCli();
    const fresh = await init(live);
    expect(fresh.stdout).toContain('git init -b main && git add -A && git commit');
    expect(fresh.stdout).toContain('git push -u origin main');
    const repo = await tempDir();
    execFileSync('git', ['init', '-q', repo]);
    await mkdir(path.join(repo, 'docs'));
    const inside = await init(live, undefined, path.join(repo, 'docs'));
    expect(inside.stdout).not.toContain('git init');
    expect(inside.stdout).toContain('git add -A && git commit');
    for (const w of [fresh.workflow, inside.workflow]) {
      expect(w.on['push']?.branches).toBeUndefined(); // no branch name assumed
      expect(w.jobs['plan']!.if).toContain('github.event.repository.default_branch');
    }
  });
});

describe('who applies: one choice, followed by docops.yaml, the workflow and Next:', () => {
  it('--applier workflow (the default): the daemon never writes, the workflow applies after its environment approves', async () => {
    const live = await liveCli();
    const { dir, stdout, workflow } = await init(live);
    const config = await loadConfig(path.join(dir, 'docops.yaml'), { env: {}, cwd: dir });
    expect(config.mode).toBe('plan');
    expect(config.policy).toBeUndefined();
    const apply = Object.values(workflow.jobs).filter((j) => j.steps.some((s) => s.with?.command === 'apply'));
    expect(apply).toHaveLength(1);
    expect(apply[0]!.environment).toBe('docops-production');
    expect(stdout).toMatch(/Who applies: the workflow/);
    expect(stdout).toContain('--applier daemon');
  });

  it('--applier daemon: the daemon applies once a member of the team approves on the pull request; the workflow only plans', async () => {
    const live = await liveCli();
    const { dir, stdout, workflow } = await init(live, 'daemon');
    const config = await loadConfig(path.join(dir, 'docops.yaml'), { env: {}, cwd: dir });
    expect(config.mode).toBe('apply');
    expect(config.policy?.approvers).toEqual({ githubTeam: 'acme/docs-approvers' });
    expect(config.policy?.rules.map((r) => r.outcome)).toEqual(['require-approval']);
    expect(config.approvals?.github?.repository).toBe('acme/docs-org');
    expect(
      Object.values(workflow.jobs)
        .flatMap((j) => j.steps)
        .filter((s) => s.with?.command === 'apply'),
    ).toEqual([]);
    expect(Object.values(workflow.jobs).filter((j) => j.environment !== undefined)).toEqual([]);
    expect(stdout).toMatch(/Who applies: the daemon/);
    expect(stdout).toContain('DOCOPS_GITHUB_TOKEN');
    expect(stdout).toContain('/docops approve');
  });

  it('--applier daemon needs the repository and the approvers; another applier is refused', async () => {
    const live = await liveCli();
    const dir = path.join(await tempDir(), 'x');
    const missing = await live.run(['init', '--org', 'org-demo', dir, '--applier', 'daemon']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--github-repo OWNER/NAME');
    expect(missing.stderr).toContain('--approvers ORG/TEAM');
    expect(existsSync(dir)).toBe(false);
    const other = await live.run(['init', '--org', 'org-demo', dir, '--applier', 'cron']);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('--applier: workflow or daemon');
  });
});
