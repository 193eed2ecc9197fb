/**
 * Installable like a real tool (issue 17): the tarball `npm pack` makes installs into an empty directory (its
 * dependencies from the registry, nothing from this checkout) and runs there: `npx docops --help`, a plan on the
 * sandbox (with the shipped scopes table, no dev dependency), a PR comment (the GitHub client is a dependency).
 * A file missing from package.json `files`, or a run-time import of a dev dependency, fails here. Packs the
 * current build (`npm run build` first; `npm ci` runs it in CI).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../daemon/build.js';
import { startFakeGitHub } from '../github/fake-github.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false', ...env };
  delete base.NODE_OPTIONS; // vitest's loader hooks must not reach the installed tool
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: base, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'docops-pack-'));
const app = join(scratch, 'app');
let tarball = '';
let install: Run;

beforeAll(async () => {
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], REPO);
  expect(packed.code, packed.stderr).toBe(0);
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(scratch, info!.filename);
  const { mkdirSync } = await import('node:fs');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'empty-project', private: true }));
  install = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=warn', tarball], app);
}, 180_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the packed package', () => {
  it('holds the build, the schemas and the example, and no sources or tests', async () => {
    const listed = await run('tar', ['-tzf', tarball], scratch);
    const files = listed.stdout.split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
    for (const f of ['package.json', 'README.md', 'dist/cli/main.js', 'dist/api/operation-scopes.json', 'schemas/document.schema.json', 'config.example/docops.yaml']) expect(files).toContain(f);
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
  });

  it('installs into an empty directory with its production dependencies only, each supporting Node 20.19', () => {
    expect(install.code, install.stderr).toBe(0);
    expect(install.stderr).not.toContain('EBADENGINE');
    expect(existsSync(join(app, 'node_modules/docops/dist/cli/main.js'))).toBe(true);
    for (const dev of ['typescript', 'vitest', '@gitbook/api', 'rolldown']) expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false);
    expect(readdirSync(join(app, 'node_modules/.bin'))).toContain('docops');
  });

  it('npx docops --help', async () => {
    const r = await run('npx', ['--no-install', 'docops', '--help'], app);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Commands:/m);
  });

  it('docops plan --sandbox, with the token scopes from the shipped table', async () => {
    const r = await run('npx', ['--no-install', 'docops', 'plan', '-m', 'node_modules/docops/config.example/manifests', '--sandbox', '--format', 'json', '--log-level', 'warn'], app);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { steps: unknown[]; scopes: { apply: { scopes: string[] } } };
    expect(doc.steps.length).toBeGreaterThan(0);
    expect(doc.scopes.apply.scopes).toContain('organization:members:write');
  });

  it('docops pr-comment reaches GitHub with its client', async () => {
    const github = await startFakeGitHub({ token: 'ghs_pack', owner: 'acme', repo: 'docs', issue: 3 });
    try {
      writeFileSync(join(app, 'plan.md'), '### docops plan\n');
      const r = await run('npx', ['--no-install', 'docops', 'pr-comment', '--body-file', 'plan.md', '--repo', 'acme/docs', '--pr', '3'], app, { GITHUB_TOKEN: 'ghs_pack', GITHUB_API_URL: github.url });
      expect(r.code, r.stderr).toBe(0);
      expect(github.comments).toHaveLength(1);
    } finally {
      await github.close();
    }
  });

  it('docops init writes the workflow the package ships (examples/github/docops.yml, in package.json files)', async () => {
    const r = await run('npx', ['--no-install', 'docops', 'init', '--org', 'org-demo', 'acme-docs', '--sandbox', '--log-level', 'warn'], app);
    expect(r.code, r.stderr).toBe(0);
    for (const f of ['acme-docs/.github/workflows/docops.yml', 'acme-docs/docops.yaml', 'acme-docs/manifests/teams.yaml']) expect(existsSync(join(app, f)), f).toBe(true);
  });
});
