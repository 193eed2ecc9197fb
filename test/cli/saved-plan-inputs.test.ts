/**
 * A saved plan pins every input that makes its steps, not only the manifest files: the data files its manifests
 * name with `{file}` (an OpenAPI spec, a SAML certificate …) and the environment variables they read as `${VAR}`.
 * `apply --plan` refuses, naming the file or the variable (never its value), when one changed, was removed, or
 * was added where the plan read none — before any request. The saved plan holds digests of them only.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSavedPlan, verifyDataFilesOnDisk } from '../../src/plan-file/index.js';
import { doc, liveCli, manifestsOf, tempDir } from './safety-cli-helpers.js';

const PEM = readFileSync(new URL('../fixtures/saml/idp-a.pem', import.meta.url), 'utf8');
const PETS = '{"openapi":"3.0.3","info":{"title":"Pets","version":"1"},"paths":{}}';
const STORE = '{"openapi":"3.0.3","info":{"title":"Store","version":"1"},"paths":{}}';
const NOTE = 'Quiet-Variable-Value-51c2';
const ALLOW = ['--allow-env', 'TEAM_NOTE'];

async function planned(env: Record<string, string> = { TEAM_NOTE: NOTE }) {
  const cli = await liveCli();
  const dir = await manifestsOf({
    'openapi.yaml': doc('OpenAPISpec', '  slug: pets\n  source: { file: specs/current.json }\n'),
    'saml.yaml': doc('SamlProvider', '  label: Okta\n  certificate: { file: certs/okta.pem }\n'),
    // Read through a variable (with a default, so an unset variable still loads).
    'team.yaml': doc('Team', '  title: "Crew ${TEAM_NOTE:-none}"\n'),
  });
  await mkdir(path.join(dir, 'specs'));
  await mkdir(path.join(dir, 'certs'));
  await writeFile(path.join(dir, 'specs', 'pets.json'), PETS);
  await writeFile(path.join(dir, 'specs', 'store.json'), STORE);
  await symlink('pets.json', path.join(dir, 'specs', 'current.json'));
  await writeFile(path.join(dir, 'certs', 'okta.pem'), PEM);
  const file = path.join(await tempDir(), 'plan.json');
  const r = await cli.run(['plan', '-m', dir, ...ALLOW, '--out', file], env);
  expect(r.code, r.stderr).toBe(0);
  const apply = (more: Record<string, string> = env) =>
    cli.run(['apply', '-m', dir, ...ALLOW, '--plan', file, '--journal-dir', path.join(dir, '..', 'journal')], more);
  return { cli, dir, file, apply };
}

describe('plan --out pins the data files and variables it read', () => {
  it('as digests: each data file by its path in the manifests directory, each variable by name', async () => {
    const { file } = await planned();
    const text = await readFile(file, 'utf8');
    const saved = parseSavedPlan(text, file);
    expect(saved.formatVersion).toBe(2);
    // The link's target is what was read (a link retargeted later is another file).
    expect(Object.keys(saved.dataFiles)).toEqual(['certs/okta.pem', 'specs/pets.json']);
    for (const d of Object.values(saved.dataFiles)) expect(d).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Object.keys(saved.variables)).toEqual(['TEAM_NOTE']);
    expect(saved.variables['TEAM_NOTE']).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('applies when nothing changed', async () => {
    const { apply } = await planned();
    const r = await apply();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('apply --plan refuses a plan whose inputs changed, naming them, before any request', () => {
  it('a data file edited', async () => {
    const { cli, dir, apply } = await planned();
    await writeFile(path.join(dir, 'specs', 'pets.json'), PETS.replace('"1"', '"2"'));
    cli.sb.resetStats();
    const r = await apply();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('data files changed since the plan was made (specs/pets.json changed)');
    expect(cli.sb.stats().total).toBe(0);
  });

  it('a data file removed', async () => {
    const { cli, dir, apply } = await planned();
    await rm(path.join(dir, 'certs', 'okta.pem'));
    cli.sb.resetStats();
    const r = await apply();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('data files changed since the plan was made (certs/okta.pem removed)');
    expect(cli.sb.stats().total).toBe(0);
  });

  it('a data file read where the plan read none (the manifests unchanged, a link now leads elsewhere)', async () => {
    const { cli, dir, apply } = await planned();
    await rm(path.join(dir, 'specs', 'current.json'));
    await symlink('store.json', path.join(dir, 'specs', 'current.json'));
    cli.sb.resetStats();
    const r = await apply();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'data files changed since the plan was made (specs/pets.json no longer read, specs/store.json added)',
    );
    expect(cli.sb.stats().total).toBe(0);
  });

  it('a variable the manifests read, changed or unset, named without its value', async () => {
    const { cli, apply } = await planned();
    cli.sb.resetStats();
    const changed = await apply({ TEAM_NOTE: 'Other-Value-93af' });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain(
      'environment variables the manifests read changed since the plan was made (TEAM_NOTE)',
    );
    expect(changed.stderr).not.toContain('Other-Value-93af');
    expect(changed.stderr).not.toContain(NOTE);
    const unset = await apply({});
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain('(TEAM_NOTE)');
    expect(cli.sb.stats().total).toBe(0);
  });
});

describe('the data files a plan file names', () => {
  it('are read only inside the manifests directory (an edited plan file naming another file is refused unread)', async () => {
    const dir = await tempDir();
    await expect(
      verifyDataFilesOnDisk({ dataFiles: { '../outside.json': `sha256:${'0'.repeat(64)}` } }, dir),
    ).rejects.toThrow('data files changed since the plan was made (../outside.json changed)');
  });
});
