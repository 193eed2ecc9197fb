import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/model/errors.js';
import { ApplyError, BlockedError } from '../../src/model/errors.js';
import { annotateError, errorAnnotation, escapeData, escapeProperty } from '../../src/cli/github.js';
import { runCli } from './run-cli.js';
import { exampleManifests, liveCli, tempDir } from './safety-cli-helpers.js';

const GHA = { GITHUB_ACTIONS: 'true' };

describe('workflow-command escaping', () => {
  it('escapes %, CR and LF in messages, and also : and , in properties', () => {
    expect(escapeData('50% done\r\nnext: a, b')).toBe('50%25 done%0D%0Anext: a, b');
    expect(escapeProperty('dir/a,b:c%.yaml')).toBe('dir/a%2Cb%3Ac%25.yaml');
  });

  it('formats one ::error line per issue', () => {
    const issue = { file: 'manifests/a,b:c.yaml', line: 3, column: 5, message: '50% wrong\nsee: docs' };
    expect(errorAnnotation(issue)).toBe('::error file=manifests/a%2Cb%3Ac.yaml,line=3,col=5::50%25 wrong%0Asee: docs');
    // Absolute paths inside the workspace become workspace-relative, so GitHub can place them in the diff.
    expect(
      errorAnnotation(
        { ...issue, file: '/home/runner/work/repo/manifests/t.yaml' },
        { GITHUB_WORKSPACE: '/home/runner/work/repo' },
      ),
    ).toMatch(/^::error file=manifests\/t\.yaml,line=3,col=5::/);
  });

  it('prints annotations only in GitHub Actions and only for validation errors', () => {
    let out = '';
    const io = (env: Record<string, string>) => ({
      stdout: { write: (c: string) => void (out += c) },
      stderr: { write: () => true },
      env,
    });
    const err = new ValidationError([{ file: 'm.yaml', line: 1, column: 2, message: 'bad' }]);
    annotateError(err, io({}));
    annotateError(new Error('other'), io(GHA));
    expect(out).toBe('');
    annotateError(err, io(GHA));
    expect(out).toBe('::error file=m.yaml,line=1,col=2::bad\n');
  });

  it('annotates blocked manifest objects at their source, for plan and apply', () => {
    let out = '';
    const io = { stdout: { write: (c: string) => void (out += c) }, stderr: { write: () => true }, env: GHA };
    const blocked = [
      {
        kind: 'Site',
        org: 'o1',
        key: 'Help',
        message: 'space "Gettin Started" names nothing',
        source: { file: 'site.yaml', line: 7, column: 11 },
      },
      { kind: 'Team', org: 'o1', key: 'Ops', message: 'no position' },
    ];
    annotateError(new BlockedError(blocked), io);
    annotateError(new ApplyError([], [], blocked), io);
    const line =
      '::error file=site.yaml,line=7,col=11::Site o1/Help is blocked: space "Gettin Started" names nothing\n';
    expect(out).toBe(line + line);
  });
});

async function brokenManifests(): Promise<{ workspace: string; dir: string }> {
  const workspace = await tempDir('docops-ws-');
  const dir = path.join(workspace, 'manifests');
  await mkdir(dir);
  await writeFile(
    path.join(dir, 'teams.yaml'),
    'apiVersion: docops/v1\nkind: Team\nmetadata:\n  organization: org-demo\nspec:\n  title: Platform\n  colour: blue\n  members:\n    - { email: not-an-email }\n',
  );
  return { workspace, dir };
}

const EXPECTED_ANNOTATIONS =
  '::error file=manifests/teams.yaml,line=7,col=3::spec: unknown field "colour"\n' +
  '::error file=manifests/teams.yaml,line=9,col=16::spec.members[0].email: must be a valid email (got "not-an-email")\n';

