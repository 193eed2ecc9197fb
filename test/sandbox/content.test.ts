import { describe, expect, it } from 'vitest';
import { DAY, manualClock, sandbox, type Json } from './helpers.js';

const ORG = '/orgs/org-demo';
const itemIds = (r: { body: Json }): string[] => r.body.items.map((x: Json) => x.id);

describe('translations (management-api.md shape)', () => {
  it('lists, creates (201), gets, renames (PUT 200) and deletes (205, then 204)', async () => {
    const { call } = await sandbox();
    const list = await call('GET', `${ORG}/translations`);
    expect(list.body.items).toEqual([
      expect.objectContaining({ object: 'translation-settings', id: 'tr-fr', title: 'French docs', languages: ['fr'] }),
    ]);
    const made = await call('POST', `${ORG}/translations`, { title: 'German docs' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      object: 'translation-settings',
      title: 'German docs',
      languages: [],
      permissions: { view: true, edit: true },
    });
    const id = made.body.id as string;
    expect((await call('GET', `${ORG}/translations/${id}`)).body).toEqual(made.body);
    const put = await call('PUT', `${ORG}/translations/${id}`, { title: 'Deutsch' });
    expect(put.status).toBe(200);
    expect(put.body.title).toBe('Deutsch');
    expect((await call('PUT', `${ORG}/translations/${id}`, { title: 'x', languages: ['de'] })).status).toBe(400);
    expect((await call('DELETE', `${ORG}/translations/${id}`)).status).toBe(205);
    expect((await call('DELETE', `${ORG}/translations/${id}`)).status).toBe(204);
    expect((await call('GET', `${ORG}/translations/${id}`)).status).toBe(404);
  });
});

describe('collections', () => {
  it('lists (nested filter), creates (201 + Location), gets, patches, lists its spaces', async () => {
    const { call } = await sandbox();
    expect(itemIds(await call('GET', `${ORG}/collections`))).toEqual(['col-product', 'col-internal']);
    const made = await call('POST', `${ORG}/collections`, { title: 'Guides', parent: 'col-product' });
    expect(made.status).toBe(201);
    expect(made.headers.get('location')).toBe(made.body.urls.location);
    expect(made.body).toMatchObject({
      object: 'collection',
      title: 'Guides',
      parent: 'col-product',
      organization: 'org-demo',
      defaultLevel: null,
    });
    const id = made.body.id as string;
    expect(itemIds(await call('GET', `${ORG}/collections`))).toEqual(['col-product', 'col-internal', id]);
    expect(itemIds(await call('GET', `${ORG}/collections?nested=false`))).toEqual(['col-product', 'col-internal']);
    expect((await call('GET', `${ORG}/collections?nested=maybe`)).status).toBe(400);
    const patched = await call('PATCH', `/collections/${id}`, {
      title: 'How-tos',
      description: 'Step by step',
      defaultLevel: 'read',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'How-tos', description: 'Step by step', defaultLevel: 'read' });
    expect((await call('GET', `/collections/${id}`)).body).toEqual(patched.body);
    expect(itemIds(await call('GET', '/collections/col-product/spaces'))).toEqual(['sp-getting-started', 'sp-api']);
    expect((await call('POST', `${ORG}/collections`)).status).toBe(201);
    expect((await call('POST', `${ORG}/collections`, { parent: 'col-nope' })).status).toBe(400);
    expect((await call('GET', '/collections/col-nope')).status).toBe(404);
  });

  it('delete (205) removes nested collections and soft-deletes their spaces; again ⇒ 204; unknown ⇒ 404', async () => {
    const { call } = await sandbox();
    const child = (await call('POST', `${ORG}/collections`, { title: 'Child', parent: 'col-product' })).body
      .id as string;
    const inChild = (await call('POST', `${ORG}/spaces`, { title: 'Deep', parent: child })).body.id as string;
    expect((await call('DELETE', '/collections/col-product')).status).toBe(205);
    expect((await call('GET', '/collections/col-product')).status).toBe(404);
    expect((await call('GET', `/collections/${child}`)).status).toBe(404);
    expect(itemIds(await call('GET', `${ORG}/spaces`))).toEqual(['sp-runbooks', 'sp-changelog']);
    expect((await call('GET', `/spaces/${inChild}`)).body.deletedAt).toBeDefined();
    expect((await call('DELETE', '/collections/col-product')).status).toBe(204);
    expect((await call('DELETE', '/collections/col-never')).status).toBe(404);
  });
});

