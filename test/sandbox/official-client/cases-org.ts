/** Organizations, users, members, invites, teams, team members and translations, through the official client. */
import { expect } from 'vitest';
import { ORG, expectStatus, statusOf } from './harness.js';
import type { Case } from './cases.js';

export const ORG_CASES: Case[] = [
  {
    name: 'listOrganizationsForAuthenticatedUser: limit',
    run: async ({ api }) => {
      const list = await expectStatus(api.orgs.listOrganizationsForAuthenticatedUser({ limit: 1 }), 200);
      expect(list.items.map((o) => o.id)).toEqual([ORG]);
    },
  },
  {
    name: 'getOrganizationById',
    run: async ({ api }) =>
      expect((await expectStatus(api.orgs.getOrganizationById(ORG), 200)).title).toBe('Acme Docs'),
  },
  {
    name: 'updateOrganizationById: every field, mergeRules with rules',
    run: async ({ api }) => {
      const mergeRules = {
        type: 'rules' as const,
        rules: [
          { rule: 'require_at_least_one_review' as const },
          { rule: 'require_specific_reviewers' as const, users: ['u-bob'] },
        ],
      };
      await expectStatus(
        api.orgs.updateOrganizationById(ORG, {
          title: 'Acme Handbook',
          emailDomains: ['acme.test', 'acme.example'],
          hostname: 'acme-handbook',
          defaultRole: null,
          defaultContent: null,
          logo: 'https://cdn.acme.test/logo.png',
          sso: true,
          ai: false,
          inviteLinks: false,
          mergeRules,
        }),
        200,
      );
      const org = await expectStatus(api.orgs.getOrganizationById(ORG), 200);
      expect(org).toMatchObject({
        title: 'Acme Handbook',
        hostname: 'acme-handbook',
        defaultRole: null,
        sso: true,
        ai: false,
        inviteLinks: false,
        mergeRules,
      });
      expect(org.urls.logo).toBe('https://cdn.acme.test/logo.png');
    },
  },
  {
    name: 'updateOrganizationById: mergeRules none after rules',
    run: async ({ api }) => {
      await expectStatus(
        api.orgs.updateOrganizationById(ORG, {
          mergeRules: { type: 'rules', rules: [{ rule: 'require_author_to_merge' }] },
        }),
        200,
      );
      await expectStatus(api.orgs.updateOrganizationById(ORG, { mergeRules: { type: 'none' } }), 200);
      expect((await expectStatus(api.orgs.getOrganizationById(ORG), 200)).mergeRules).toEqual({ type: 'none' });
    },
  },
  {
    name: 'getAuthenticatedUser',
    run: async ({ api }) => expect((await expectStatus(api.user.getAuthenticatedUser(), 200)).id).toBe('u-ada'),
  },
  {
    name: 'getUserById',
    run: async ({ api }) => expect((await expectStatus(api.users.getUserById('u-bob'), 200)).displayName).toBe('Bob'),
  },
  {
    name: 'listMembersInOrganizationById: role guest, search, sort name, order asc',
    run: async ({ api }) => {
      await expectStatus(api.orgs.updateMemberInOrganizationById(ORG, 'u-ivan', { role: null }), 200);
      const guests = await expectStatus(api.orgs.listMembersInOrganizationById(ORG, { role: 'guest' }), 200);
      expect(guests.items.map((m) => m.id)).toEqual(['u-ivan']);
      const named = await expectStatus(
        api.orgs.listMembersInOrganizationById(ORG, { search: 'an', sort: 'name', order: 'asc', limit: 3 }),
        200,
      );
      expect(named.items.map((m) => m.user.displayName)).toEqual(['Dan', 'Frank', 'Ivan']);
    },
  },
  {
    name: 'getMemberInOrganizationById',
    run: async ({ api }) =>
      expect((await expectStatus(api.orgs.getMemberInOrganizationById(ORG, 'u-bob'), 200)).role).toBe('edit'),
  },
  {
    name: 'updateMemberInOrganizationById: role',
    run: async ({ api }) => {
      await expectStatus(api.orgs.updateMemberInOrganizationById(ORG, 'u-bob', { role: 'review' }), 200);
      expect((await expectStatus(api.orgs.getMemberInOrganizationById(ORG, 'u-bob'), 200)).role).toBe('review');
    },
  },
  {
    name: 'removeMemberFromOrganizationById',
    run: async ({ api }) => {
      expect(await statusOf(api.orgs.removeMemberFromOrganizationById(ORG, 'u-frank'))).toBe(205);
      expect(await statusOf(api.orgs.getMemberInOrganizationById(ORG, 'u-frank'))).toBe(404);
    },
  },
  {
    name: 'setUserAsSSOMemberForOrganization',
    run: async ({ api }) => {
      await expectStatus(api.orgs.setUserAsSsoMemberForOrganization(ORG, 'u-bob'), 200);
      expect((await expectStatus(api.orgs.getMemberInOrganizationById(ORG, 'u-bob'), 200)).sso).toBe(true);
    },
  },
  {
    name: 'listTeamsForOrganizationMember: title',
    run: async ({ api }) => {
      const list = await expectStatus(api.orgs.listTeamsForOrganizationMember(ORG, 'u-ada', { title: 'PLAT' }), 200);
      expect(list.items.map((x) => [x.team.id, x.member.role])).toEqual([['team-platform', 'owner']]);
    },
  },
  {
    name: 'listSpacesForOrganizationMember: order asc',
    run: async ({ api }) => {
      await api.spaces.inviteToSpace('sp-api', { role: 'edit', users: ['u-bob'] });
      await api.spaces.inviteToSpace('sp-runbooks', { role: 'read', users: ['u-bob'] });
      const list = await expectStatus(api.orgs.listSpacesForOrganizationMember(ORG, 'u-bob', { order: 'asc' }), 200);
      expect(list.items.map((x) => [x.space.id, x.permission])).toEqual([
        ['sp-api', 'edit'],
        ['sp-runbooks', 'read'],
      ]);
    },
  },
  {
    name: 'listSpacesForOrganizationMember: grants through teams, at the highest role',
    run: async ({ api }) => {
      await api.spaces.inviteToSpace('sp-api', { role: 'read', users: ['u-judy'] });
      await api.spaces.inviteToSpace('sp-api', { role: 'edit', teams: ['team-writers'] });
      await api.spaces.inviteToSpace('sp-runbooks', { role: 'comment', teams: ['team-writers'] });
      const list = await expectStatus(api.orgs.listSpacesForOrganizationMember(ORG, 'u-judy', { order: 'asc' }), 200);
      expect(list.items.map((x) => [x.space.id, x.permission])).toEqual([
        ['sp-api', 'edit'],
        ['sp-runbooks', 'comment'],
      ]);
      expect((await expectStatus(api.orgs.getMemberInOrganizationById(ORG, 'u-judy'), 200)).spaces).toBe(2);
    },
  },
  {
    name: 'inviteUsersToOrganization: per-address role, default role, sso',
    run: async ({ api }) => {
      const res = await expectStatus(
        api.orgs.inviteUsersToOrganization(ORG, {
          emails: ['new.one@acme.test', { email: 'boss@acme.test', role: 'admin' }],
          role: 'comment',
          sso: true,
        }),
        200,
      );
      expect(res.invited).toBe(2);
      const members = await expectStatus(
        api.orgs.listMembersInOrganizationById(ORG, { search: 'acme.test', limit: 100 }),
        200,
      );
      const byEmail = new Map(members.items.map((m) => [m.user.email, m]));
      expect(byEmail.get('new.one@acme.test')).toMatchObject({ role: 'comment', sso: true });
      expect(byEmail.get('boss@acme.test')).toMatchObject({ role: 'admin', sso: true });
    },
  },
  {
    name: 'listTeamsInOrganizationById: owner, title',
    run: async ({ api }) => {
      const list = await expectStatus(
        api.orgs.listTeamsInOrganizationById(ORG, { owner: 'u-heidi', title: 'writ' }),
        200,
      );
      expect(list.items.map((t) => t.id)).toEqual(['team-writers']);
    },
  },
  {
    name: 'createOrganizationTeam: members',
    run: async ({ api }) => {
      const team = await expectStatus(
        api.orgs.createOrganizationTeam(ORG, { title: 'Docs', members: ['u-bob', 'u-carol'] }),
        201,
      );
      expect((await expectStatus(api.orgs.getTeamInOrganizationById(ORG, team.id), 200)).members).toBe(2);
    },
  },
  {
    name: 'getTeamInOrganizationById',
    run: async ({ api }) =>
      expect((await expectStatus(api.orgs.getTeamInOrganizationById(ORG, 'team-support'), 200)).title).toBe('Support'),
  },
  {
    name: 'updateTeamInOrganizationById',
    run: async ({ api }) => {
      await expectStatus(
        api.orgs.updateTeamInOrganizationById(ORG, 'team-support', { title: 'Customer support' }),
        200,
      );
      expect((await expectStatus(api.orgs.getTeamInOrganizationById(ORG, 'team-support'), 200)).title).toBe(
        'Customer support',
      );
    },
  },
  {
    name: 'removeTeamFromOrganizationById',
    run: async ({ api }) => {
      expect(await statusOf(api.orgs.removeTeamFromOrganizationById(ORG, 'team-support'))).toBe(205);
      expect(await statusOf(api.orgs.getTeamInOrganizationById(ORG, 'team-support'))).toBe(404);
    },
  },
  {
    name: 'listTeamMembersInOrganizationById: limit',
    run: async ({ api }) => {
      const list = await expectStatus(
        api.orgs.listTeamMembersInOrganizationById(ORG, 'team-platform', { limit: 2 }),
        200,
      );
      expect(list.items).toHaveLength(2);
      expect(list.next?.page).toBeTypeOf('string');
    },
  },
  {
    name: 'updateMembersInOrganizationTeam: add by e-mail, remove, memberships',
    run: async ({ api }) => {
      expect(
        await statusOf(
          api.orgs.updateMembersInOrganizationTeam(ORG, 'team-support', {
            add: ['dan@acme.test'],
            remove: ['u-ivan'],
            memberships: { 'u-frank': { role: 'owner' } },
          }),
        ),
      ).toBe(204);
      const list = await expectStatus(api.orgs.listTeamMembersInOrganizationById(ORG, 'team-support'), 200);
      expect(Object.fromEntries(list.items.map((x) => [x.organization.id, x.team.role]))).toEqual({
        'u-frank': 'owner',
        'u-dan': 'member',
      });
    },
  },
  {
    name: 'addMemberToOrganizationTeamById: with and without role',
    run: async ({ api }) => {
      expect(await statusOf(api.orgs.addMemberToOrganizationTeamById(ORG, 'team-support', 'u-dan', {}))).toBe(204);
      expect(
        await statusOf(api.orgs.addMemberToOrganizationTeamById(ORG, 'team-support', 'u-erin', { role: 'owner' })),
      ).toBe(204);
      const list = await expectStatus(api.orgs.listTeamMembersInOrganizationById(ORG, 'team-support'), 200);
      expect(Object.fromEntries(list.items.map((x) => [x.organization.id, x.team.role]))).toMatchObject({
        'u-dan': 'member',
        'u-erin': 'owner',
      });
    },
  },
  {
    name: 'deleteMemberFromOrganizationTeamById',
    run: async ({ api }) => {
      expect(await statusOf(api.orgs.deleteMemberFromOrganizationTeamById(ORG, 'team-support', 'u-ivan'))).toBe(205);
      const list = await expectStatus(api.orgs.listTeamMembersInOrganizationById(ORG, 'team-support'), 200);
      expect(list.items.map((x) => x.organization.id)).toEqual(['u-frank']);
    },
  },
  {
    name: 'listOrganizationAuditEvents: limit, from, actor, target',
    run: async ({ api }) => {
      const from = new Date(Date.now() - 60_000).toISOString();
      await expectStatus(api.orgs.updateTeamInOrganizationById(ORG, 'team-support', { title: 'Helpdesk' }), 200);
      await expectStatus(api.orgs.updateTeamInOrganizationById(ORG, 'team-writers', { title: 'Authors' }), 200);
      const list = await expectStatus(
        api.orgs.listOrganizationAuditEvents(ORG, { limit: 5, from, actor: 'u-ada', target: 'team-support' }),
        200,
      );
      expect(list.items.map((e) => e.target.id)).toEqual(['team-support']);
    },
  },
  // Translations: management-api.md's "translation settings" replace the spec's Translation (NORMATIVE in cases.ts).
  { name: 'listTranslations', run: async ({ api }) => void (await expectStatus(api.orgs.listTranslations(ORG), 200)) },
  {
    name: 'getTranslation',
    run: async ({ api }) => void (await expectStatus(api.orgs.getTranslation(ORG, 'tr-fr'), 200)),
  },
  {
    name: 'createTranslation',
    run: async ({ api }) =>
      void (await expectStatus(
        api.orgs.createTranslation(ORG, { source: { space: 'sp-api', language: 'en' }, language: 'fr' }),
        201,
      )),
  },
  {
    name: 'updateTranslation',
    run: async ({ api }) =>
      void (await expectStatus(
        api.orgs.updateTranslation(ORG, 'tr-fr', { instructions: { object: 'document', data: {}, nodes: [] } }),
        200,
      )),
  },
  {
    name: 'deleteTranslation',
    run: async ({ api }) => {
      expect(await statusOf(api.orgs.deleteTranslation(ORG, 'tr-fr'))).toBe(205);
      expect(await statusOf(api.orgs.getTranslation(ORG, 'tr-fr'))).toBe(404);
    },
  },
];
