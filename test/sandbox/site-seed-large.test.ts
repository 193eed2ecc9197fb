import { describe, expect, it } from 'vitest';
import { SandboxStore, members, spaces, teamMembers, teams } from '@docops/sandbox';
import { seedLargeOrg } from '../../packages/sandbox/src/seed-large.js';
import { siteSpaces, sites } from '../../packages/sandbox/src/site-records.js';
import { sandbox, type Json } from './helpers.js';
import { SITES, listAll } from './site-fixture.js';

describe('seedLargeOrg', () => {
  it('builds the default size deterministically', () => {
    const a = new SandboxStore();
    const summary = seedLargeOrg(a);
    expect(summary.siteIds).toHaveLength(50);
    expect(members(a).size).toBe(10_001); // plus the token's admin from the empty seed
    expect(teams(a).size).toBe(1_000);
    expect(teamMembers(a).size).toBe(20_000);
    expect(spaces(a).size).toBe(500);
    expect(sites(a).size).toBe(50);
    expect(siteSpaces(a).size).toBe(50 * 3 * 3);
    const b = new SandboxStore();
    seedLargeOrg(b);
    expect(JSON.stringify(b.snapshot())).toBe(JSON.stringify(a.snapshot()));
    expect(() => seedLargeOrg(a)).toThrow(/already seeded/);
  });

  it('rejects options that cannot fit', () => {
    expect(() => seedLargeOrg(new SandboxStore(), { members: 2, teams: 1, memberships: 3 })).toThrow(/do not fit/);
    expect(() => seedLargeOrg(new SandboxStore(), { spaces: 0, sites: 1 })).toThrow(/at least one space/);
    expect(() => seedLargeOrg(new SandboxStore(), { sites: -1 })).toThrow(/non-negative/);
  });

  it('produces sites the API serves with its navigation rules (sections or root site spaces)', async () => {
    const { call, sb } = await sandbox({ seed: 'empty' });
    seedLargeOrg(sb.store, {
      members: 20,
      teams: 4,
      memberships: 30,
      spaces: 7,
      sites: 2,
      sectionsPerSite: 2,
      spacesPerSection: 2,
    });
    const list = await listAll(call, SITES);
    expect(list.map((s: Json) => [s.id, s.published, s.siteSpaces])).toEqual([
      ['site-load-1', false, 4],
      ['site-load-2', true, 4],
    ]);
    const sections = await listAll(call, `${SITES}/site-load-1/sections`);
    expect(sections.map((s: Json) => [s.default, s.siteSpaces.map((x: Json) => x.default)])).toEqual([
      [true, [true, false]],
      [false, [true, false]],
    ]);
    expect((await call('DELETE', `${SITES}/site-load-1/sections/${sections[0].id}`)).status).toBe(400);
    expect((await call('GET', '/orgs/org-demo/teams/team-load-1')).body.members).toBeGreaterThanOrEqual(7);

    const { call: call2, sb: sb2 } = await sandbox({ seed: 'empty' });
    seedLargeOrg(sb2.store, {
      members: 1,
      teams: 1,
      memberships: 1,
      spaces: 1,
      sites: 1,
      sectionsPerSite: 0,
      spacesPerSection: 3,
    });
    const flat = await listAll(call2, `${SITES}/site-load-1/site-spaces`);
    expect(flat.map((s: Json) => [s.section, s.default, s.space.id])).toEqual([
      [undefined, true, 'sp-load-1'],
      [undefined, false, 'sp-load-1'],
      [undefined, false, 'sp-load-1'],
    ]);
  });
});
