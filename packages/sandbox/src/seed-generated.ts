/**
 * Fill a sandbox store with a generated organization (replacing everything in it). The token user is member 0.
 * Shared by the benchmark and `docops sandbox --seed large[:MEMBERS]` (the sandbox ships; the benchmark's own
 * modules stay out of it).
 */
import type { GenOrg } from './generated-org.js';
import { memberKey, members, orgs, spaces, teamMemberKey, teamMembers, teams, translations, users } from './records.js';
import { emptyAdaptiveSchema, siteSectionGroups, sites, type SiteRec } from './site-records.js';
import { addSection, addSiteSpace, createGroup } from './site-structure.js';
import type { SandboxStore } from './store.js';

const CREATED = '2024-01-15T09:00:00.000Z';

export function seedStore(store: SandboxStore, org: GenOrg): void {
  const admin = org.members[0];
  if (!admin) throw new Error('the organization has no members');
  store.load({ version: 1, tokenUser: admin.userId, counters: {}, tombstones: [], tables: {} });
  orgs(store).put({
    id: org.id,
    title: org.title,
    createdAt: CREATED,
    emailDomains: ['bench.test'],
    type: 'business',
    defaultRole: 'read',
    sso: false,
    ai: false,
    inviteLinks: false,
    plan: 'enterprise_2024',
  });
  for (const m of org.members) {
    users(store).put({ id: m.userId, displayName: m.email.split('@')[0]!, email: m.email });
    members(store).put({
      id: memberKey(org.id, m.userId),
      orgId: org.id,
      userId: m.userId,
      role: m.role,
      disabled: false,
      joinedAt: CREATED,
      sso: false,
    });
  }
  for (const t of org.teams) {
    teams(store).put({ id: t.id, orgId: org.id, title: t.title, createdAt: CREATED });
    for (const { member, role } of t.members) {
      const userId = org.members[member]!.userId;
      teamMembers(store).put({ id: teamMemberKey(t.id, userId), orgId: org.id, teamId: t.id, userId, role });
    }
  }
  for (const t of org.translations) {
    translations(store).put({
      id: t.id,
      orgId: org.id,
      title: t.title,
      languages: ['fr'],
      createdAt: CREATED,
      updatedAt: CREATED,
    });
  }
  for (const s of org.spaces) {
    spaces(store).put({
      id: s.id,
      orgId: org.id,
      title: s.title,
      emoji: '',
      visibility: 'private',
      editMode: 'live',
      defaultLevel: null,
      revision: `rev-${s.id}`,
      createdAt: CREATED,
      updatedAt: CREATED,
    });
  }
  for (const s of org.sites) seedSite(store, org, s);
}

function seedSite(store: SandboxStore, org: GenOrg, s: GenOrg['sites'][number]): void {
  const site: SiteRec = {
    id: s.id,
    orgId: org.id,
    type: 'basic',
    title: s.title,
    visibility: 'public',
    published: true,
    agentsContext: 'excluded',
    adaptiveContent: false,
    adaptiveSchema: emptyAdaptiveSchema(),
    adaptiveSchemaUpdatedAt: CREATED,
    createdAt: CREATED,
    nav: [],
    rootSpaces: [],
  };
  sites(store).put(site);
  const byPath = new Map<string, string>();
  for (const x of s.sections) {
    const [first, ...rest] = x.spaces.map((i) => org.spaces[i]!);
    if (!first) throw new Error(`section ${x.path} of ${s.title} has no space`);
    const section = addSection(store, site, { title: x.title, spaceId: first.id, spaceTitle: first.title });
    if (section.path !== x.path)
      throw new Error(`sandbox made path ${section.path} for section ${x.title}, the model says ${x.path}`);
    for (const sp of rest) addSiteSpace(store, site, sp.id, sp.title, section);
    byPath.set(x.path, section.id);
  }
  if (s.group) {
    const id = store.nextId('ssg', (x) => siteSectionGroups(store).has(x));
    createGroup(
      store,
      site,
      { id, siteId: site.id, title: s.group.title, sections: [] },
      s.group.sections.map((p) => byPath.get(p)!),
    );
  }
}