describe('spaces', () => {
  it('lists the demo spaces, creates (201 + Location), gets and patches', async () => {
    const { call } = await sandbox();
    const list = await call('GET', `${ORG}/spaces`);
    expect(list.body.items.map((s: Json) => [s.id, s.title, s.emoji, s.parent ?? null])).toEqual([
      ['sp-getting-started', 'Getting Started', '🚀', 'col-product'],
      ['sp-api', 'API Reference', '📘', 'col-product'],
      ['sp-runbooks', 'Runbooks', '🛠', 'col-internal'],
      ['sp-changelog', 'Changelog', '📝', null],
    ]);
    const made = await call('POST', `${ORG}/spaces`, {
      title: 'FAQ',
      emoji: '❓',
      parent: 'col-internal',
      editMode: 'locked',
    });
    expect(made.status).toBe(201);
    expect(made.headers.get('location')).toBe(made.body.urls.location);
    expect(made.body).toMatchObject({
      object: 'space',
      title: 'FAQ',
      emoji: '❓',
      parent: 'col-internal',
      editMode: 'locked',
      organization: 'org-demo',
    });
    const id = made.body.id as string;
    expect((await call('GET', `/spaces/${id}`)).body).toEqual(made.body);
    const patched = await call('PATCH', `/spaces/${id}`, {
      title: 'Questions',
      emoji: '🙋',
      editMode: 'live',
      defaultLevel: 'comment',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'Questions', emoji: '🙋', editMode: 'live', defaultLevel: 'comment' });
    expect(itemIds(await call('GET', '/collections/col-internal/spaces'))).toEqual(['sp-runbooks', id]);
    expect((await call('POST', `${ORG}/spaces`, { parent: 'col-nope' })).status).toBe(400);
    expect((await call('GET', '/spaces/sp-nope')).status).toBe(404);
  });

  it('soft-deletes (205): hidden from lists, readable with deletedAt, restorable within 7 days', async () => {
    const clock = manualClock();
    const { call } = await sandbox({ now: clock.now });
    expect((await call('DELETE', '/spaces/sp-api')).status).toBe(205);
    expect(itemIds(await call('GET', `${ORG}/spaces`))).not.toContain('sp-api');
    expect(itemIds(await call('GET', '/collections/col-product/spaces'))).toEqual(['sp-getting-started']);
    const deleted = await call('GET', '/spaces/sp-api');
    expect(deleted.body.deletedAt).toBe(clock.now().toISOString());
    expect((await call('PATCH', '/spaces/sp-api', { title: 'x' })).status).toBe(404);
    expect((await call('DELETE', '/spaces/sp-api')).status).toBe(204);
    clock.advance(7 * DAY);
    const restored = await call('POST', '/spaces/sp-api/restore');
    expect(restored.status).toBe(200);
    expect(restored.body.deletedAt).toBeUndefined();
    expect(itemIds(await call('GET', `${ORG}/spaces`))).toContain('sp-api');
    expect((await call('POST', '/spaces/sp-api/restore')).status).toBe(400);
  });

  it('after 7 days a deleted space is gone for good: 404 on get and restore, 204 on delete', async () => {
    const clock = manualClock();
    const { call } = await sandbox({ now: clock.now });
    expect((await call('DELETE', '/spaces/sp-changelog')).status).toBe(205);
    clock.advance(7 * DAY + 1);
    expect((await call('POST', '/spaces/sp-changelog/restore')).status).toBe(404);
    expect((await call('GET', '/spaces/sp-changelog')).status).toBe(404);
    expect((await call('DELETE', '/spaces/sp-changelog')).status).toBe(204);
    expect((await call('DELETE', '/spaces/sp-never')).status).toBe(404);
  });
});
