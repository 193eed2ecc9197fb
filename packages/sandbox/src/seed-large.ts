/**
 * A large organization for benchmarks: members, teams, team memberships, spaces and sites with sections
 * and site spaces, written straight into the store's tables (no HTTP). Deterministic (same options ⇒ same
 * snapshot) and fast: the default size takes well under a second.
 *
 * It adds to the demo organization (`org-demo`); a store without it first gets the `empty` seed. Ids carry a
 * `load` marker (`u-load-1`, `team-load-1`, `sp-load-1`, `site-load-1` …) so they never collide with the
 * sandbox's own `prefix-N` ids; seeding twice into one store throws.
 */
import type { TeamRole } from './records.js';
import { memberKey, members, orgs, spaces, teamMemberKey, teamMembers, teams, users } from './records.js';
import { DEMO_ORG_ID, applySeed } from './seed.js';
import type { NavRef, SectionRec, SiteRec } from './site-records.js';
import { emptyAdaptiveSchema, siteSections, siteSpaces, sites } from './site-records.js';
import type { SandboxStore } from './store.js';

export interface LargeOrgOptions {
  /** Extra organization members (role cycles read/edit/comment/review/create). Default 10,000. */
  members?: number;
  /** Default 1,000. */
  teams?: number;
  /** Team memberships, spread evenly over the teams; at most teams × members. Default 20,000. */
  memberships?: number;
  /** Spaces the sites draw their content from. Default 500. */
  spaces?: number;
  /** Default 50. */
  sites?: number;
  /** Sections per site; 0 ⇒ root site spaces only. Default 3. */
  sectionsPerSite?: number;
  /** Site spaces per section (or at the root). Default 3. */
  spacesPerSection?: number;
}

export interface LargeOrgSummary {
  orgId: string;
  memberIds: string[];
  teamIds: string[];
  spaceIds: string[];
  siteIds: string[];
}

const STAMP = '2024-06-01T09:00:00.000Z';
const ROLES = ['read', 'edit', 'comment', 'review', 'create'] as const;

export function seedLargeOrg(store: SandboxStore, opts: LargeOrgOptions = {}): LargeOrgSummary {
  const o = {
    members: 10_000,
    teams: 1_000,
    memberships: 20_000,
    spaces: 500,
    sites: 50,
    sectionsPerSite: 3,
    spacesPerSection: 3,
    ...opts,
  };
  for (const [k, v] of Object.entries(o))
    if (!Number.isSafeInteger(v) || v < 0)
      throw new Error(`seedLargeOrg: ${k} must be a non-negative integer (got ${v})`);
  if (o.memberships > 0 && (o.teams === 0 || o.memberships > o.teams * o.members))
    throw new Error(`seedLargeOrg: ${o.memberships} memberships do not fit ${o.teams} teams × ${o.members} members`);
  if (o.sites > 0 && o.spacesPerSection + o.sectionsPerSite > 0 && o.spaces === 0)
    throw new Error('seedLargeOrg: sites need at least one space');
  if (!orgs(store).has(DEMO_ORG_ID)) applySeed(store, 'empty');
  if (users(store).has('u-load-1') || sites(store).has('site-load-1'))
    throw new Error('seedLargeOrg: this store is already seeded');

  const memberIds = seedMembers(store, o.members);
  const teamIds = seedTeams(store, memberIds, o.teams, o.memberships);
  const spaceIds = seedSpaces(store, o.spaces);
  const siteIds = Array.from({ length: o.sites }, (_, i) =>
    seedSite(store, i + 1, spaceIds, o.sectionsPerSite, o.spacesPerSection),
  );
  return { orgId: DEMO_ORG_ID, memberIds, teamIds, spaceIds, siteIds };
}

function seedMembers(store: SandboxStore, count: number): string[] {
  const ids: string[] = [];
  for (let i = 1; i <= count; i++) {
    const userId = `u-load-${i}`;
    users(store).put({ id: userId, displayName: `Load User ${i}`, email: `load${i}@acme.test` });
    members(store).put({
      id: memberKey(DEMO_ORG_ID, userId),
      orgId: DEMO_ORG_ID,
      userId,
      role: ROLES[i % ROLES.length] ?? 'read',
      disabled: false,
      joinedAt: STAMP,
      sso: false,
    });
    ids.push(userId);
  }
  return ids;
}

