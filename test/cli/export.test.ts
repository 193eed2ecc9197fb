import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kindFileName, layoutKind, probeSpec, schemaComment, slug } from '../../src/export/index.js';
import { main } from '../../src/cli/main.js';
import { memberKey, members, teamMemberKey, teamMembers, teams, translations, users, type MemberRole, type RunningSandbox } from '../../src/sandbox/index.js';
import { filesIn, liveCli, tempDir } from './safety-cli-helpers.js';

const ORG = 'org-demo';
const T0 = '2024-01-01T00:00:00.000Z';
const ROLES: MemberRole[] = ['admin', 'create', 'review', 'edit', 'comment', 'read'];

/** A large organization written straight into the store: members, teams with members, translations. */
function fillLargeOrg(sb: RunningSandbox, counts: { members: number; teams: number; translations: number }): void {
  for (let i = 0; i < counts.members; i++) {
    const userId = `u-gen-${i}`;
    users(sb.store).put({ id: userId, displayName: `User ${i}`, email: `User.${i}@Acme.test` });
    members(sb.store).put({ id: memberKey(ORG, userId), orgId: ORG, userId, role: ROLES[i % ROLES.length]!, disabled: false, joinedAt: T0, sso: i % 7 === 0 });
  }
  for (let t = 0; t < counts.teams; t++) {
    const teamId = `team-gen-${t}`;
    teams(sb.store).put({ id: teamId, orgId: ORG, title: `Team ${t}`, createdAt: T0 });
    for (let k = 0; k < 8; k++) {
      const userId = `u-gen-${(t * 8 + k) % counts.members}`;
      teamMembers(sb.store).put({ id: teamMemberKey(teamId, userId), orgId: ORG, teamId, userId, role: k === 0 ? 'owner' : 'member' });
    }
  }
  for (let i = 0; i < counts.translations; i++) {
    translations(sb.store).put({ id: `tr-gen-${i}`, orgId: ORG, title: `Translation ${i}`, languages: i % 2 === 0 ? ['de', 'fr'] : [], createdAt: T0, updatedAt: T0 });
  }
}

