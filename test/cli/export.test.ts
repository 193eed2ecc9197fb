import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { BENCH_ORG, generateOrg } from '../../tools/bench/org-model.js';
import { seedStore } from '../../tools/bench/seed-store.js';
import {
  EXPORT_FILE_BUDGET,
  exportOrganization,
  kindFileName,
  layoutKind,
  packDocuments,
  probeSpec,
  renderDocument,
  schemaComment,
  slug,
  splitDocument,
} from '../../src/export/index.js';
import { main } from '../../src/cli/main.js';
import { KINDS } from '../../src/kinds/index.js';
import { DEFAULT_MAX_FILE_BYTES, loadManifests } from '../../src/manifests/index.js';
import {
  memberKey,
  members,
  teamMemberKey,
  teamMembers,
  teams,
  translations,
  users,
  type MemberRole,
  type RunningSandbox,
} from '@docops/sandbox';
import { runCli } from './run-cli.js';
import { filesIn, liveCli, tempDir } from './safety-cli-helpers.js';

const ORG = 'org-demo';
const T0 = '2024-01-01T00:00:00.000Z';
const ROLES: MemberRole[] = ['admin', 'create', 'review', 'edit', 'comment', 'read'];

/** A large organization written straight into the store: members, teams with members, translations. */
function fillLargeOrg(sb: RunningSandbox, counts: { members: number; teams: number; translations: number }): void {
  for (let i = 0; i < counts.members; i++) {
    const userId = `u-gen-${i}`;
    users(sb.store).put({ id: userId, displayName: `User ${i}`, email: `User.${i}@Acme.test` });
    members(sb.store).put({
      id: memberKey(ORG, userId),
      orgId: ORG,
      userId,
      role: ROLES[i % ROLES.length]!,
      disabled: false,
      joinedAt: T0,
      sso: i % 7 === 0,
    });
  }
  for (let t = 0; t < counts.teams; t++) {
    const teamId = `team-gen-${t}`;
    teams(sb.store).put({ id: teamId, orgId: ORG, title: `Team ${t}`, createdAt: T0 });
    for (let k = 0; k < 8; k++) {
      const userId = `u-gen-${(t * 8 + k) % counts.members}`;
      teamMembers(sb.store).put({
        id: teamMemberKey(teamId, userId),
        orgId: ORG,
        teamId,
        userId,
        role: k === 0 ? 'owner' : 'member',
      });
    }
  }
  for (let i = 0; i < counts.translations; i++) {
    translations(sb.store).put({
      id: `tr-gen-${i}`,
      orgId: ORG,
      title: `Translation ${i}`,
      languages: i % 2 === 0 ? ['de', 'fr'] : [],
      createdAt: T0,
      updatedAt: T0,
    });
  }
}

