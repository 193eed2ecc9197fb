/** Collections, spaces and content permissions (spaces, collections, sites), through the official client. */
import { expect } from 'vitest';
import { ORG, expectStatus, statusOf, type Env } from './harness.js';
import type { Case } from './cases.js';
import { newSite } from './site-fixture.js';

const spaceIdsIn = async ({ api }: Env, collectionId: string): Promise<string[]> =>
  (await expectStatus(api.collections.listSpacesInCollectionById(collectionId), 200)).items.map((s) => s.id);

export const CONTENT_CASES: Case[] = [
  {
    name: 'listCollectionsInOrganizationById: nested false',
    run: async ({ api }) => {
      const nested = await expectStatus(
        api.orgs.createCollection(ORG, { title: 'Nested', parent: 'col-product' }),
        201,
      );
      const top = await expectStatus(api.orgs.listCollectionsInOrganizationById(ORG, { nested: false }), 200);
      expect(top.items.map((c) => c.id)).toEqual(['col-product', 'col-internal']);
      const all = await expectStatus(api.orgs.listCollectionsInOrganizationById(ORG, { nested: true }), 200);
      expect(all.items.map((c) => c.id)).toContain(nested.id);
    },
  },
  {
    name: 'createCollection: title, parent',
    run: async ({ api }) => {
      const c = await expectStatus(api.orgs.createCollection(ORG, { title: 'Guides', parent: 'col-product' }), 201);
      expect(await expectStatus(api.collections.getCollectionById(c.id), 200)).toMatchObject({
        title: 'Guides',
        parent: 'col-product',
      });
    },
  },
  {
    name: 'getCollectionById',
    run: async ({ api }) =>
      expect((await expectStatus(api.collections.getCollectionById('col-product'), 200)).title).toBe('Product docs'),
  },
  {
    name: 'updateCollectionById: title, defaultLevel inherit',
    run: async ({ api }) => {
      await expectStatus(
        api.collections.updateCollectionById('col-product', { title: 'Product', defaultLevel: 'inherit' }),
        200,
      );
      expect(await expectStatus(api.collections.getCollectionById('col-product'), 200)).toMatchObject({
        title: 'Product',
        defaultLevel: 'inherit',
      });
      await expectStatus(api.collections.updateCollectionById('col-product', { defaultLevel: null }), 200);
      expect((await expectStatus(api.collections.getCollectionById('col-product'), 200)).defaultLevel).toBeNull();
    },
  },
  {
    name: 'deleteCollectionById',
    run: async ({ api }) => {
      expect(await statusOf(api.collections.deleteCollectionById('col-internal'))).toBe(205);
      expect(await statusOf(api.collections.getCollectionById('col-internal'))).toBe(404);
    },
  },
  {
    name: 'listSpacesInCollectionById: limit',
    run: async ({ api }) =>
      expect(
        (await expectStatus(api.collections.listSpacesInCollectionById('col-product', { limit: 1 }), 200)).items,
      ).toHaveLength(1),
  },
  {
    name: 'moveCollection: before a collection pointer',
    run: async (env) => {
      const { api } = env;
      const a = await expectStatus(api.orgs.createCollection(ORG, { title: 'A', parent: 'col-product' }), 201);
      await expectStatus(
        api.collections.moveCollection(a.id, { position: { before: { type: 'space', space: 'sp-getting-started' } } }),
        200,
      );
      // The spaces of col-product around the nested collection: the order shows through the space pointers.
      await expectStatus(
        api.spaces.moveSpace('sp-api', { position: { before: { type: 'collection', collection: a.id } } }),
        200,
      );
      expect(await spaceIdsIn(env, 'col-product')).toEqual(['sp-api', 'sp-getting-started']);
    },
  },
  {
    name: 'moveCollection: parent without position goes to the end, parent null to the top level',
    run: async ({ api }) => {
      await expectStatus(api.collections.moveCollection('col-internal', { parent: 'col-product' }), 200);
      expect((await expectStatus(api.collections.getCollectionById('col-internal'), 200)).parent).toBe('col-product');
      await expectStatus(api.collections.moveCollection('col-internal', { parent: null }), 200);
      expect((await expectStatus(api.collections.getCollectionById('col-internal'), 200)).parent).toBeUndefined();
    },
  },
  {
    name: "transferCollection: to its own organization is the spec's 409",
    run: async ({ api }) => {
      expect(await statusOf(api.collections.transferCollection('col-internal', { organization: ORG }))).toBe(409);
      expect((await expectStatus(api.collections.getCollectionById('col-internal'), 200)).organization).toBe(ORG);
    },
  },
  {
    name: 'listSpacesInOrganizationById: limit and next page',
    run: async ({ api }) => {
      const first = await expectStatus(api.orgs.listSpacesInOrganizationById(ORG, { limit: 3 }), 200);
      const rest = await expectStatus(
        api.orgs.listSpacesInOrganizationById(ORG, { limit: 3, page: first.next?.page ?? '' }),
        200,
      );
      expect([...first.items, ...rest.items].map((s) => s.id)).toEqual([
        'sp-getting-started',
        'sp-api',
        'sp-runbooks',
        'sp-changelog',
      ]);
    },
  },
  {
    name: 'createSpace: title, emoji, parent, language, editMode',
    run: async ({ api }) => {
      const s = await expectStatus(
        api.orgs.createSpace(ORG, {
          title: 'Guide FR',
          emoji: '🇫🇷',
          parent: 'col-product',
          language: 'fr',
          editMode: 'locked',
        }),
        201,
      );
      expect(await expectStatus(api.spaces.getSpaceById(s.id), 200)).toMatchObject({
        title: 'Guide FR',
        emoji: '🇫🇷',
        parent: 'col-product',
        language: 'fr',
        editMode: 'locked',
      });
    },
  },
  {
    name: 'createSpace: empty, template',
    run: async ({ api }) => {
      const empty = await expectStatus(api.orgs.createSpace(ORG, { title: 'Blank', empty: true }), 201);
      const templated = await expectStatus(
        api.orgs.createSpace(ORG, { title: 'From template', template: { id: 'tmpl-api' } }),
        201,
      );
      expect((await expectStatus(api.spaces.getSpaceById(empty.id), 200)).title).toBe('Blank');
      expect((await expectStatus(api.spaces.getSpaceById(templated.id), 200)).title).toBe('From template');
    },
  },
  {
    name: 'getSpaceById: shareKey',
    run: async ({ api }) =>
      expect((await expectStatus(api.spaces.getSpaceById('sp-api', { shareKey: 'k' }), 200)).id).toBe('sp-api'),
  },
  {
    name: 'updateSpaceById: icon, language, mergeRules, defaultLevel inherit',
    run: async ({ api }) => {
      const mergeRules = { type: 'rules' as const, rules: [{ rule: 'require_at_least_one_review' as const }] };
      await expectStatus(
        api.spaces.updateSpaceById('sp-api', {
          icon: 'https://cdn.acme.test/api.png',
          language: 'de',
          mergeRules,
          defaultLevel: 'inherit',
        }),
        200,
      );
      const s = await expectStatus(api.spaces.getSpaceById('sp-api'), 200);
      expect(s).toMatchObject({ language: 'de', mergeRules, defaultLevel: 'inherit' });
      expect(s.urls.icon).toBe('https://cdn.acme.test/api.png');
    },
  },
  {
    name: 'updateSpaceById: emoji null and icon null clear both',
    run: async ({ api }) => {
      await expectStatus(api.spaces.updateSpaceById('sp-api', { icon: 'https://cdn.acme.test/api.png' }), 200);
      await expectStatus(api.spaces.updateSpaceById('sp-api', { emoji: null, icon: null }), 200);
      const s = await expectStatus(api.spaces.getSpaceById('sp-api'), 200);
      expect(s.emoji).toBe('');
      expect(s.urls.icon).toBeUndefined();
    },
  },
  {
    name: 'updateSpaceById: emoji, title, editMode',
    run: async ({ api }) => {
      await expectStatus(
        api.spaces.updateSpaceById('sp-api', { emoji: '📗', title: 'API', editMode: 'locked', defaultLevel: 'read' }),
        200,
      );
      expect(await expectStatus(api.spaces.getSpaceById('sp-api'), 200)).toMatchObject({
        emoji: '📗',
        title: 'API',
        editMode: 'locked',
        defaultLevel: 'read',
      });
    },
  },
  {
    name: 'deleteSpaceById',
    run: async ({ api }) => {
      expect(await statusOf(api.spaces.deleteSpaceById('sp-changelog'))).toBe(205);
      expect((await expectStatus(api.spaces.getSpaceById('sp-changelog'), 200)).deletedAt).toBeTypeOf('string');
    },
  },
  {
    name: 'restoreSpace',
    run: async ({ api }) => {
      await api.spaces.deleteSpaceById('sp-changelog');
      await expectStatus(api.spaces.restoreSpace('sp-changelog'), 200);
      expect((await expectStatus(api.spaces.getSpaceById('sp-changelog'), 200)).deletedAt).toBeUndefined();
    },
  },
  {
    name: 'moveSpace: after a collection pointer',
    run: async (env) => {
      const { api } = env;
      const inner = await expectStatus(api.orgs.createCollection(ORG, { title: 'Inner', parent: 'col-product' }), 201);
      await expectStatus(
        api.spaces.moveSpace('sp-getting-started', {
          position: { after: { type: 'collection', collection: inner.id } },
        }),
        200,
      );
      await expectStatus(
        api.spaces.moveSpace('sp-api', { position: { before: { type: 'collection', collection: inner.id } } }),
        200,
      );
      expect(await spaceIdsIn(env, 'col-product')).toEqual(['sp-api', 'sp-getting-started']);
    },
  },
  {
    name: 'moveSpace: parent without position goes to the end',
    run: async (env) => {
      await expectStatus(env.api.spaces.moveSpace('sp-changelog', { parent: 'col-product' }), 200);
      expect(await spaceIdsIn(env, 'col-product')).toEqual(['sp-getting-started', 'sp-api', 'sp-changelog']);
    },
  },
  // Content permissions: spaces.
  {
    name: 'inviteToSpace: teams and users',
    run: async ({ api }) => {
      expect(await statusOf(api.spaces.inviteToSpace('sp-api', { role: 'edit', teams: ['team-writers'] }))).toBe(204);
      expect(await statusOf(api.spaces.inviteToSpace('sp-api', { role: 'read', users: ['u-bob'] }))).toBe(204);
      expect(
        (await expectStatus(api.spaces.listTeamPermissionsInSpace('sp-api'), 200)).items.map((x) => [
          x.team.id,
          x.permission,
        ]),
      ).toEqual([['team-writers', 'edit']]);
      expect(
        (await expectStatus(api.spaces.listUserPermissionsInSpace('sp-api'), 200)).items.map((x) => [
          x.user.id,
          x.permission,
        ]),
      ).toEqual([['u-bob', 'read']]);
    },
  },
  {
    name: 'inviteToSpace: role null takes the access of teams and users away',
    run: async ({ api }) => {
      expect(
        await statusOf(api.spaces.inviteToSpace('sp-api', { role: 'edit', teams: ['team-writers'], users: ['u-bob'] })),
      ).toBe(204);
      expect(
        await statusOf(api.spaces.inviteToSpace('sp-api', { role: null, teams: ['team-writers'], users: ['u-bob'] })),
      ).toBe(204);
      expect((await expectStatus(api.spaces.listTeamPermissionsInSpace('sp-api'), 200)).items).toEqual([]);
      expect((await expectStatus(api.spaces.listUserPermissionsInSpace('sp-api'), 200)).items).toEqual([]);
    },
  },
  {
    name: 'inviteToCollection: role null',
    run: async ({ api }) => {
      expect(
        await statusOf(api.collections.inviteToCollection('col-product', { role: 'read', users: ['u-erin', 'u-bob'] })),
      ).toBe(204);
      expect(await statusOf(api.collections.inviteToCollection('col-product', { role: null, users: ['u-erin'] }))).toBe(
        204,
      );
      expect(
        (await expectStatus(api.collections.listUserPermissionsInCollection('col-product'), 200)).items.map(
          (x) => x.user.id,
        ),
      ).toEqual(['u-bob']);
    },
  },
  ...nullPatchCases(),
  ...permissionCases('Space', 'sp-api'),
  ...permissionCases('Collection', 'col-product'),
  {
    name: 'inviteToCollection: users',
    run: async ({ api }) => {
      expect(
        await statusOf(api.collections.inviteToCollection('col-product', { role: 'comment', users: ['u-erin'] })),
      ).toBe(204);
      expect(
        (await expectStatus(api.collections.listUserPermissionsInCollection('col-product'), 200)).items.map(
          (x) => x.user.id,
        ),
      ).toEqual(['u-erin']);
    },
  },
  ...sitePermissionCases(),
];