describe('docops export', () => {
  it('writes one file per kind with the schema comment, and the export plans to no changes (demo seed)', async () => {
    const cli = await liveCli();
    const out = path.join(await tempDir(), 'exported');
    cli.sb.resetStats();
    const r = await cli.run(['export', '--org', ORG, '-o', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(Object.keys(cli.sb.stats().byMethod)).toEqual(['GET']);
    const files = await filesIn(out);
    for (const f of ['organization.yaml', 'members.yaml', 'teams.yaml', 'translations.yaml']) expect(files).toContain(f);
    for (const f of files) {
      const text = await readFile(path.join(out, f), 'utf8');
      expect(text.startsWith(`# yaml-language-server: $schema=${path.relative(path.dirname(path.join(out, f)), path.resolve('schemas/document.schema.json'))}\n`)).toBe(true);
    }
    expect(r.stdout).toContain(`wrote ${path.join(out, 'teams.yaml')}`);
    const teamsYaml = await readFile(path.join(out, 'teams.yaml'), 'utf8');
    expect(teamsYaml).toContain('id: team-platform');
    expect(teamsYaml).toContain('- email: heidi@acme.test\n      role: owner');
    // Defaults are left out: the organization's `sso: false`, a team member's `role: member`.
    expect(await readFile(path.join(out, 'organization.yaml'), 'utf8')).not.toContain('sso:');
    expect(teamsYaml).not.toContain('role: member');

    const plan = await cli.run(['plan', '-m', out, '--detailed-exitcode']);
    expect(plan.stdout).toBe('No changes. Live state matches the manifests.\n');
    expect(plan.code).toBe(0);
  });

  it('round-trips a large organization: 2,000 members, 200 teams with members, 50 translations', async () => {
    const cli = await liveCli();
    fillLargeOrg(cli.sb, { members: 2000, teams: 200, translations: 50 });
    const out = await tempDir();
    const r = await cli.run(['export', '--org', ORG, '-o', out]);
    expect(r.code).toBe(0);
    const membersYaml = await readFile(path.join(out, 'members.yaml'), 'utf8');
    expect(membersYaml.match(/- email: /g)).toHaveLength(2010);
    expect((await readFile(path.join(out, 'teams.yaml'), 'utf8')).match(/^kind: Team$/gm)).toHaveLength(203);
    expect((await readFile(path.join(out, 'translations.yaml'), 'utf8')).match(/^kind: Translation$/gm)).toHaveLength(51);
    const plan = await cli.run(['plan', '-m', out, '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toBe('No changes. Live state matches the manifests.\n');
    expect(plan.code).toBe(0);
  });

  it('exports two teams with one title, ids pinned, and the export plans to no changes', async () => {
    const cli = await liveCli();
    teams(cli.sb.store).put({ id: 'team-dup', orgId: ORG, title: 'Platform', createdAt: T0 });
    teamMembers(cli.sb.store).put({ id: teamMemberKey('team-dup', 'u-dan'), orgId: ORG, teamId: 'team-dup', userId: 'u-dan', role: 'owner' });
    const out = await tempDir();
    const r = await cli.run(['export', '--org', ORG, '-o', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const teamsYaml = await readFile(path.join(out, 'teams.yaml'), 'utf8');
    expect(teamsYaml.match(/^ {2}title: Platform$/gm)).toHaveLength(2);
    expect(teamsYaml).toContain('id: team-platform');
    expect(teamsYaml).toContain('id: team-dup\n  members:\n    - email: dan@acme.test\n      role: owner');
    const plan = await cli.run(['plan', '-m', out, '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toBe('No changes. Live state matches the manifests.\n');
    expect(plan.code).toBe(0);
  });

  it('never replaces an existing file unless --overwrite', async () => {
    const cli = await liveCli();
    const out = await tempDir();
    await writeFile(path.join(out, 'teams.yaml'), '# mine\n');
    const r = await cli.run(['export', '--org', ORG, '-o', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('teams.yaml already exists; pass --overwrite');
    expect(await readFile(path.join(out, 'teams.yaml'), 'utf8')).toBe('# mine\n');
    expect((await cli.run(['export', '--org', ORG, '-o', out, '--overwrite'])).code).toBe(0);
    expect(await readFile(path.join(out, 'teams.yaml'), 'utf8')).toContain('kind: Team');
  });

  it('shows progress on stderr only when it is a terminal', async () => {
    const cli = await liveCli();
    let stderr = '';
    const code = await main(['export', '--org', ORG, '-o', await tempDir(), '--api-url', cli.sb.url, '--log-level', 'silent'], {
      stdout: { write: () => true, isTTY: false },
      stderr: { write: (c: string) => void (stderr += c), isTTY: true },
      env: { DOCOPS_TOKEN: cli.sb.token },
    });
    expect(code).toBe(0);
    expect(stderr).toContain('\r\x1b[KExporting org-demo (pass 1)');
    expect(stderr.endsWith('\r\x1b[K')).toBe(true);
    const piped = await cli.run(['export', '--org', ORG, '-o', await tempDir()]);
    expect(piped.stderr).toBe('');
  });

  it('needs --org and -o', async () => {
    const cli = await liveCli();
    expect((await cli.run(['export', '-o', await tempDir()])).stderr).toContain('missing --org ID');
    expect((await cli.run(['export', '--org', ORG])).stderr).toContain('missing -o DIR');
  });
});

describe('export helpers', () => {
  it('probes every array, object and string property of a spec schema', () => {
    const schema = { properties: { title: { type: 'string' }, members: { type: 'array' }, parent: { type: ['string', 'null'] }, role: { enum: ['a'] }, on: { type: 'boolean' }, cfg: { type: 'object' } } };
    expect(probeSpec(schema)).toEqual({ title: '', members: [], parent: '', cfg: {} });
  });

  it('lays kinds out in files, one file per site', () => {
    expect(kindFileName('Organization')).toBe('organization.yaml');
    expect(kindFileName('Members')).toBe('members.yaml');
    expect(kindFileName('Team')).toBe('teams.yaml');
    expect(kindFileName('Space')).toBe('spaces.yaml');
    expect(layoutKind('Team', [])).toEqual([]);
    const sites = [{ spec: { title: 'Docs & API!' } }, { spec: { title: 'docs  api' } }, { spec: {} }];
    expect(layoutKind('Site', sites).map((f) => f.path)).toEqual(['sites/docs-api.yaml', 'sites/docs-api-2.yaml', 'sites/site.yaml']);
    expect(slug('Ünïcode Site')).toBe('unicode-site');
  });

  it('writes the schema path relative to the file', () => {
    expect(schemaComment('/a/b/sites/x.yaml', '/a/schemas/document.schema.json')).toBe('# yaml-language-server: $schema=../../schemas/document.schema.json\n');
  });
});
