import { describe, expect, it } from 'vitest';
import { sandbox, type Json } from './helpers.js';
import { listAll, newSite } from './site-fixture.js';

describe('site share links', () => {
  it('creates (201 + Location, active), lists, patches, deletes (205, then 204); the secret is only in urls.published', async () => {
    const { call } = await sandbox();
    const site = await newSite(call, { visibility: 'share-link' });
    const res = await call('POST', `${site.path}/share-links`, { name: 'Partners' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toContain(`/share-links/${res.body.id}`);
    expect(Object.keys(res.body).sort()).toEqual(['active', 'createdAt', 'id', 'name', 'object', 'urls']);
    expect(res.body).toMatchObject({ object: 'share-link', name: 'Partners', active: true, urls: {} });
    expect(Object.keys(res.body.urls)).toEqual(['published']);
    const secret = new URL(res.body.urls.published).searchParams.get('share') ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(16);
    const other = await call('POST', `${site.path}/share-links`, { name: 'Partners' });
    expect(new URL(other.body.urls.published).searchParams.get('share')).not.toBe(secret);
    const listed = await listAll(call, `${site.path}/share-links`);
    expect(listed.map((l: Json) => l.id)).toEqual([res.body.id, other.body.id]);
    for (const l of listed) expect(JSON.stringify({ ...l, urls: undefined })).not.toContain(secret);
    const siteBody = JSON.stringify((await call('GET', site.path)).body);
    expect(siteBody).not.toContain(secret);

    const url = `${site.path}/share-links/${res.body.id}`;
    const patched = await call('PATCH', url, { active: false, name: 'Old partners' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ active: false, name: 'Old partners' });
    expect(patched.body.urls.published).toBe(res.body.urls.published);
    expect((await call('DELETE', url)).status).toBe(205);
    expect((await call('DELETE', url)).status).toBe(204);
    expect((await call('PATCH', url, { active: true })).status).toBe(404);
    expect((await call('GET', `${site.path}/share-links`)).body.count).toBe(1);
  });

  it('checks the name limit and the body', async () => {
    const { call } = await sandbox();
    const site = await newSite(call);
    expect((await call('POST', `${site.path}/share-links`, { name: '' })).status).toBe(201);
    expect((await call('POST', `${site.path}/share-links`, { name: 'n'.repeat(50) })).status).toBe(201);
    const bad: [Json, string][] = [
      [{ name: 'n'.repeat(51) }, 'body.name'],
      [{}, 'body.name: is required'],
      [{ name: 'x', active: false }, 'unknown field'],
    ];
    for (const [body, message] of bad) {
      const r = await call('POST', `${site.path}/share-links`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(message);
    }
    const [first] = await listAll(call, `${site.path}/share-links`);
    expect((await call('PATCH', `${site.path}/share-links/${first.id}`, { active: 'no' })).status).toBe(400);
    expect((await call('PATCH', `${site.path}/share-links/${first.id}`, { name: 'n'.repeat(51) })).status).toBe(400);
  });
});

const claim = (description: string): Json => ({ type: 'boolean', description });
const UNSIGNED = 'Unsigned claims of the site visitor.';

describe('site adaptive schema', () => {
  it('starts empty; PUT replaces it (200) and updates updatedAt; template conditions follow the claims', async () => {
    let t = Date.parse('2025-01-01T00:00:00Z');
    const { call } = await sandbox({ now: () => new Date(t) });
    const site = await newSite(call);
    const url = `${site.path}/adaptive-schema`;
    const initial = await call('GET', url);
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({
      object: 'site-adaptive-schema',
      jsonSchema: { type: 'object', properties: {}, additionalProperties: false },
      updatedAt: '2025-01-01T00:00:00.000Z',
    });
    expect((await call('GET', `${url}/template-conditions`)).body).toEqual({ items: [] });
    t += 60_000;
    const jsonSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        isBeta: claim('Beta tester'),
        isStaff: claim(''),
        unsigned: {
          type: 'object',
          description: UNSIGNED,
          properties: { plan_pro: claim('On the pro plan') },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    };
    const put = await call('PUT', url, { jsonSchema });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ object: 'site-adaptive-schema', jsonSchema, updatedAt: '2025-01-01T00:01:00.000Z' });
    expect((await call('GET', url)).body).toEqual(put.body);
    const conditions = (await call('GET', `${url}/template-conditions`)).body.items;
    expect(conditions.map((c: Json) => c.condition)).toEqual([
      'visitor.claims.isBeta === true',
      'visitor.claims.isStaff === true',
      'visitor.claims.unsigned.plan_pro === true',
    ]);
    expect(conditions.map((c: Json) => c.description)).toEqual(['Beta tester', '', 'On the pro plan']);
  });

  it('rejects every other shape with a 400 naming the offending path, and keeps the old schema', async () => {
    const { call } = await sandbox();
    const site = await newSite(call);
    const url = `${site.path}/adaptive-schema`;
    const base = { type: 'object', properties: {}, additionalProperties: false };
    const bad: [Json, string][] = [
      [{ ...base, type: 'array' }, 'body.jsonSchema.type'],
      [{ ...base, additionalProperties: true }, 'body.jsonSchema.additionalProperties'],
      [{ type: 'object', properties: {} }, 'body.jsonSchema.additionalProperties: is required'],
      [{ ...base, $schema: 'https://json-schema.org/draft/2020-12/schema' }, 'body.jsonSchema.$schema'],
      [{ ...base, required: ['x'] }, 'body.jsonSchema.required: unknown field'],
      [
        { ...base, properties: { plan: { type: 'string', description: 'Plan' } } },
        'body.jsonSchema.properties.plan.type',
      ],
      [
        { ...base, properties: { beta: { type: 'boolean', description: 'Beta', default: true } } },
        'body.jsonSchema.properties.beta.default',
      ],
      [{ ...base, properties: { beta: true } }, 'body.jsonSchema.properties.beta'],
      // The form without descriptions (management-api.md is silent about them, the official spec requires them).
      [
        { ...base, properties: { beta: { type: 'boolean' } } },
        'body.jsonSchema.properties.beta.description: is required',
      ],
      [
        { ...base, properties: { unsigned: { type: 'object', properties: {}, additionalProperties: false } } },
        'body.jsonSchema.properties.unsigned.description: is required',
      ],
      [
        {
          ...base,
          properties: {
            unsigned: { type: 'object', description: 'Unsigned', properties: {}, additionalProperties: false },
          },
        },
        'body.jsonSchema.properties.unsigned.description',
      ],
      [
        { ...base, properties: { unsigned: { type: 'object', description: UNSIGNED, properties: {} } } },
        'body.jsonSchema.properties.unsigned.additionalProperties',
      ],
      [
        {
          ...base,
          properties: {
            unsigned: {
              type: 'object',
              description: UNSIGNED,
              properties: { x: { type: 'number', description: 'X' } },
              additionalProperties: false,
            },
          },
        },
        'body.jsonSchema.properties.unsigned.properties.x.type',
      ],
      [
        {
          ...base,
          properties: {
            unsigned: {
              type: 'object',
              description: UNSIGNED,
              properties: {
                unsigned: { type: 'object', description: UNSIGNED, properties: {}, additionalProperties: false },
              },
              additionalProperties: false,
            },
          },
        },
        'body.jsonSchema.properties.unsigned.properties.unsigned.properties: unknown field',
      ],
      ['not an object', 'body.jsonSchema'],
    ];
    for (const [jsonSchema, message] of bad) {
      const r = await call('PUT', url, { jsonSchema });
      expect(r.status, JSON.stringify(jsonSchema)).toBe(400);
      expect(r.body.error.message).toContain(message);
    }
    expect((await call('PUT', url, {})).status).toBe(400);
    expect((await call('GET', url)).body.jsonSchema).toEqual(base);
  });
});
