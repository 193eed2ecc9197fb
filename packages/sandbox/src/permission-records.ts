/**
 * Content permissions: which team or organization member holds which role on a space, a collection or a
 * site (the official spec's `…/permissions` operations). One row per (target, principal); rows are plain JSON
 * like every other table, so they persist in the state file.
 *
 * The cascades live here too (`dropGrantsOn`, `dropGrantsOfTeam`, `dropGrantsOfMember`): the routes that delete
 * a target or a principal call them, so a grant never outlives what it names.
 */
import type { MemberRole } from './records.js';
import { spaces } from './records.js';
import type { SandboxStore, Table } from './store.js';

export const GRANT_TARGETS = ['space', 'collection', 'site'] as const;
export type GrantTarget = (typeof GRANT_TARGETS)[number];
export type GrantPrincipal = 'team' | 'user';

/** id = grantKey(…). `role` is null only on sites (an override that takes access away). */
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

export const grantKey = (targetType: GrantTarget, targetId: string, principalType: GrantPrincipal, principalId: string): string =>
  `${targetType}:${targetId}/${principalType}:${principalId}`;

/** The grants on one target held by one kind of principal, in insertion order. */
export function grantsOn(store: SandboxStore, targetType: GrantTarget, targetId: string, principalType: GrantPrincipal): GrantRec[] {
  return grants(store).where((g) => g.targetType === targetType && g.targetId === targetId && g.principalType === principalType);
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

/**
 * Counts per principal, rebuilt only when the grants or spaces table changed: presenting every member or team
 * of a large list must not scan all grants each time (see team-index.ts for the same reasoning).
 */
interface Counts {
  /** `team:<id>` / `user:<orgId>/<id>` → active spaces granted directly. */
  spaces: Map<string, number>;
  /** `user:<orgId>/<id>` → sites granted directly with a role (a null override gives no access). */
  sites: Map<string, number>;
}

const countCache = new WeakMap<Table<GrantRec>, { grants: number; spaces: number; value: Counts }>();

const principalKey = (g: Pick<GrantRec, 'orgId' | 'principalType' | 'principalId'>): string =>
  g.principalType === 'team' ? `team:${g.principalId}` : `user:${g.orgId}/${g.principalId}`;

function counts(store: SandboxStore): Counts {
  const table = grants(store);
  const spaceTable = spaces(store);
  const known = countCache.get(table);
  if (known && known.grants === table.version && known.spaces === spaceTable.version) return known.value;
  const value: Counts = { spaces: new Map(), sites: new Map() };
  const bump = (m: Map<string, number>, k: string): void => void m.set(k, (m.get(k) ?? 0) + 1);
  for (const g of table.all()) {
    if (g.targetType === 'space') {
      const space = spaceTable.get(g.targetId);
      if (space && space.deletedAt === undefined) bump(value.spaces, principalKey(g));
    } else if (g.targetType === 'site' && g.role !== null) bump(value.sites, principalKey(g));
  }
  countCache.set(table, { grants: table.version, spaces: spaceTable.version, value });
  return value;
}

/** Active spaces a team holds a direct grant on (the Team object's `spaces`). */
export function teamSpaceCount(store: SandboxStore, teamId: string): number {
  return counts(store).spaces.get(`team:${teamId}`) ?? 0;
}

/** Active spaces and sites a member holds a direct grant on (the Member object's `spaces` and `sites`). */
export function memberGrantCounts(store: SandboxStore, orgId: string, userId: string): { spaces: number; sites: number } {
  const key = principalKey({ orgId, principalType: 'user', principalId: userId });
  const c = counts(store);
  return { spaces: c.spaces.get(key) ?? 0, sites: c.sites.get(key) ?? 0 };
}
