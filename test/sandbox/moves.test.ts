/**
 * Space and collection moves and transfers over HTTP (management-api.md): re-parenting, order by position,
 * validation (400), unknown ids (404), cycles (400: management-api.md lists no 409), transfers to another
 * organization, and the official spec's response schemas where it declares the operation.
 */
import { describe, expect, it } from 'vitest';
import { memberKey, members, orgs } from '../../packages/sandbox/src/records.js';
import type { RunningSandbox } from '@docops/sandbox';
import { responseValidator } from './contract-spec.js';
import { sandbox, type Json } from './helpers.js';

const ORG = '/orgs/org-demo';
const ids = (r: { body: Json }): string[] => r.body.items.map((x: Json) => x.id);
const at = (space: string) => ({ type: 'space', space });

/** A second organization the token user administers (the demo seed has one). */
function addOrg(sb: RunningSandbox, id: string): void {
  orgs(sb.store).put({
    id,
    title: 'Other',
    createdAt: '2024-01-01T00:00:00.000Z',
    emailDomains: [],
    type: 'business',
    defaultRole: null,
    sso: false,
    ai: false,
    inviteLinks: false,
    plan: 'free_2024',
  });
  members(sb.store).put({
    id: memberKey(id, 'u-ada'),
    orgId: id,
    userId: 'u-ada',
    role: 'admin',
    disabled: false,
    joinedAt: '2024-01-01T00:00:00.000Z',
    sso: false,
  });
}

describe('POST /spaces/{id}/move', () => {
  it('re-parents (200 with the space), adjusts visibility, and lists a collection in position order', async () => {
    const { call } = await sandbox();
    const moved = await call('POST', '/spaces/sp-changelog/move', { parent: 'col-product' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      object: 'space',
      id: 'sp-changelog',
      parent: 'col-product',
      visibility: 'in-collection',
    });
    expect((await call('GET', '/spaces/sp-changelog')).body).toEqual(moved.body);
    expect(ids(await call('GET', '/collections/col-product/spaces'))).toEqual([
      'sp-getting-started',
      'sp-api',
      'sp-changelog',
    ]);

    expect(
      (await call('POST', '/spaces/sp-changelog/move', { position: { before: at('sp-getting-started') } })).status,
    ).toBe(200);
    expect(ids(await call('GET', '/collections/col-product/spaces'))).toEqual([
      'sp-changelog',
      'sp-getting-started',
      'sp-api',
    ]);
    expect((await call('POST', '/spaces/sp-getting-started/move', { position: { after: at('sp-api') } })).status).toBe(
      200,
    );
    expect(ids(await call('GET', '/collections/col-product/spaces'))).toEqual([
      'sp-changelog',
      'sp-api',
      'sp-getting-started',
    ]);
    // Into another collection next to a space there; `position: {}` = the end.
    expect(
      (await call('POST', '/spaces/sp-api/move', { parent: 'col-internal', position: { before: at('sp-runbooks') } }))
        .status,
    ).toBe(200);
    expect(ids(await call('GET', '/collections/col-internal/spaces'))).toEqual(['sp-api', 'sp-runbooks']);
    expect((await call('POST', '/spaces/sp-api/move', { position: {} })).status).toBe(200);
    expect(ids(await call('GET', '/collections/col-internal/spaces'))).toEqual(['sp-runbooks', 'sp-api']);
    // A new space joins at the end, after the ordered ones.
    const fresh = (await call('POST', `${ORG}/spaces`, { title: 'New', parent: 'col-product' })).body.id as string;
    expect(ids(await call('GET', '/collections/col-product/spaces'))).toEqual([
      'sp-changelog',
      'sp-getting-started',
      fresh,
    ]);

    const top = await call('POST', '/spaces/sp-changelog/move', { parent: null });
    expect(top.status).toBe(200);
    expect(top.body.parent).toBeUndefined();
    expect(top.body.visibility).toBe('private');
    expect(ids(await call('GET', '/collections/col-product/spaces'))).toEqual(['sp-getting-started', fresh]);
  });

  it('answers 400 for bad bodies and ids inside them, 404 for an unknown or deleted space', async () => {
    const { call } = await sandbox();
    const bad = async (body: unknown): Promise<string> => {
      const r = await call('POST', '/spaces/sp-api/move', body);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      return r.body.error.message as string;
    };
    expect(await bad(undefined)).toMatch(/body: is required/);
    expect(await bad({ parent: 'col-nope' })).toMatch(/body\.parent: collection "col-nope" not found/);
    expect(await bad({ parent: 42 })).toMatch(/body\.parent: must be a string/);
    expect(await bad({ color: 'red' })).toMatch(/body\.color: unknown field/);
    expect(await bad({ position: { before: at('sp-getting-started'), after: at('sp-getting-started') } })).toMatch(
      /at most one of before, after/,
    );
    expect(await bad({ position: { before: at('sp-api') } })).toMatch(/relative to itself/);
    expect(await bad({ position: { before: at('sp-runbooks') } })).toMatch(/not in collection "col-product"/);
    expect(await bad({ parent: null, position: { after: at('sp-getting-started') } })).toMatch(/not in the top level/);
    expect(await bad({ position: { after: at('sp-nope') } })).toMatch(/space "sp-nope" not found/);
    expect(await bad({ position: { after: { type: 'collection', collection: 'col-internal' } } })).toMatch(
      /collection "col-internal" is not in collection "col-product"/,
    );
    expect(await bad({ position: { after: { type: 'collection', collection: 'col-nope' } } })).toMatch(
      /collection "col-nope" not found/,
    );
    expect(await bad({ position: { after: { type: 'space', space: 'sp-getting-started', color: 'red' } } })).toMatch(
      /color: unknown field/,
    );
    expect(await bad({ position: { after: { type: 'page', space: 'sp-getting-started' } } })).toMatch(
      /type: must be one of space/,
    );
    // Nothing changed.
    expect((await call('GET', '/spaces/sp-api')).body.parent).toBe('col-product');

    expect((await call('POST', '/spaces/sp-nope/move', { parent: null })).status).toBe(404);
    await call('DELETE', '/spaces/sp-runbooks');
    expect((await call('POST', '/spaces/sp-runbooks/move', { parent: null })).status).toBe(404);
  });
});