/** Membership k goes to team k mod T; within a team the members are consecutive from a per-team offset. */
function seedTeams(store: SandboxStore, memberIds: string[], count: number, memberships: number): string[] {
  const ids = Array.from({ length: count }, (_, i) => `team-load-${i + 1}`);
  ids.forEach((id, i) => teams(store).put({ id, orgId: DEMO_ORG_ID, title: `Load Team ${i + 1}`, createdAt: STAMP }));
  for (let k = 0; k < memberships; k++) {
    const t = k % count;
    const nth = Math.floor(k / count);
    const userId = memberIds[(t * 13 + nth) % memberIds.length] as string;
    const teamId = ids[t] as string;
    const role: TeamRole = nth === 0 ? 'owner' : 'member';
    teamMembers(store).put({ id: teamMemberKey(teamId, userId), orgId: DEMO_ORG_ID, teamId, userId, role });
  }
  return ids;
}

function seedSpaces(store: SandboxStore, count: number): string[] {
  const ids: string[] = [];
  for (let i = 1; i <= count; i++) {
    const id = `sp-load-${i}`;
    spaces(store).put({
      id,
      orgId: DEMO_ORG_ID,
      title: `Load Space ${i}`,
      emoji: '',
      visibility: 'private',
      editMode: 'live',
      defaultLevel: null,
      revision: `rev-${id}`,
      createdAt: STAMP,
      updatedAt: STAMP,
    });
    ids.push(id);
  }
  return ids;
}

/** One site, obeying the navigation invariants: the first section is the default, each section's first site space too. */
function seedSite(
  store: SandboxStore,
  n: number,
  spaceIds: string[],
  sectionCount: number,
  perSection: number,
): string {
  const id = `site-load-${n}`;
  let spaceCursor = (n - 1) * Math.max(1, sectionCount) * perSection;
  const makeSiteSpaces = (section: string | undefined, prefix: string): string[] =>
    Array.from({ length: perSection }, (_, j) => {
      const ssId = `${prefix}-ss-${j + 1}`;
      const spaceId = spaceIds[spaceCursor++ % spaceIds.length] as string;
      siteSpaces(store).put({ id: ssId, siteId: id, spaceId, path: `space-${j + 1}`, ...(section ? { section } : {}) });
      return ssId;
    });
  const nav: NavRef[] = [];
  for (let s = 1; s <= sectionCount; s++) {
    const sectionId = `${id}-sec-${s}`;
    const ss = makeSiteSpaces(sectionId, sectionId);
    const section: SectionRec = {
      id: sectionId,
      siteId: id,
      title: `Section ${s}`,
      path: `section-${s}`,
      siteSpaces: ss,
      defaultSiteSpace: ss[0] ?? '',
    };
    if (ss.length === 0)
      throw new Error('seedLargeOrg: a section needs at least one site space (spacesPerSection ≥ 1)');
    siteSections(store).put(section);
    nav.push({ type: 'section', id: sectionId });
  }
  const rootSpaces = sectionCount === 0 ? makeSiteSpaces(undefined, id) : [];
  const site: SiteRec = {
    id,
    orgId: DEMO_ORG_ID,
    type: 'basic',
    title: `Load Site ${n}`,
    visibility: 'public',
    published: n % 2 === 0,
    agentsContext: 'excluded',
    adaptiveContent: false,
    adaptiveSchema: emptyAdaptiveSchema(),
    adaptiveSchemaUpdatedAt: STAMP,
    createdAt: STAMP,
    nav,
    rootSpaces,
    ...(rootSpaces[0] !== undefined ? { defaultRootSpace: rootSpaces[0] } : {}),
    ...(nav[0] !== undefined ? { defaultSection: nav[0].id } : {}),
  };
  sites(store).put(site);
  return id;
}