/** List / update / remove grants of teams and users on a space or a collection. */
function permissionCases(kind: 'Space' | 'Collection', id: string): Case[] {
  const s = kind === 'Space';
  const grant = async (env: Env): Promise<void> => {
    const invite = (body: { role: 'edit'; teams: string[] } | { role: 'edit'; users: string[] }) =>
      s ? env.api.spaces.inviteToSpace(id, body) : env.api.collections.inviteToCollection(id, body);
    expect(await statusOf(invite({ role: 'edit', teams: ['team-writers'] }))).toBe(204);
    expect(await statusOf(invite({ role: 'edit', users: ['u-bob'] }))).toBe(204);
  };
  const teams = async (env: Env) =>
    (
      await expectStatus(
        kind === 'Space'
          ? env.api.spaces.listTeamPermissionsInSpace(id, { limit: 10 })
          : env.api.collections.listTeamPermissionsInCollection(id, { limit: 10 }),
        200,
      )
    ).items.map((x) => [x.team.id, x.permission]);
  const usersOf = async (env: Env) =>
    (
      await expectStatus(
        kind === 'Space'
          ? env.api.spaces.listUserPermissionsInSpace(id, { limit: 10 })
          : env.api.collections.listUserPermissionsInCollection(id, { limit: 10 }),
        200,
      )
    ).items.map((x) => [x.user.id, x.permission]);
  return [
    {
      name: `listTeamPermissionsIn${kind}: limit`,
      run: async (env) => {
        await grant(env);
        expect(await teams(env)).toEqual([['team-writers', 'edit']]);
      },
    },
    {
      name: `listUserPermissionsIn${kind}: limit`,
      run: async (env) => {
        await grant(env);
        expect(await usersOf(env)).toEqual([['u-bob', 'edit']]);
      },
    },
    {
      name: `updateTeamPermissionIn${kind}`,
      run: async (env) => {
        await grant(env);
        const call = s
          ? env.api.spaces.updateTeamPermissionInSpace(id, 'team-writers', { role: 'admin' })
          : env.api.collections.updateTeamPermissionInCollection(id, 'team-writers', { role: 'admin' });
        expect(await statusOf(call)).toBe(204);
        expect(await teams(env)).toEqual([['team-writers', 'admin']]);
      },
    },
    {
      name: `updateUserPermissionIn${kind}`,
      run: async (env) => {
        await grant(env);
        const call = s
          ? env.api.spaces.updateUserPermissionInSpace(id, 'u-bob', { role: 'read' })
          : env.api.collections.updateUserPermissionInCollection(id, 'u-bob', { role: 'read' });
        expect(await statusOf(call)).toBe(204);
        expect(await usersOf(env)).toEqual([['u-bob', 'read']]);
      },
    },
    {
      name: `removeTeamFrom${kind}`,
      run: async (env) => {
        await grant(env);
        expect(
          await statusOf(
            s
              ? env.api.spaces.removeTeamFromSpace(id, 'team-writers')
              : env.api.collections.removeTeamFromCollection(id, 'team-writers'),
          ),
        ).toBe(205);
        expect(await teams(env)).toEqual([]);
      },
    },
    {
      name: `removeUserFrom${kind}`,
      run: async (env) => {
        await grant(env);
        expect(
          await statusOf(
            s
              ? env.api.spaces.removeUserFromSpace(id, 'u-bob')
              : env.api.collections.removeUserFromCollection(id, 'u-bob'),
          ),
        ).toBe(205);
        expect(await usersOf(env)).toEqual([]);
      },
    },
  ];
}