describe('POST /collections/{id}/move', () => {
  it('nests, un-nests and places a collection next to a space of its new parent', async () => {
    const { call } = await sandbox();
    const moved = await call('POST', '/collections/col-internal/move', {
      parent: 'col-product',
      position: { after: at('sp-getting-started') },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ object: 'collection', id: 'col-internal', parent: 'col-product' });
    expect((await call('GET', `${ORG}/collections?nested=false`)).body.items.map((c: Json) => c.id)).toEqual([
      'col-product',
    ]);
    // The collection's own spaces stay inside it.
    expect(ids(await call('GET', '/collections/col-internal/spaces'))).toEqual(['sp-runbooks']);
    const back = await call('POST', '/collections/col-internal/move', { parent: null });
    expect(back.status).toBe(200);
    expect(back.body.parent).toBeUndefined();
  });

  it('refuses a move into itself or a nested collection (400), unknown ids (404 / 400)', async () => {
    const { call } = await sandbox();
    const child = (await call('POST', `${ORG}/collections`, { title: 'Child', parent: 'col-product' })).body
      .id as string;
    const grandchild = (await call('POST', `${ORG}/collections`, { title: 'Grandchild', parent: child })).body
      .id as string;
    for (const parent of ['col-product', child, grandchild]) {
      const r = await call('POST', '/collections/col-product/move', { parent });
      expect(r.status, parent).toBe(400);
      expect(r.body.error.message).toMatch(/into itself or a collection nested in it/);
    }
    expect((await call('GET', '/collections/col-product')).body.parent).toBeUndefined();
    expect((await call('POST', '/collections/col-nope/move', { parent: null })).status).toBe(404);
    expect((await call('POST', `/collections/${grandchild}/move`, { parent: 'col-nope' })).status).toBe(400);
    expect(
      (await call('POST', `/collections/${grandchild}/move`, { position: { before: at('sp-changelog') } })).status,
    ).toBe(400);
    // Moving the grandchild up to the top level is fine.
    expect((await call('POST', `/collections/${grandchild}/move`, { parent: null })).status).toBe(200);
  });
});

