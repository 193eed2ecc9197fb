/**
 * The seeds. `demo` builds EXACTLY the demo organization other parts of docops (example manifests,
 * benchmarks, tests) are written against; change it only together with them. `empty` holds just the
 * organization and the token's admin user. Seeded timestamps are fixed so snapshots are reproducible.
 * Only a sandbox started with a read-only token also gets its user (addReadOnlyUser), in either seed.
 */
import type { MemberRole, TeamRole } from './records.js';
import {
  collections,
  memberKey,
  members,
  orgs,
  spaces,
  teamMemberKey,
  teamMembers,
  teams,
  translations,
  users,
} from './records.js';
import type { SandboxStore } from './store.js';
import { seedContent } from './seed-content.js';

export type SeedName = 'demo' | 'empty';

export const DEMO_ORG_ID = 'org-demo';
export const TOKEN_USER_ID = 'u-ada';
/** The user of the optional read-only token (`startSandbox({ readToken })`); not seeded without one. */
export const READ_TOKEN_USER_ID = 'u-readonly';
export const READ_TOKEN_USER_EMAIL = 'readonly@acme.test';

const day = (n: number): string => new Date(Date.UTC(2024, 0, 15 + n, 9, 0, 0)).toISOString();

const DEMO_MEMBERS: [id: string, name: string, role: MemberRole, lastSeen?: number][] = [
  ['ada', 'Ada Admin', 'admin', 200],
  ['bob', 'Bob', 'edit', 190],
  ['carol', 'Carol', 'create', 180],
  ['dan', 'Dan', 'review'],
  ['erin', 'Erin', 'comment', 150],
  ['frank', 'Frank', 'read'],
  ['grace', 'Grace', 'admin', 195],
  ['heidi', 'Heidi', 'edit', 170],
  ['ivan', 'Ivan', 'read'],
  ['judy', 'Judy', 'edit', 160],
];

/** The demo members' ids (also their e-mail's local part) and roles, for tests and fixtures that mirror the seed. */
export const DEMO_MEMBER_ROLES: readonly (readonly [id: string, role: MemberRole])[] = DEMO_MEMBERS.map(
  ([id, , role]) => [id, role] as const,
);

const DEMO_TEAMS: [id: string, title: string, members: [string, TeamRole][]][] = [
  [
    'team-platform',
    'Platform',
    [
      ['ada', 'owner'],
      ['bob', 'member'],
      ['carol', 'member'],
    ],
  ],
  [
    'team-writers',
    'Writers',
    [
      ['heidi', 'owner'],
      ['judy', 'member'],
      ['erin', 'member'],
    ],
  ],
  [
    'team-support',
    'Support',
    [
      ['frank', 'member'],
      ['ivan', 'member'],
    ],
  ],
];

const DEMO_SPACES: [id: string, title: string, emoji: string, parent?: string][] = [
  ['sp-getting-started', 'Getting Started', '🚀', 'col-product'],
  ['sp-api', 'API Reference', '📘', 'col-product'],
  ['sp-runbooks', 'Runbooks', '🛠', 'col-internal'],
  ['sp-changelog', 'Changelog', '📝'],
];

export function applySeed(store: SandboxStore, seed: SeedName): void {
  store.load({ version: 1, tokenUser: TOKEN_USER_ID, counters: {}, tombstones: [], tables: {} });
  orgs(store).put({
    id: DEMO_ORG_ID,
    title: 'Acme Docs',
    createdAt: day(0),
    emailDomains: ['acme.test'],
    hostname: 'acme-docs',
    type: 'business',
    defaultRole: 'read',
    sso: false,
    ai: true,
    inviteLinks: true,
    plan: 'enterprise_2024',
  });
  const seeded = seed === 'demo' ? DEMO_MEMBERS : DEMO_MEMBERS.slice(0, 1);
  seeded.forEach(([name, displayName, role, lastSeen], i) => {
    const userId = `u-${name}`;
    users(store).put({ id: userId, displayName, email: `${name}@acme.test` });
    members(store).put({
      id: memberKey(DEMO_ORG_ID, userId),
      orgId: DEMO_ORG_ID,
      userId,
      role,
      disabled: false,
      joinedAt: day(i),
      ...(lastSeen === undefined ? {} : { lastSeenAt: day(lastSeen) }),
      sso: false,
    });
  });
  if (seed === 'empty') return;

  DEMO_TEAMS.forEach(([id, title, list], i) => {
    teams(store).put({ id, orgId: DEMO_ORG_ID, title, createdAt: day(20 + i) });
    for (const [name, role] of list) {
      const userId = `u-${name}`;
      teamMembers(store).put({ id: teamMemberKey(id, userId), orgId: DEMO_ORG_ID, teamId: id, userId, role });
    }
  });
  translations(store).put({
    id: 'tr-fr',
    orgId: DEMO_ORG_ID,
    title: 'French docs',
    languages: ['fr'],
    createdAt: day(30),
    updatedAt: day(30),
  });
  collections(store).put({ id: 'col-product', orgId: DEMO_ORG_ID, title: 'Product docs', defaultLevel: null });
  collections(store).put({ id: 'col-internal', orgId: DEMO_ORG_ID, title: 'Internal', defaultLevel: null });
  DEMO_SPACES.forEach(([id, title, emoji, parent], i) => {
    spaces(store).put({
      id,
      orgId: DEMO_ORG_ID,
      title,
      emoji,
      visibility: parent ? 'in-collection' : 'private',
      editMode: 'live',
      ...(parent ? { parent } : {}),
      defaultLevel: null,
      revision: `rev-${id}`,
      createdAt: day(40 + i),
      updatedAt: day(40 + i),
    });
  });
  seedContent(store);
}

/**
 * Give the read-only token its user: the user record and a `read` membership in every organization the store
 * holds (seeded or loaded from a state file). A membership the user already has is kept as it is — the token
 * is refused every write whatever the role says. Returns whether anything was added.
 */
export function addReadOnlyUser(store: SandboxStore): boolean {
  let added = false;
  if (!users(store).has(READ_TOKEN_USER_ID)) {
    users(store).put({ id: READ_TOKEN_USER_ID, displayName: 'Read Only', email: READ_TOKEN_USER_EMAIL });
    added = true;
  }
  for (const org of orgs(store).all()) {
    const id = memberKey(org.id, READ_TOKEN_USER_ID);
    if (members(store).has(id)) continue;
    members(store).put({
      id,
      orgId: org.id,
      userId: READ_TOKEN_USER_ID,
      role: 'read',
      disabled: false,
      joinedAt: day(0),
      sso: false,
    });
    added = true;
  }
  return added;
}