/** PATCH with role null (MemberRoleOrGuest) on the four space and collection grant routes: the grant goes. */
function nullPatchCases(): Case[] {
  return (['Space', 'Collection'] as const).flatMap((kind) =>
    (['Team', 'User'] as const).map((who): Case => ({
      name: `update${who}PermissionIn${kind}: role null`,
      run: async ({ api }) => {
        const space = kind === 'Space';
        const id = space ? 'sp-api' : 'col-product';
        const body =
          who === 'Team'
            ? { role: 'edit' as const, teams: ['team-writers'] }
            : { role: 'edit' as const, users: ['u-bob'] };
        expect(
          await statusOf(space ? api.spaces.inviteToSpace(id, body) : api.collections.inviteToCollection(id, body)),
        ).toBe(204);
        const principal = who === 'Team' ? 'team-writers' : 'u-bob';
        const patch =
          who === 'Team'
            ? space
              ? api.spaces.updateTeamPermissionInSpace(id, principal, { role: null })
              : api.collections.updateTeamPermissionInCollection(id, principal, { role: null })
            : space
              ? api.spaces.updateUserPermissionInSpace(id, principal, { role: null })
              : api.collections.updateUserPermissionInCollection(id, principal, { role: null });
        expect(await statusOf(patch)).toBe(204);
        const items =
          who === 'Team'
            ? (
                await expectStatus(
                  space
                    ? api.spaces.listTeamPermissionsInSpace(id)
                    : api.collections.listTeamPermissionsInCollection(id),
                  200,
                )
              ).items
            : (
                await expectStatus(
                  space
                    ? api.spaces.listUserPermissionsInSpace(id)
                    : api.collections.listUserPermissionsInCollection(id),
                  200,
                )
              ).items;
        expect(items).toEqual([]);
      },
    })),
  );
}

