/**
 * A generated organization as plain data, deterministic for given sizes. The same model seeds the sandbox
 * store, writes the matching manifests and builds API-shaped lists for the no-I/O benchmark, so "desired
 * equals live" holds by construction.
 */

export interface OrgSizes {
  members: number;
  teams: number;
  /** Spread evenly over the teams (each team's members are distinct). */
  teamMemberships: number;
  translations: number;
  spaces: number;
  sites: number;
  sectionsPerSite: number;
  spacesPerSection: number;
  /** The last `sectionsPerGroup` sections of each site form one section group (0: no group). */
  sectionsPerGroup: number;
}

export const BENCH_ORG = 'org-bench';

/** The benchmark's organization (bench/results: 10,000 members); `docops sandbox --seed large` serves it. */
export const BENCH_SIZES: OrgSizes = {
  members: 10_000,
  teams: 1_000,
  teamMemberships: 20_000,
  translations: 5,
  spaces: 500,
  sites: 50,
  sectionsPerSite: 4,
  spacesPerSection: 2,
  sectionsPerGroup: 2,
};

/** `base` scaled to `members` (teams, memberships, spaces and sites in the same proportions, at least one each). */
export function scaledSizes(base: OrgSizes, members: number): OrgSizes {
  const f = members / base.members;
  const scale = (n: number): number => Math.max(1, Math.round(n * f));
  return {
    ...base,
    members,
    teams: scale(base.teams),
    teamMemberships: scale(base.teamMemberships),
    spaces: scale(base.spaces),
    sites: scale(base.sites),
  };
}

export type Role = 'admin' | 'create' | 'edit' | 'review' | 'comment' | 'read';
const ROLES: readonly Role[] = ['read', 'edit', 'comment', 'review', 'create', 'admin'];

export interface GenMember {
  userId: string;
  email: string;
  role: Role;
}
export interface GenTeam {
  id: string;
  title: string;
  /** Member indices into `members`, with the team role. */
  members: { member: number; role: 'owner' | 'member' }[];
}
export interface GenSection {
  title: string;
  path: string;
  /** Space indices into `spaces`, in order. */
  spaces: number[];
}
export interface GenSite {
  id: string;
  title: string;
  sections: GenSection[];
  /** Group title and the paths of its sections (the site's last sections). */
  group?: { title: string; sections: string[] };
}
export interface GenOrg {
  id: string;
  title: string;
  members: GenMember[];
  teams: GenTeam[];
  translations: { id: string; title: string }[];
  spaces: { id: string; title: string }[];
  sites: GenSite[];
}

export function generateOrg(sizes: OrgSizes, orgId = BENCH_ORG): GenOrg {
  if (sizes.members < 1) throw new Error('the organization needs at least one member (the admin the token belongs to)');
  const members: GenMember[] = Array.from({ length: sizes.members }, (_, i) => ({
    userId: `u-${i}`,
    email: `user${i}@bench.test`,
    // Member 0 is the token's admin; the rest cycle through the roles.
    role: i === 0 ? 'admin' : ROLES[i % ROLES.length]!,
  }));
  const teams: GenTeam[] = Array.from({ length: sizes.teams }, (_, t) => {
    const size = Math.min(
      sizes.members,
      Math.floor(sizes.teamMemberships / sizes.teams) + (t < sizes.teamMemberships % sizes.teams ? 1 : 0),
    );
    const start = (t * Math.max(1, Math.floor(sizes.teamMemberships / sizes.teams))) % sizes.members;
    return {
      id: `team-${t}`,
      title: `Team ${t}`,
      members: Array.from({ length: size }, (_, j) => ({
        member: (start + j) % sizes.members,
        role: j === 0 ? 'owner' : 'member',
      })),
    };
  });
  const spaces = Array.from({ length: sizes.spaces }, (_, i) => ({ id: `sp-${i}`, title: `Space ${i}` }));
  const perSite = sizes.sectionsPerSite * sizes.spacesPerSection;
  if (sizes.sites > 0 && (sizes.spaces < sizes.spacesPerSection || sizes.sectionsPerSite < 1))
    throw new Error('sites need sections and enough spaces');
  const sites: GenSite[] = Array.from({ length: sizes.sites }, (_, s) => {
    const sections = Array.from({ length: sizes.sectionsPerSite }, (_, k) => ({
      title: `Section ${k}`,
      path: `section-${k}`,
      spaces: Array.from(
        { length: sizes.spacesPerSection },
        (_, j) => (s * perSite + k * sizes.spacesPerSection + j) % sizes.spaces,
      ),
    }));
    const site: GenSite = { id: `site-${s}`, title: `Site ${s}`, sections };
    const grouped = Math.min(sizes.sectionsPerGroup, sizes.sectionsPerSite);
    if (grouped > 0) site.group = { title: 'Guides', sections: sections.slice(-grouped).map((x) => x.path) };
    return site;
  });
  return {
    id: orgId,
    title: 'Bench Docs',
    members,
    teams,
    translations: Array.from({ length: sizes.translations }, (_, i) => ({ id: `tr-${i}`, title: `Translation ${i}` })),
    spaces,
    sites,
  };
}

