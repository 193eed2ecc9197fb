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

  it('validates the shipped example', async () => {
    const r = await runCli(['validate', '-m', 'config.example/manifests', '--log-level', 'silent']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+ documents, \d+ objects valid\n$/);
  });
});