describe('validation errors as GitHub annotations', () => {
  it('docops validate (no token needed) prints one ::error per issue on stdout', async () => {
    const { workspace, dir } = await brokenManifests();
    const r = await runCli(['validate', '-m', dir, '--log-level', 'silent'], { ...GHA, GITHUB_WORKSPACE: workspace });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(EXPECTED_ANNOTATIONS);
    expect(r.stderr).toContain('2 validation errors');
  });

  it('docops validate prints a ::warning for a reference that must exist live, and still exits 0', async () => {
    const workspace = await tempDir('docops-ws-');
    const dir = path.join(workspace, 'manifests');
    await mkdir(dir);
    await writeFile(
      path.join(dir, 'space.yaml'),
      'apiVersion: docops/v1\nkind: Space\nmetadata: { organization: org-demo }\nspec:\n  title: Notes\n  parent: Somewhere\n',
    );
    const r = await runCli(['validate', '-m', dir, '--log-level', 'silent'], { ...GHA, GITHUB_WORKSPACE: workspace });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^::warning file=manifests\/space\.yaml,line=6,col=\d+::.*Somewhere.*must exist live/m);
  });

  it('docops plan prints the same annotations', async () => {
    const { workspace, dir } = await brokenManifests();
    const cli = await liveCli();
    const r = await cli.run(['plan', '-m', dir], { ...GHA, GITHUB_WORKSPACE: workspace });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(EXPECTED_ANNOTATIONS);
  });

  it('outside GitHub Actions there are no annotations', async () => {
    const { dir } = await brokenManifests();
    const r = await runCli(['validate', '-m', dir, '--log-level', 'silent']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
  });

  it('validate of valid manifests needs no token', async () => {
    const r = await runCli(['validate', '-m', 'config.example/manifests', '--log-level', 'silent'], {});
    expect(r.code).toBe(0);
  });
});

describe('GITHUB_STEP_SUMMARY', () => {
  it('plan appends the markdown plan (with its API cost) to the summary file, keeping what was there', async () => {
    const cli = await liveCli();
    const summary = path.join(await tempDir(), 'summary.md');
    await writeFile(summary, '# earlier step\n');
    const r = await cli.run(['plan', '-m', await exampleManifests()], { ...GHA, GITHUB_STEP_SUMMARY: summary });
    expect(r.code).toBe(0);
    const text = await readFile(summary, 'utf8');
    expect(text.startsWith('# earlier step\n### docops plan\n')).toBe(true);
    expect(text).toContain('| Kind | Add | Change | Delete |');
    expect(text).toMatch(/^API cost: \d+ requests, ~\d+\.\ds at concurrency 8 \(100ms\/request\)$/m);
    // Text stays on stdout.
    expect(r.stdout).toContain('docops will perform the following actions:');
  });

  it('is left alone outside GitHub Actions', async () => {
    const cli = await liveCli();
    const summary = path.join(await tempDir(), 'summary.md');
    await writeFile(summary, '');
    expect((await cli.run(['plan', '-m', await exampleManifests()], { GITHUB_STEP_SUMMARY: summary })).code).toBe(0);
    expect(await readFile(summary, 'utf8')).toBe('');
  });
});

describe('plan is read-only', () => {
  it('sends only GET requests (a read-only token is enough)', async () => {
    const cli = await liveCli();
    cli.sb.resetStats();
    const r = await cli.run([
      'plan',
      '-m',
      await exampleManifests(),
      '--prune',
      'Team',
      '--out',
      path.join(await tempDir(), 'p.json'),
    ]);
    expect(r.code).toBe(0);
    const stats = cli.sb.stats();
    expect(stats.total).toBeGreaterThan(0);
    expect(Object.keys(stats.byMethod)).toEqual(['GET']);
  });
});

describe('examples/github/docops.yml', () => {
  it('validates and plans on every push (one job), updates one marked comment, applies the saved plan on main', async () => {
    const { parse } = await import('yaml');
    const wf = parse(await readFile('examples/github/docops.yml', 'utf8')) as {
      on: Record<string, unknown>;
      jobs: Record<
        string,
        {
          if?: string;
          steps: {
            name?: string;
            run?: string;
            uses?: string;
            with?: Record<string, string>;
            env?: Record<string, string>;
          }[];
        }
      >;
    };
    expect(Object.keys(wf.on).sort()).toEqual(['pull_request', 'push']);
    // Each docops step is the Action (action.yml) in three lines: validate, plan, apply.
    const docops = (job: string, command: string) =>
      wf.jobs[job]!.steps.find((s) => s.uses === './.github/actions/docops' && s.with?.command === command)!;
    const validate = docops('plan', 'validate');
    expect(validate.with?.token).toBeUndefined(); // no token for validate
    expect(docops('plan', 'plan').with).toMatchObject({
      'plan-file': 'plan.json',
      token: expect.stringContaining('DOCOPS_READ_TOKEN') as unknown,
    });
    const apply = docops('apply', 'apply');
    expect(apply.with).toMatchObject({
      'plan-file': 'plan.json',
      token: expect.stringContaining('DOCOPS_WRITE_TOKEN') as unknown,
    });
    // The comment is the Action's (docops pr-comment, one comment updated in place), not a script of its own.
    expect(JSON.stringify(wf)).not.toContain('github-script');
  });
});