describe('transfer to another organization', () => {
  it('moves a space (to the top level) and a whole collection tree; 400 for unknown organizations and site spaces', async () => {
    const { call, sb } = await sandbox();
    addOrg(sb, 'org-other');
    const t = await call('POST', '/spaces/sp-changelog/transfer', { organization: 'org-other' });
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ id: 'sp-changelog', organization: 'org-other', visibility: 'private' });
    expect(ids(await call('GET', '/orgs/org-other/spaces'))).toEqual(['sp-changelog']);
    expect(ids(await call('GET', `${ORG}/spaces`))).not.toContain('sp-changelog');

    const nested = (await call('POST', `${ORG}/collections`, { title: 'Nested', parent: 'col-product' })).body
      .id as string;
    const c = await call('POST', '/collections/col-product/transfer', { organization: 'org-other' });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ id: 'col-product', organization: 'org-other' });
    expect((await call('GET', '/orgs/org-other/collections')).body.items.map((x: Json) => x.id)).toEqual([
      'col-product',
      nested,
    ]);
    expect(ids(await call('GET', '/orgs/org-other/spaces'))).toEqual(
      expect.arrayContaining(['sp-getting-started', 'sp-api']),
    );
    expect((await call('GET', '/collections/col-product/spaces')).body.items.map((s: Json) => s.organization)).toEqual([
      'org-other',
      'org-other',
    ]);
    // The organization that already owns it: the spec's 409 "Transfer would not result in any update", for both.
    for (const path of ['/collections/col-internal/transfer', '/spaces/sp-runbooks/transfer']) {
      const same = await call('POST', path, { organization: 'org-demo' });
      expect(same.status, path).toBe(409);
      expect(same.body).toEqual({
        error: { code: 409, message: expect.stringContaining('already belongs to organization "org-demo"') },
      });
    }

    expect((await call('POST', '/spaces/sp-runbooks/transfer', { organization: 'org-nope' })).status).toBe(400);
    expect((await call('POST', '/spaces/sp-runbooks/transfer', {})).status).toBe(400);
    expect((await call('POST', '/collections/col-nope/transfer', { organization: 'org-other' })).status).toBe(404);
    await call('POST', `${ORG}/sites`, { title: 'Docs', spaces: ['sp-runbooks'] });
    const shown = await call('POST', '/collections/col-internal/transfer', { organization: 'org-other' });
    expect(shown.status).toBe(400);
    expect(shown.body.error.message).toMatch(/shown by site/);
  });
});

// --- contract check: the spec declares moveSpace, moveCollection and transferCollection (not a space transfer).
const validator = (specPath: string) => responseValidator('POST', specPath, 200);

describe('contract: move and transfer responses match the official spec', () => {
  it.each([
    {
      spec: '/spaces/{spaceId}/move',
      path: '/spaces/sp-changelog/move',
      body: { parent: 'col-product', position: { after: at('sp-api') } },
    },
    {
      spec: '/collections/{collectionId}/move',
      path: '/collections/col-internal/move',
      body: { parent: 'col-product' },
    },
    {
      spec: '/collections/{collectionId}/transfer',
      path: '/collections/col-internal/transfer',
      body: { organization: 'org-other' },
    },
  ])('POST $spec', async (op) => {
    const { call, sb } = await sandbox();
    addOrg(sb, 'org-other');
    const res = await call('POST', op.path, op.body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const validate = validator(op.spec);
    expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
    // Not vacuous: the schema requires `id`.
    expect(validate({ ...res.body, id: undefined })).toBe(false);
  });
});
