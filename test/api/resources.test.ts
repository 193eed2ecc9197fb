import { expect, it } from 'vitest';
import type { ListEnvelope } from '../../src/model/api-client.js';
import type { OrganizationMember, OrganizationTeamMember, Site, TranslationSettings } from '../../src/api/resources.js';

// Mostly a compile-time check: plain JSON as management-api.md describes it type-checks against these types
// (string literals where @gitbook/api declares enums; fields only the package requires are optional).
it('accepts API-shaped JSON', () => {
  const member: OrganizationMember = {
    object: 'member',
    id: 'u1',
    role: 'admin',
    user: {
      object: 'user',
      id: 'u1',
      displayName: 'Ada',
      email: 'ada@example.com',
      urls: { location: 'https://api.example/v1/users/u1' },
    },
    disabled: false,
    joinedAt: '2024-01-01T00:00:00Z',
    sso: false,
    spaces: 0,
    teams: 1,
  };
  const teamMember: OrganizationTeamMember = {
    organization: member,
    team: { role: 'owner' },
    permissions: { view: true },
  };
  const translation: TranslationSettings = {
    object: 'translation-settings',
    id: 'tr1',
    title: 'French',
    languages: ['fr'],
    createdAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-01-01T00:00:00Z',
  };
  const agents: Site['agentsContext'][] = ['excluded', 'included'];
  const list: ListEnvelope<OrganizationTeamMember> = { count: 1, items: [teamMember] };

  expect(list.items[0]?.team.role).toBe('owner');
  expect(member.role === 'admin').toBe(true);
  expect(translation.languages).toEqual(['fr']);
  expect(agents).toHaveLength(2);
});
