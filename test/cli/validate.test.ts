import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docops-validate-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const team = (title: string, extra = '') =>
  `apiVersion: docops/v1\nkind: Team\nmetadata:\n  organization: org-demo\nspec:\n  title: ${title}\n${extra}`;

describe('docops validate', () => {
  it('counts documents and objects of a valid directory, with no token and no network', async () => {
    await writeFile(join(dir, 'teams.yaml'), `${team('Platform')}---\n${team('Writers')}`);
    const r = await runCli(['validate', '-m', dir, '--log-level', 'silent']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('2 documents, 2 objects valid\n');
  });

  it('a broken manifest exits 1 with file:line:column: message on stderr and nothing on stdout', async () => {
    const file = join(dir, 'teams.yaml');
    await writeFile(file, team('Platform', '  colour: blue\n'));
    const r = await runCli(['validate', '-m', dir, '--log-level', 'silent']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:7:3: .*colour`, 'm'));
  });

  it('a directory with no manifest (empty, or only other files) exits 1 for validate, plan and apply; no request', async () => {
    for (const files of [[], ['README.md', 'notes.txt']]) {
      for (const f of files) await writeFile(join(dir, f), 'not a manifest\n');
      for (const command of ['validate', 'plan', 'apply']) {
        const r = await runCli([command, '-m', dir, '--log-level', 'silent', '--api-url', 'http://127.0.0.1:9/v1'], { DOCOPS_TOKEN: 'tok' });
        expect(r.code, `${command}: ${r.stderr}`).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain(`no manifests in ${dir}: it holds no .yaml or .yml file`);
      }
    }
  });

  it('a directory holding a daemon config says so and names the manifests directory the config points to', async () => {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, 'deploy', 'org-manifests'), { recursive: true });
    await writeFile(join(dir, 'deploy', 'docops.yaml'), 'manifests: ./org-manifests\nmode: plan\n');
    await writeFile(join(dir, 'deploy', 'org-manifests', 'teams.yaml'), team('Platform'));
    const r = await runCli(['validate', '-m', join(dir, 'deploy'), '--log-level', 'silent']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${join(dir, 'deploy', 'docops.yaml')}:1:12: this is a docops daemon config, not a manifest: the manifests it names are in ${join(dir, 'deploy', 'org-manifests')} (validate them with -m ${join(dir, 'deploy', 'org-manifests')})`,
    );
    expect(r.stderr).toContain('1 validation error:'); // nothing else: no envelope errors about the config's fields
    const direct = await runCli(['validate', '-m', join(dir, 'deploy', 'docops.yaml'), '--log-level', 'silent']);
    expect(direct.code).toBe(1);
    expect(direct.stderr).toContain('this is a docops daemon config, not a manifest');
  });

  it('--prune of a kind docops never deletes is a usage error before any request', async () => {
    await writeFile(join(dir, 'teams.yaml'), team('Platform'));
    const r = await runCli(['plan', '-m', dir, '--prune', 'Organization', '--log-level', 'silent', '--api-url', 'http://127.0.0.1:9/v1'], { DOCOPS_TOKEN: 'tok' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--prune Organization: docops never deletes these objects, so pruning them means nothing');
  });

  it('validates the shipped example', async () => {
    const r = await runCli(['validate', '-m', 'config.example/manifests', '--log-level', 'silent']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+ documents, \d+ objects valid\n$/);
  });
});