function sitePermissionCases(): Case[] {
  const teams = async ({ api }: Env, site: string) =>
    (await expectStatus(api.orgs.listTeamPermissionsInSite(ORG, site, { limit: 5 }), 200)).items.map((x) => [
      x.team.id,
      x.permission,
    ]);
  const usersOf = async ({ api }: Env, site: string) =>
    (await expectStatus(api.orgs.listUserPermissionsInSite(ORG, site, { limit: 5 }), 200)).items.map((x) => [
      x.user.id,
      x.permission,
    ]);
  const granted = async (env: Env): Promise<string> => {
    const { site } = await newSite(env);
    expect(await statusOf(env.api.orgs.inviteToSite(ORG, site.id, { role: 'edit', teams: ['team-writers'] }))).toBe(
      204,
    );
    expect(await statusOf(env.api.orgs.inviteToSite(ORG, site.id, { role: null, users: ['u-bob'] }))).toBe(204);
    return site.id;
  };
  return [
    {
      name: 'inviteToSite: team role, user null override',
      run: async (env) => {
        const id = await granted(env);
        expect(await usersOf(env, id)).toEqual([['u-bob', null]]);
      },
    },
    {
      name: 'listTeamPermissionsInSite: limit',
      run: async (env) => {
        const id = await granted(env);
        expect(await teams(env, id)).toEqual([['team-writers', 'edit']]);
      },
    },
    {
      name: 'listUserPermissionsInSite: limit',
      run: async (env) => {
        const id = await granted(env);
        expect(await usersOf(env, id)).toHaveLength(1);
      },
    },
    {
      name: 'updateTeamPermissionInSite',
      run: async (env) => {
        const id = await granted(env);
        expect(await statusOf(env.api.orgs.updateTeamPermissionInSite(ORG, id, 'team-writers', { role: 'read' }))).toBe(
          204,
        );
        expect(await teams(env, id)).toEqual([['team-writers', 'read']]);
      },
    },
    {
      name: 'updateUserPermissionInSite',
      run: async (env) => {
        const id = await granted(env);
        expect(await statusOf(env.api.orgs.updateUserPermissionInSite(ORG, id, 'u-bob', { role: 'comment' }))).toBe(
          204,
        );
        expect(await usersOf(env, id)).toEqual([['u-bob', 'comment']]);
      },
    },
    {
      name: 'removeTeamFromSite',
      run: async (env) => {
        const id = await granted(env);
        expect(await statusOf(env.api.orgs.removeTeamFromSite(ORG, id, 'team-writers'))).toBe(205);
        expect(await teams(env, id)).toEqual([]);
      },
    },
    {
      name: 'removeUserFromSite',
      run: async (env) => {
        const id = await granted(env);
        expect(await statusOf(env.api.orgs.removeUserFromSite(ORG, id, 'u-bob'))).toBe(205);
        expect(await usersOf(env, id)).toEqual([]);
      },
    },
  ];
}
