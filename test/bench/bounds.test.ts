import { describe, expect, it } from 'vitest';
import {
  applyBoundMs,
  criticalPathMs,
  longestChain,
  lowerBoundRequests,
  pagesOf,
  type ListNeed,
} from '../../tools/bench/bounds.js';
import { planNeeds, refreshBaseline, strictPlanNeeds } from '../../tools/bench/needs.js';
import { changeCount, generateOrg, withChanges, type OrgSizes } from '../../tools/bench/org-model.js';

describe('bench bounds', () => {
  it('counts pages of 1,000 with at least one page per list', () => {
    expect([0, 1, 999, 1000, 1001, 10_000, 10_001].map(pagesOf)).toEqual([1, 1, 1, 1, 2, 10, 11]);
  });

  it('sums pages, single GETs count one', () => {
    const needs: ListNeed[] = [
      { name: 'org', items: 1, single: true },
      { name: 'members', items: 2500 },
      { name: 'teams', items: 0 },
    ];
    expect(lowerBoundRequests(needs)).toBe(1 + 3 + 1);
  });

  it('chains a child list after its parent list', () => {
    const needs: ListNeed[] = [
      { name: 'members', items: 4000 },
      { name: 'teams', items: 1500 },
      { name: 'team a members', items: 10, after: 'teams' },
      { name: 'team b members', items: 2001, after: 'teams' },
    ];
    expect(longestChain(needs)).toBe(2 + 3);
    expect(() => longestChain([{ name: 'x', items: 1, after: 'nope' }])).toThrow(/unknown list/);
  });

  it('takes the longer of the chain and the requests spread over the pool', () => {
    expect(criticalPathMs({ chainRequests: 10, totalRequests: 1165, concurrency: 8, latencyMs: 20 })).toBe(146 * 20);
    expect(criticalPathMs({ chainRequests: 10, totalRequests: 20, concurrency: 8, latencyMs: 20 })).toBe(10 * 20);
  });

  it('sums apply groups, each the longer of its longest step and its requests over the pool', () => {
    expect(applyBoundMs([[1, 1, 1], Array(17).fill(1), [5, 1]], 8, 10)).toBe((1 + 3 + 5) * 10);
    expect(applyBoundMs([], 8, 10)).toBe(0);
  });
});

const tiny: OrgSizes = {
  members: 30,
  teams: 4,
  teamMemberships: 20,
  translations: 2,
  spaces: 6,
  sites: 2,
  sectionsPerSite: 2,
  spacesPerSection: 2,
  sectionsPerGroup: 1,
};
const ALL = new Set(['Organization', 'Members', 'Team', 'Translation', 'Space', 'Site']);

describe('bench needs from the generated organization', () => {
  it('needs the org, members, teams with one member list per team, translations, spaces, sites with three lists each', () => {
    const org = generateOrg(tiny);
    const needs = planNeeds(org, ALL);
    // org 1 + members 1 + teams 1 + 4 team lists + translations 1 + spaces 1 + sites 1 + 2 × (sections, groups, site spaces)
    expect(lowerBoundRequests(needs)).toBe(1 + 1 + 1 + 4 + 1 + 1 + 1 + 6);
    expect(lowerBoundRequests(strictPlanNeeds(org, ALL))).toBe(16 - 2);
    expect(longestChain(needs)).toBe(2);
    expect(lowerBoundRequests(planNeeds(org, new Set(['Members'])))).toBe(1);
  });

  it('counts one GET per managed object for the refresh baseline', () => {
    const b = refreshBaseline(generateOrg(tiny), ALL);
    expect(b).toMatchObject({
      organization: 1,
      members: 30,
      teams: 4,
      teamMemberships: 20,
      translations: 2,
      spaces: 6,
      sites: 2,
      sections: 4,
      sectionGroups: 2,
      siteSpaces: 8,
    });
  });

  it('makes exactly the asked number of changes', () => {
    const org = generateOrg(tiny);
    const c = { roleChanges: 5, teamsChanged: 2, changesPerTeam: 4, newTeams: 3 };
    const next = withChanges(org, c);
    const roleDiffs = next.members.filter((m, i) => m.role !== org.members[i]!.role).length;
    let membershipDiffs = 0;
    org.teams.forEach((t, i) => {
      const before = new Map(t.members.map((m) => [m.member, m.role]));
      const after = new Map(next.teams[i]!.members.map((m) => [m.member, m.role]));
      for (const [k, r] of after) if (before.get(k) !== r) membershipDiffs++;
      for (const k of before.keys()) if (!after.has(k)) membershipDiffs++;
    });
    expect(roleDiffs + membershipDiffs + (next.teams.length - org.teams.length)).toBe(changeCount(c));
    expect(next.members[0]!.role).toBe('admin');
  });
});