/** The manifest kind that manages each entity type of entityCounts. */
export const ENTITY_KIND: Record<string, string> = {
  organization: 'Organization',
  members: 'Members',
  teams: 'Team',
  teamMemberships: 'Team',
  translations: 'Translation',
  spaces: 'Space',
  sites: 'Site',
  sections: 'Site',
  sectionGroups: 'Site',
  siteSpaces: 'Site',
};

/** Objects and memberships the model holds, by what they are. */
export function entityCounts(org: GenOrg): Record<string, number> {
  const sections = org.sites.reduce((n, s) => n + s.sections.length, 0);
  return {
    organization: 1,
    members: org.members.length,
    teams: org.teams.length,
    teamMemberships: org.teams.reduce((n, t) => n + t.members.length, 0),
    translations: org.translations.length,
    spaces: org.spaces.length,
    sites: org.sites.length,
    sections,
    sectionGroups: org.sites.filter((s) => s.group).length,
    siteSpaces: org.sites.reduce((n, s) => n + s.sections.reduce((m, x) => m + x.spaces.length, 0), 0),
  };
}

export interface ChangeSizes {
  /** Members whose org role changes (never member 0, the token's admin). */
  roleChanges: number;
  /** Existing teams whose membership changes, each by `changesPerTeam` (1 removal, 1 role change, the rest additions). */
  teamsChanged: number;
  changesPerTeam: number;
  /** New teams (3 existing members each, no owner). */
  newTeams: number;
}

/** Number of changes (one per changed member role, team membership, or new team) a ChangeSizes makes. */
export const changeCount = (c: ChangeSizes): number => c.roleChanges + c.teamsChanged * c.changesPerTeam + c.newTeams;

/** A copy of the model with the changes applied: the desired state of the apply benchmark. */
export function withChanges(org: GenOrg, c: ChangeSizes): GenOrg {
  if (c.changesPerTeam < 2) throw new Error('changesPerTeam must be at least 2 (one removal, one role change)');
  const members = org.members.map((m, i) => (i > 0 && i <= c.roleChanges ? { ...m, role: nextRole(m.role) } : m));
  if (c.roleChanges >= org.members.length) throw new Error('more role changes than members');
  const teams = org.teams.map((t, i) =>
    i < c.teamsChanged ? changeTeam(t, c.changesPerTeam - 2, org.members.length) : t,
  );
  for (let n = 0; n < c.newTeams; n++) {
    teams.push({
      id: `new-team-${n}`,
      title: `New team ${n}`,
      members: [0, 1, 2].map((k) => ({ member: (n * 3 + k) % org.members.length, role: 'member' as const })),
    });
  }
  return { ...org, members, teams };
}

const nextRole = (r: Role): Role => (r === 'read' ? 'comment' : 'read');

function changeTeam(t: GenTeam, additions: number, memberCount: number): GenTeam {
  if (t.members.length < 3) throw new Error(`team ${t.title} is too small to change`);
  const kept = t.members
    .slice(0, -1)
    .map((m, j) => (j === 1 ? { ...m, role: m.role === 'owner' ? ('member' as const) : ('owner' as const) } : m));
  const taken = new Set(t.members.map((m) => m.member));
  for (let k = 1; kept.length < t.members.length - 1 + additions; k++) {
    if (k > memberCount) throw new Error(`not enough members to add ${additions} to ${t.title}`);
    const candidate = (t.members[t.members.length - 1]!.member + k) % memberCount;
    if (taken.has(candidate)) continue;
    taken.add(candidate);
    kept.push({ member: candidate, role: 'member' });
  }
  return { ...t, members: kept };
}
