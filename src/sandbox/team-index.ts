/**
 * Team memberships grouped by team and counted by user, rebuilt only when the table changed. Scanning every
 * membership per presented team or member made lists quadratic (1,000 teams × 20,000 memberships per page),
 * which turned the sandbox, not the client, into the bottleneck of benchmarks on large organizations.
 */
import { teamMembers, type TeamMemberRec } from './records.js';
import type { SandboxStore, Table } from './store.js';

interface Index {
  version: number;
  byTeam: Map<string, TeamMemberRec[]>;
  /** `${orgId}/${userId}` → number of teams. */
  teamsOfMember: Map<string, number>;
}

const cache = new WeakMap<Table<TeamMemberRec>, Index>();

function index(store: SandboxStore): Index {
  const table = teamMembers(store);
  const known = cache.get(table);
  if (known && known.version === table.version) return known;
  const built: Index = { version: table.version, byTeam: new Map(), teamsOfMember: new Map() };
  for (const tm of table.all()) {
    const list = built.byTeam.get(tm.teamId);
    if (list) list.push(tm);
    else built.byTeam.set(tm.teamId, [tm]);
    const k = `${tm.orgId}/${tm.userId}`;
    built.teamsOfMember.set(k, (built.teamsOfMember.get(k) ?? 0) + 1);
  }
  cache.set(table, built);
  return built;
}

/** The memberships of one team, in insertion order (a copy). */
export function membersOfTeam(store: SandboxStore, teamId: string): TeamMemberRec[] {
  return [...(index(store).byTeam.get(teamId) ?? [])];
}

/** How many teams of organization `orgId` user `userId` is in. */
export function teamCountOf(store: SandboxStore, orgId: string, userId: string): number {
  return index(store).teamsOfMember.get(`${orgId}/${userId}`) ?? 0;
}