describe('docops export', () => {
  it('writes one file per kind with its header, and the export plans to no changes (demo seed)', async () => {
    const cli = await liveCli();
    const out = path.join(await tempDir(), 'exported');
    cli.sb.resetStats();
    const r = await cli.run(['export', '--org', ORG, '-o', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(Object.keys(cli.sb.stats().byMethod)).toEqual(['GET']);
    const files = await filesIn(out);
    for (const f of ['organization.yaml', 'members.yaml', 'teams.yaml', 'translations.yaml'])
      expect(files).toContain(f);
    for (const f of files) {
      const text = await readFile(path.join(out, f), 'utf8');
      // No editor schema above the directory (`docops init` writes them into a repository): no schema line, and
      // never a URL of a package docops does not own (issue 34; test/cli/init-repository.test.ts).
      expect(text.startsWith(`# Exported from organization ${ORG} by docops export.\n`)).toBe(true);
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

  it('writes live text holding ${…} so it reads back as itself (never as a variable), and plans no changes', async () => {
    const cli = await liveCli();
    const team = teams(cli.sb.store).get('team-platform')!;
    teams(cli.sb.store).put({ ...team, title: 'Cost ${X} and $${Y}' });
    const out = path.join(await tempDir(), 'exported');
    expect((await cli.run(['export', '--org', ORG, '-o', out])).code).toBe(0);
    expect(await readFile(path.join(out, 'teams.yaml'), 'utf8')).toContain('title: Cost $${X} and $$${Y}');
    const plan = await cli.run(['plan', '-m', out, '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toBe('No changes. Live state matches the manifests.\n');
    expect(plan.code).toBe(0);
  });

  it('an organization a newer API answers: values docops does not know are left out and said; plans no changes', async () => {
    const cli = await liveCli();
    cli.sb.setFaults('evolve=1,seed=2'); // newer member, team and grant roles, an organization default role …
    const out = path.join(await tempDir(), 'exported');
    const r = await cli.run(['export', '--org', ORG, '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^Left out \d+ in Organization, \d+ in Members, .*values docops does not know/m);
    const membersYaml = await readFile(path.join(out, 'members.yaml'), 'utf8');
    expect(membersYaml).toContain('    - email: bob@acme.test\n      # docops does not know role: "billing"');
    const plan = await cli.run(['plan', '-m', out, '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
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
    expect((await readFile(path.join(out, 'translations.yaml'), 'utf8')).match(/^kind: Translation$/gm)).toHaveLength(
      51,
    );
    const plan = await cli.run(['plan', '-m', out, '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toBe('No changes. Live state matches the manifests.\n');
    expect(plan.code).toBe(0);
  });

  it('round-trips a 3 MiB OpenAPI spec published through the API: written whole, loaded as data, no changes planned', async () => {
    const cli = await liveCli();
    // A YAML spec whose bulk is one block scalar (quick for the sandbox to parse), `${…}` in it as text.
    const line = '    Lorem ipsum ${HOME} dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.\n';
    const text = `openapi: 3.1.0\ninfo:\n  title: Big\n  version: "1"\n  description: |\n${line.repeat(Math.ceil((3 * 1024 * 1024) / line.length))}paths: {}\n`;
    const client = createClient({ baseUrl: cli.sb.url, token: cli.sb.token });
    await client.request('PUT', `/orgs/${ORG}/openapi/big`, { body: { source: { text } } });
    const out = path.join(await tempDir(), 'exported');
    const r = await cli.run(['export', '--org', ORG, '-o', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(await readFile(path.join(out, 'openapi', 'big.yaml'), 'utf8')).toBe(text);
    const plan = await cli.run(['plan', '-m', out, '--detailed-exitcode']);
    expect(plan.stdout).toBe('No changes. Live state matches the manifests.\n');
    expect(plan.code).toBe(0);
  });

  it('exports two teams with one title, ids pinned, and the export plans to no changes', async () => {
    const cli = await liveCli();
    teams(cli.sb.store).put({ id: 'team-dup', orgId: ORG, title: 'Platform', createdAt: T0 });
    teamMembers(cli.sb.store).put({
      id: teamMemberKey('team-dup', 'u-dan'),
      orgId: ORG,
      teamId: 'team-dup',
      userId: 'u-dan',
      role: 'owner',
    });
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
    const code = await main(
      ['export', '--org', ORG, '-o', await tempDir(), '--api-url', cli.sb.url, '--log-level', 'silent'],
      {
        stdout: { write: () => true, isTTY: false },
        stderr: { write: (c: string) => void (stderr += c), isTTY: true },
        env: { DOCOPS_TOKEN: cli.sb.token },
      },
    );
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
    const schema = {
      properties: {
        title: { type: 'string' },
        members: { type: 'array' },
        parent: { type: ['string', 'null'] },
        role: { enum: ['a'] },
        on: { type: 'boolean' },
        cfg: { type: 'object' },
      },
    };
    expect(probeSpec(schema)).toEqual({ title: '', members: [], parent: '', cfg: {} });
  });

  it('lays kinds out in files, one file per site', () => {
    expect(kindFileName('Organization')).toBe('organization.yaml');
    expect(kindFileName('Members')).toBe('members.yaml');
    expect(kindFileName('Team')).toBe('teams.yaml');
    expect(kindFileName('Space')).toBe('spaces.yaml');
    expect(layoutKind('Team', [])).toEqual([]);
    const sites = [{ spec: { title: 'Docs & API!' } }, { spec: { title: 'docs  api' } }, { spec: {} }];
    expect(layoutKind('Site', sites).map((f) => f.path)).toEqual([
      'sites/docs-api.yaml',
      'sites/docs-api-2.yaml',
      'sites/site.yaml',
    ]);
    expect(slug('Ünïcode Site')).toBe('unicode-site');
  });

  it('writes the schema path relative to the file', () => {
    expect(schemaComment('/a/b/sites/x.yaml', '/a/schemas/document.schema.json')).toBe(
      '# yaml-language-server: $schema=../../schemas/document.schema.json\n',
    );
  });
});

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const membersDoc = (n: number, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'docops/v1',
  kind: 'Members',
  metadata: { organization: ORG },
  spec: {
    ...extra,
    members: Array.from({ length: n }, (_, i) => ({ email: `person.${i}@acme.test`, role: ROLES[i % ROLES.length] })),
  },
});
const teamDoc = (i: number) => ({
  apiVersion: 'docops/v1',
  kind: 'Team',
  metadata: { organization: ORG },
  spec: { title: `Team ${i}`, id: `team-${i}`, members: [{ email: `p${i}@acme.test`, role: 'owner' }] },
});
const membersOf = (texts: readonly string[]): unknown[] =>
  texts.flatMap((t) => (parseAllDocuments(t)[0]!.toJS() as { spec: { members: unknown[] } }).spec.members);

describe('export splits what does not fit a file', () => {
  it('spreads a Members list over documents under the budget, in order, repeating the other spec fields', () => {
    const doc = membersDoc(1000, { invite: true });
    const parts = splitDocument(doc, 'members', 4096, renderDocument);
    expect(parts.length).toBeGreaterThan(5);
    for (const p of parts) {
      expect(bytes(p)).toBeLessThanOrEqual(4096);
      expect((parseAllDocuments(p)[0]!.toJS() as { spec: { invite: boolean } }).spec.invite).toBe(true);
    }
    expect(membersOf(parts)).toEqual(doc.spec.members);
    expect(splitDocument(doc, 'members', 4096, renderDocument)).toEqual(parts); // deterministic
    // A document that fits, or that has nothing to split, stays whole.
    expect(splitDocument(doc, 'members', 10 * 1024 * 1024, renderDocument)).toEqual([renderDocument(doc)]);
    expect(splitDocument(membersDoc(1), 'members', 10, renderDocument)).toEqual([renderDocument(membersDoc(1))]);
  });

  it('halves a part the estimate got wrong (the YAML is larger than the JSON estimate)', () => {
    const doc = membersDoc(200);
    // A renderer that pads: every part is re-cut until it fits.
    const padded = (d: object): string => renderDocument(d).replace(/\n/g, ' '.repeat(30) + '\n');
    const parts = splitDocument(doc, 'members', 3000, padded);
    for (const p of parts) expect(bytes(p)).toBeLessThanOrEqual(3000);
    expect(parts.flatMap((p) => [...p.matchAll(/email: (\S+)/g)].map((m) => m[1]))).toEqual(
      doc.spec.members.map((m) => m.email),
    );
  });

  it('packs documents into files in order, each at most the budget (separators counted); one too-large document alone', () => {
    const texts = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(100), 'd'.repeat(10), 'e'.repeat(10)];
    expect(packDocuments(texts, 100)).toEqual([[texts[0], texts[1]], [texts[2]], [texts[3], texts[4]]]);
    expect(packDocuments([], 100)).toEqual([]);
  });

  it('names split files <kind>-001.yaml … in order, and keeps the single name when everything fits', () => {
    const teamsDocs = Array.from({ length: 60 }, (_, i) => teamDoc(i));
    const files = layoutKind('Team', teamsDocs, { budget: 2048 });
    expect(files.length).toBeGreaterThan(3);
    expect(files.map((f) => f.path)).toEqual(files.map((_, i) => `teams-${String(i + 1).padStart(3, '0')}.yaml`));
    for (const f of files) expect(f.documents.reduce((n, d) => n + bytes(d) + 4, 0)).toBeLessThanOrEqual(2048);
    expect(files.flatMap((f) => f.documents)).toEqual(teamsDocs.map(renderDocument));
    expect(layoutKind('Team', teamsDocs).map((f) => f.path)).toEqual(['teams.yaml']);
    const members = layoutKind('Members', [membersDoc(500)], { budget: 4096 });
    expect(members[0]!.path).toBe('members-001.yaml');
    expect(membersOf(members.flatMap((f) => f.documents))).toEqual(membersDoc(500).spec.members);
  });

  it('round-trips at a small file limit: every file under the budget, the loader (at twice the budget) accepts it, plan shows no changes', async () => {
    const cli = await liveCli();
    fillLargeOrg(cli.sb, { members: 3000, teams: 300, translations: 20 });
    const out = await tempDir();
    const client = createClient({ baseUrl: cli.sb.url, token: cli.sb.token });
    const budget = 32 * 1024;
    try {
      const result = await exportOrganization(client, KINDS, ORG, out, { layout: { budget } });
      const names = result.files.map((f) => path.relative(out, f));
      expect(names.filter((n) => /^members-\d{3}\.yaml$/.test(n)).length).toBeGreaterThan(3);
      expect(names.filter((n) => /^teams-\d{3}\.yaml$/.test(n)).length).toBeGreaterThan(1);
      for (const f of result.files) expect((await stat(f)).size, f).toBeLessThan(budget + 1024);
      const loaded = await loadManifests(out, KINDS, { env: {}, maxFileBytes: 2 * budget });
      expect(loaded.documents.length).toBeGreaterThan(300);
    } finally {
      await client.close();
    }
    const plan = await cli.run(['plan', '-m', out, '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toBe('No changes. Live state matches the manifests.\n');
  });

  it('a stale part of an earlier export is an error, and --overwrite removes it', async () => {
    const cli = await liveCli();
    fillLargeOrg(cli.sb, { members: 2000, teams: 10, translations: 0 });
    const out = await tempDir();
    const client = createClient({ baseUrl: cli.sb.url, token: cli.sb.token });
    try {
      const first = await exportOrganization(client, KINDS, ORG, out, { layout: { budget: 16 * 1024 } });
      const parts = first.files.filter((f) => /members-\d{3}\.yaml$/.test(f));
      expect(parts.length).toBeGreaterThan(2);
      // The same organization at the default budget fits members.yaml: the old parts would duplicate every member.
      await expect(exportOrganization(client, KINDS, ORG, out, { overwrite: false })).rejects.toThrow(
        /members-001\.yaml already exists; pass --overwrite/,
      );
      const second = await exportOrganization(client, KINDS, ORG, out, { overwrite: true });
      expect(second.removed).toEqual(expect.arrayContaining(parts));
      expect((await readdir(out)).filter((n) => n.startsWith('members'))).toEqual(['members.yaml']);
    } finally {
      await client.close();
    }
    expect((await cli.run(['plan', '-m', out, '--detailed-exitcode'])).stdout).toBe(
      'No changes. Live state matches the manifests.\n',
    );
  });
});

describe('export at scale', () => {
  // The 100,000-member round trip is in the benchmark (npm run bench, exportRoundTrip); this one still splits every
  // list over several files.
  it('round-trips the bench organization at 25,000 members: every file under the budget, validate accepts it, plan shows no changes', async () => {
    const cli = await liveCli('empty');
    const org = generateOrg({
      members: 25_000,
      teams: 1_000,
      teamMemberships: 30_000,
      translations: 10,
      spaces: 20,
      sites: 2,
      sectionsPerSite: 2,
      spacesPerSection: 2,
      sectionsPerGroup: 0,
    });
    seedStore(cli.sb.store, org);
    const out = await tempDir();
    const exported = await cli.run(['export', '--org', BENCH_ORG, '-o', out]);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);

    const files = await filesIn(out);
    const members = files.filter((f) => /^members-\d{3}\.yaml$/.test(f));
    expect(members.length).toBeGreaterThanOrEqual(2);
    expect(files.filter((f) => /^teams-\d{3}\.yaml$/.test(f)).length).toBeGreaterThanOrEqual(2);
    expect(files).not.toContain('members.yaml');
    for (const f of files) {
      const st = await stat(path.join(out, f));
      if (st.isFile()) expect(st.size, f).toBeLessThanOrEqual(EXPORT_FILE_BUDGET + 1024);
    }
    expect(EXPORT_FILE_BUDGET + 1024).toBeLessThan(DEFAULT_MAX_FILE_BYTES * 0.6);
    let emails = 0;
    for (const f of members)
      emails += ((await readFile(path.join(out, f), 'utf8')).match(/^ {4}- email: /gm) ?? []).length;
    expect(emails).toBe(25_000);

    const validate = await runCli(['validate', '-m', out, '--log-level', 'silent']); // offline: no --api-url
    expect(validate.stderr).toBe('');
    expect(validate.code).toBe(0);
    const plan = await cli.run(['plan', '-m', out, '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toBe('No changes. Live state matches the manifests.\n');
    expect(plan.code).toBe(0);
  }, 240_000);
});
