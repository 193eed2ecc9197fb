/**
 * The sandbox demo seed (org-demo) as API responses, in the shapes the sandbox serves: list bodies are the
 * items (the fake FetchContext stands in for the memoised, paginated list).
 */
import { DEMO_MEMBER_ROLES } from '../../packages/sandbox/src/seed.js';

export const ORG = 'org-demo';

const ROLES = DEMO_MEMBER_ROLES;

export function member(name: string, role: string | null, sso = false): Record<string, unknown> {
  return {
    object: 'member',
    id: `u-${name}`,
    role,
    user: { object: 'user', id: `u-${name}`, displayName: name, email: `${name}@acme.test` },
    disabled: false,
    sso,
    spaces: 0,
    teams: 0,
  };
}

export const seedMembers = (): Record<string, unknown>[] => ROLES.map(([n, r]) => member(n, r));

const teamMember = (name: string, role: 'owner' | 'member' = 'member'): Record<string, unknown> => {
  const m = member(name, ROLES.find(([n]) => n === name)?.[1] ?? 'read');
  return { organization: m, team: { role }, permissions: { view: true } };
};

export function seedRoutes(): Record<string, unknown> {
  const base = `/orgs/${ORG}`;
  return {
    [base]: {
      object: 'organization',
      id: ORG,
      title: 'Acme Docs',
      emailDomains: ['acme.test'],
      hostname: 'acme-docs',
      type: 'business',
      defaultRole: 'read',
      inviteLinks: true,
      sso: false,
      ai: true,
      urls: { location: `https://api.test/v1${base}`, app: 'https://app.test/o/org-demo' },
    },
    [`${base}/members`]: seedMembers(),
    [`${base}/teams`]: [
      { object: 'team', id: 'team-platform', title: 'Platform', members: 3 },
      { object: 'team', id: 'team-writers', title: 'Writers', members: 3 },
      { object: 'team', id: 'team-support', title: 'Support', members: 2 },
    ],
    [`${base}/teams/team-platform/members`]: [teamMember('ada', 'owner'), teamMember('bob'), teamMember('carol')],
    [`${base}/teams/team-writers/members`]: [teamMember('heidi', 'owner'), teamMember('judy'), teamMember('erin')],
    [`${base}/teams/team-support/members`]: [teamMember('frank'), teamMember('ivan')],
    [`${base}/translations`]: [
      { object: 'translation-settings', id: 'tr-fr', title: 'French docs', languages: ['fr'] },
    ],
    // The demo seed has no site and no SAML provider.
    [`${base}/sites`]: [],
    [`${base}/saml`]: [],
  };
}
