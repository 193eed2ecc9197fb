/**
 * Team memberships grouped by team and counted by member, each rebuilt only when the table changed (and
 * only when asked for). Scanning every membership per presented team or member made lists quadratic
 * (1,000 teams × 20,000 memberships per page), which turned the sandbox, not the client, into the
 * bottleneck of benchmarks on large organizations.
 */
import { teamMembers, type TeamMemberRec } from './records.js';
import type { SandboxStore, Table } from './store.js';

type Memberships = Table<TeamMemberRec>;

/** A value derived from the memberships table, cached per table version. */
function derived<V>(build: (rows: TeamMemberRec[]) => V): (store: SandboxStore) => V {
  const cache = new WeakMap<Memberships, { version: number; value: V }>();
  return (store) => {
    const table = teamMembers(store);
    const known = cache.get(table);
    if (known && known.version === table.version) return known.value;
    const value = build(table.all());
    cache.set(table, { version: table.version, value });
    return value;
  };
}

const byTeam = derived((rows) => {
  const out = new Map<string, TeamMemberRec[]>();
  for (const tm of rows) {
    const list = out.get(tm.teamId);
    if (list) list.push(tm);
    else out.set(tm.teamId, [tm]);
  }
  return out;
});

/** orgId → userId → number of teams. */
const teamsPerMember = derived((rows) => {
  const out = new Map<string, Map<string, number>>();
  for (const tm of rows) {
    let org = out.get(tm.orgId);
    if (!org) out.set(tm.orgId, (org = new Map()));
    org.set(tm.userId, (org.get(tm.userId) ?? 0) + 1);
  }
  return out;
});

/** The memberships of one team, in insertion order (a copy). */
export function membersOfTeam(store: SandboxStore, teamId: string): TeamMemberRec[] {
  return [...(byTeam(store).get(teamId) ?? [])];
}

/** How many teams of organization `orgId` user `userId` is in. */
export function teamCountOf(store: SandboxStore, orgId: string, userId: string): number {
  return teamsPerMember(store).get(orgId)?.get(userId) ?? 0;
}
