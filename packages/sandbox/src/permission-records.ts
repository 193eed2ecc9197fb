/**
 * Content permissions: which team or organization member holds which role on a space, a collection or a
 * site (the official spec's `…/permissions` operations). One row per (target, principal); rows are plain JSON
 * like every other table, so they persist in the state file.
 *
 * The cascades live here too (`dropGrantsOn`, `dropGrantsOfTeam`, `dropGrantsOfMember`): the routes that delete
 * a target or a principal call them, so a grant never outlives what it names.
 */
import type { MemberRole } from './records.js';
import { spaces, teamMembers } from './records.js';
import { membersOfTeam } from './team-index.js';
import type { SandboxStore, Table } from './store.js';

export const GRANT_TARGETS = ['space', 'collection', 'site'] as const;
export type GrantTarget = (typeof GRANT_TARGETS)[number];
export type GrantPrincipal = 'team' | 'user';

/** id = grantKey(…). `role` is null only on sites (an override that takes access away); elsewhere null revokes. */
export interface GrantRec {
  id: string;
  /** The organization of the target (and of the team or member). */
  orgId: string;
  targetType: GrantTarget;
  targetId: string;
  principalType: GrantPrincipal;
  principalId: string;
  role: MemberRole | null;
}

export const grants = (s: SandboxStore): Table<GrantRec> => s.table('contentGrants');

export const grantKey = (
  targetType: GrantTarget,
  targetId: string,
  principalType: GrantPrincipal,
  principalId: string,
): string => `${targetType}:${targetId}/${principalType}:${principalId}`;

/** The grants on one target held by one kind of principal, in insertion order. */
export function grantsOn(
  store: SandboxStore,
  targetType: GrantTarget,
  targetId: string,
  principalType: GrantPrincipal,
): GrantRec[] {
  return grants(store).where(
    (g) => g.targetType === targetType && g.targetId === targetId && g.principalType === principalType,
  );
}

function dropWhere(store: SandboxStore, pred: (g: GrantRec) => boolean): void {
  const table = grants(store);
  for (const g of table.where(pred)) table.delete(g.id);
}

/** A deleted (or purged, or transferred) target takes its grants with it. */
export function dropGrantsOn(store: SandboxStore, targetType: GrantTarget, targetIds: Iterable<string>): void {
  const ids = new Set(targetIds);
  if (ids.size > 0) dropWhere(store, (g) => g.targetType === targetType && ids.has(g.targetId));
}

export function dropGrantsOfTeam(store: SandboxStore, teamId: string): void {
  dropWhere(store, (g) => g.principalType === 'team' && g.principalId === teamId);
}

/** A user leaving an organization loses their grants on its content (grants elsewhere stay). */
export function dropGrantsOfMember(store: SandboxStore, orgId: string, userId: string): void {
  dropWhere(store, (g) => g.orgId === orgId && g.principalType === 'user' && g.principalId === userId);
}

/** Roles from most to least access (management-api.md lists them in this order, with their meanings). */
const ROLE_ORDER: readonly MemberRole[] = ['admin', 'create', 'review', 'edit', 'comment', 'read'];
const higher = (a: MemberRole, b: MemberRole): MemberRole => (ROLE_ORDER.indexOf(a) <= ROLE_ORDER.indexOf(b) ? a : b);

/** What one member may reach through grants: their own and their teams'. */
interface MemberAccess {
  /** Active space id → the highest role granted to the member or one of their teams, in order of the first grant. */
  spaces: Map<string, MemberRole>;
  /** Sites the member reaches with a role: their own grant when they have one (a null override: none), else their teams'. */
  sites: number;
}

/**
 * Access per member and the Team object's space counts, rebuilt only when the grants, spaces or team memberships
 * changed: presenting every member or team of a large list must not scan all grants each time (see team-index.ts).
 */
interface Access {
  /** `<orgId>/<userId>` → access. */
  members: Map<string, MemberAccess>;
  /** team id → active spaces the team holds a grant on. */
  teamSpaces: Map<string, number>;
}

const accessCache = new WeakMap<Table<GrantRec>, { grants: number; spaces: number; teams: number; value: Access }>();

function access(store: SandboxStore): Access {
  const table = grants(store);
  const spaceTable = spaces(store);
  const memberships = teamMembers(store);
  const known = accessCache.get(table);
  if (
    known &&
    known.grants === table.version &&
    known.spaces === spaceTable.version &&
    known.teams === memberships.version
  )
    return known.value;
  const value: Access = { members: new Map(), teamSpaces: new Map() };
  const of = (orgId: string, userId: string): MemberAccess => {
    const key = `${orgId}/${userId}`;
    let a = value.members.get(key);
    if (!a) value.members.set(key, (a = { spaces: new Map(), sites: 0 }));
    return a;
  };
  const holders = (g: GrantRec): string[] =>
    g.principalType === 'user' ? [g.principalId] : membersOfTeam(store, g.principalId).map((tm) => tm.userId);
  // Sites: a member's own grant (null included) overrides their teams'; so sites are decided per (site, member).
  const siteRoles = new Map<string, { own?: MemberRole | null; team?: MemberRole }>();
  for (const g of table.all()) {
    if (g.targetType === 'space') {
      const space = spaceTable.get(g.targetId);
      if (!space || space.deletedAt !== undefined || g.role === null) continue;
      if (g.principalType === 'team')
        value.teamSpaces.set(g.principalId, (value.teamSpaces.get(g.principalId) ?? 0) + 1);
      for (const userId of holders(g)) {
        const list = of(g.orgId, userId).spaces;
        const had = list.get(g.targetId);
        list.set(g.targetId, had === undefined ? g.role : higher(had, g.role));
      }
    } else if (g.targetType === 'site') {
      for (const userId of holders(g)) {
        const key = `${g.orgId}/${userId}/${g.targetId}`;
        const r = siteRoles.get(key) ?? {};
        if (g.principalType === 'user') r.own = g.role;
        else if (g.role !== null) r.team = r.team === undefined ? g.role : higher(r.team, g.role);
        siteRoles.set(key, r);
      }
    }
  }
  for (const [key, r] of siteRoles) {
    const [orgId = '', userId = ''] = key.split('/');
    if ((r.own !== undefined ? r.own : r.team) != null) of(orgId, userId).sites++;
  }
  accessCache.set(table, { grants: table.version, spaces: spaceTable.version, teams: memberships.version, value });
  return value;
}

/** Active spaces a team holds a direct grant on (the Team object's `spaces`). */
export function teamSpaceCount(store: SandboxStore, teamId: string): number {
  return access(store).teamSpaces.get(teamId) ?? 0;
}

/** Active spaces a member may reach (their grants and their teams', each at its highest role), in order of the first grant. */
export function memberSpaceRoles(store: SandboxStore, orgId: string, userId: string): Map<string, MemberRole> {
  return access(store).members.get(`${orgId}/${userId}`)?.spaces ?? new Map();
}

/** Spaces and sites a member may reach through their grants and their teams' (the Member object's `spaces` and `sites`). */
export function memberGrantCounts(
  store: SandboxStore,
  orgId: string,
  userId: string,
): { spaces: number; sites: number } {
  const a = access(store).members.get(`${orgId}/${userId}`);
  return { spaces: a?.spaces.size ?? 0, sites: a?.sites ?? 0 };
}
