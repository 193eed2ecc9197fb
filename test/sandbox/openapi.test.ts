/**
 * OpenAPI specs and versions: slugs as keys (management-api.md pattern), url/text sources, synchronous and
 * deterministic processing (docs/dev/api-differences.md §5), versions and their content, visibility, deletes.
 */
import { describe, expect, it } from 'vitest';
import { OPENAPI_TEXT_MAX_BYTES } from '@docops/api-shared';
import { openApiVersions } from '../../packages/sandbox/src/openapi-records.js';
import { manualClock, sandbox, type Json } from './helpers.js';

const OA = '/orgs/org-demo/openapi';
const JSON_DOC = { openapi: '3.1.0', info: { title: 'Pets', version: '1.0.0' }, paths: {} };
const JSON_TEXT = JSON.stringify(JSON_DOC);
const YAML_TEXT = 'openapi: 3.0.3\ninfo:\n  title: Pets\n  version: "2.0.0"\npaths: {}\n';
const SWAGGER_TEXT = 'swagger: "2.0"\ninfo: {title: Old, version: "1"}\npaths: {}\n';
const URL_SOURCE = 'https://api.acme.test/openapi.json';

describe('OpenAPI specs', () => {
  it('POST with a text source: 201, processed at once, one version whose content is the parsed document', async () => {
    const { call, sb } = await sandbox();
    const made = await call('POST', OA, { slug: 'pets', source: { text: JSON_TEXT } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      object: 'openapi-spec',
      slug: 'pets',
      processingState: 'complete',
      visibility: 'private',
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
      urls: { location: `${sb.url}${OA}/pets` },
    });
    for (const absent of ['sourceURL', 'lastProcessErrorCode', 'lastProcessedErrors'])
      expect(made.body).not.toHaveProperty(absent);
    expect(made.body.lastProcessedAt).toBe(made.body.updatedAt);
    expect((await call('GET', `${OA}/pets`)).body).toEqual(made.body);

    const versions = await call('GET', `${OA}/pets/versions`);
    expect(versions.body.items.map((v: Json) => v.id)).toEqual([made.body.lastVersion]);
    const latest = await call('GET', `${OA}/pets/versions/latest`);
    expect(latest.body).toEqual(versions.body.items[0]);
    expect(latest.body).toMatchObject({
      object: 'openapi-spec-version',
      urls: { location: `${sb.url}${OA}/pets/versions/${made.body.lastVersion}` },
    });
    const content = await call('GET', `${OA}/pets/versions/latest/content`);
    expect(content.body).toEqual({
      filesystem: { 'openapi.json': JSON_DOC },
      url: latest.body.url,
      urls: { source: latest.body.url, public: null },
    });
    expect((await call('GET', `${OA}/pets/versions/${made.body.lastVersion}/content`)).body).toEqual(content.body);
    expect((await call('GET', `${OA}/pets/versions/latest/content/raw`)).body).toEqual({
      text: JSON_TEXT,
      format: 'json',
    });
  });

  it('POST with a URL source stores the URL: sourceURL, the version URL, no raw text', async () => {
    const { call } = await sandbox();
    const made = await call('POST', OA, { slug: 'billing-api', source: { url: URL_SOURCE } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ sourceURL: URL_SOURCE, processingState: 'complete', lastProcessedErrorCount: 0 });
    const latest = await call('GET', `${OA}/billing-api/versions/latest`);
    expect(latest.body.url).toBe(URL_SOURCE);
    expect((await call('GET', `${OA}/billing-api/versions/latest/content`)).body).toEqual({
      filesystem: {},
      url: URL_SOURCE,
      urls: { source: URL_SOURCE, public: null },
    });
    expect((await call('GET', `${OA}/billing-api/versions/latest/content/raw`)).status).toBe(404);
  });

  it('PUT updates an existing spec (200, a new version each time, newest first) and creates a missing one (201)', async () => {
    const { call } = await sandbox();
    const first = (await call('POST', OA, { slug: 'pets', source: { url: URL_SOURCE } })).body;
    const updated = await call('PUT', `${OA}/pets`, { source: { text: YAML_TEXT } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: first.id, createdAt: first.createdAt, slug: 'pets' });
    expect(updated.body.lastVersion).not.toBe(first.lastVersion);
    expect(updated.body).not.toHaveProperty('sourceURL'); // the source is text now
    const again = await call('PUT', `${OA}/pets`, { source: { text: YAML_TEXT } });
    expect(again.status).toBe(200);
    const ids = [again.body.lastVersion, updated.body.lastVersion, first.lastVersion];
    expect(new Set(ids).size).toBe(3);
    expect((await call('GET', `${OA}/pets/versions`)).body.items.map((v: Json) => v.id)).toEqual(ids);
    expect((await call('GET', `${OA}/pets/versions/${updated.body.lastVersion}/content`)).body.filesystem).toEqual({
      'openapi.yaml': { openapi: '3.0.3', info: { title: 'Pets', version: '2.0.0' }, paths: {} },
    });
    expect((await call('GET', `${OA}/pets/versions/${first.lastVersion}`)).body.url).toBe(URL_SOURCE);
    expect((await call('GET', `${OA}/pets/versions/latest/content/raw`)).body).toEqual({
      text: YAML_TEXT,
      format: 'yaml',
    });

    const made = await call('PUT', `${OA}/orders`, { source: { text: SWAGGER_TEXT } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ slug: 'orders', processingState: 'complete', lastProcessedErrorCount: 0 });
    expect((await call('GET', OA)).body.items.map((s: Json) => s.slug)).toEqual(['pets', 'orders']);
  });

  it.each([
    ['empty', ''],
    ['101 characters', 'a'.repeat(101)],
    ['upper case (the spec allows it, management-api.md does not)', 'Pets'],
    ['a double hyphen', 'a--b'],
    ['a leading hyphen', '-a'],
    ['a trailing hyphen', 'a-'],
    ['an underscore', 'a_b'],
  ])('refuses a slug with %s (POST body and PUT path)', async (_name, slug) => {
    const { call } = await sandbox();
    const post = await call('POST', OA, { slug, source: { text: JSON_TEXT } });
    expect(post.status).toBe(400);
    expect(post.body.error.message).toContain('body.slug');
    if (slug !== '') {
      const put = await call('PUT', `${OA}/${encodeURIComponent(slug)}`, { source: { text: JSON_TEXT } });
      expect(put.status).toBe(400);
      expect(put.body.error.message).toContain('path.specSlug');
      expect((await call('GET', `${OA}/${encodeURIComponent(slug)}`)).status).toBe(404);
    }
    expect((await call('GET', OA)).body.items).toEqual([]);
  });

  it('accepts a slug of 100 characters and refuses a slug already used', async () => {
    const { call } = await sandbox();
    const long = `${'a'.repeat(49)}-${'b'.repeat(50)}`;
    expect((await call('POST', OA, { slug: long, source: { text: JSON_TEXT } })).status).toBe(201);
    expect((await call('PUT', `${OA}/${'c'.repeat(100)}`, { source: { text: JSON_TEXT } })).status).toBe(201);
    const dup = await call('POST', OA, { slug: long, source: { url: URL_SOURCE } });
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toContain('already used');
    expect((await call('GET', `${OA}/${long}/versions`)).body.count).toBe(1);
  });

  it.each([
    ['no source', { slug: 'x' }, 'body.source'],
    ['an empty source', { slug: 'x', source: {} }, 'body.source'],
    ['both url and text', { slug: 'x', source: { url: URL_SOURCE, text: JSON_TEXT } }, 'body.source.text'],
    ['empty text', { slug: 'x', source: { text: '' } }, 'body.source.text'],
    ['text not a string', { slug: 'x', source: { text: JSON_DOC } }, 'body.source.text'],
    ['a URL that is not a URI', { slug: 'x', source: { url: 'api.acme.test/openapi.json' } }, 'body.source.url'],
    ['a URL over 2048', { slug: 'x', source: { url: `https://a.test/${'p'.repeat(2034)}` } }, 'body.source.url'],
    ['an unknown source field', { slug: 'x', source: { url: URL_SOURCE, headers: {} } }, 'body.source.headers'],
    ['an unknown body field', { slug: 'x', source: { url: URL_SOURCE }, visibility: 'public' }, 'body.visibility'],
    ['no slug', { source: { url: URL_SOURCE } }, 'body.slug'],
  ])('POST refuses %s with 400', async (_name, body, field) => {
    const { call } = await sandbox();
    const res = await call('POST', OA, body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
    expect((await call('GET', OA)).body.items).toEqual([]);
  });

  it('PUT refuses a body without a source or with other fields, PATCH wants a visibility', async () => {
    const { call } = await sandbox();
    await call('POST', OA, { slug: 'pets', source: { text: JSON_TEXT } });
    expect((await call('PUT', `${OA}/pets`, {})).status).toBe(400);
    expect((await call('PUT', `${OA}/pets`, { slug: 'pets', source: { text: JSON_TEXT } })).status).toBe(400);
    expect((await call('PATCH', `${OA}/pets`, {})).status).toBe(400);
    expect((await call('PATCH', `${OA}/pets`, { visibility: 'published' })).status).toBe(400);
    expect((await call('PATCH', `${OA}/nope`, { visibility: 'public' })).status).toBe(404);
    expect((await call('GET', `${OA}/pets/versions`)).body.count).toBe(1);
  });

  it('PATCH visibility: public specs have urls.published and a public content URL', async () => {
    const clock = manualClock();
    const { call } = await sandbox({ now: clock.now });
    const made = (await call('POST', OA, { slug: 'pets', source: { text: JSON_TEXT } })).body;
    clock.advance(1000);
    await call('POST', OA, { slug: 'billing', source: { url: URL_SOURCE } });
    const pub = await call('PATCH', `${OA}/pets`, { visibility: 'public' });
    expect(pub.status).toBe(200);
    expect(pub.body.visibility).toBe('public');
    expect(Date.parse(pub.body.updatedAt) - Date.parse(made.updatedAt)).toBe(1000);
    expect(pub.body.lastProcessedAt).toBe(made.lastProcessedAt);
    expect(pub.body.urls.published).toMatch(/^https:\/\//);
    expect((await call('GET', `${OA}/pets/versions/latest/content`)).body.urls.public).toBe(pub.body.urls.published);
    await call('PATCH', `${OA}/billing`, { visibility: 'public' });
    expect((await call('GET', `${OA}/billing/versions/latest/content`)).body.urls.public).toBe(URL_SOURCE);
    const priv = await call('PATCH', `${OA}/pets`, { visibility: 'private' });
    expect(priv.body.urls).not.toHaveProperty('published');
    expect(priv.body.lastVersion).toBe(pub.body.lastVersion); // visibility publishes no version
  });

  it('DELETE: 205, then the spec and its versions are gone (204 after); a new spec with the slug starts afresh', async () => {
    const { call, sb } = await sandbox();
    const first = (await call('POST', OA, { slug: 'pets', source: { text: JSON_TEXT } })).body;
    await call('PUT', `${OA}/pets`, { source: { url: URL_SOURCE } });
    const del = await call('DELETE', `${OA}/pets`);
    expect(del.status).toBe(205);
    expect(del.body).toBeUndefined();
    for (const path of [
      '',
      '/versions',
      '/versions/latest',
      `/versions/${first.lastVersion}`,
      `/versions/${first.lastVersion}/content`,
    ]) {
      expect((await call('GET', `${OA}/pets${path}`)).status, path).toBe(404);
    }
    expect(openApiVersions(sb.store).all()).toEqual([]);
    expect((await call('DELETE', `${OA}/pets`)).status).toBe(204);
    const again = (await call('POST', OA, { slug: 'pets', source: { text: YAML_TEXT } })).body;
    expect(again.id).not.toBe(first.id);
    expect(again.lastVersion).not.toBe(first.lastVersion);
    expect((await call('GET', `${OA}/pets/versions/${first.lastVersion}`)).status).toBe(404);
    expect((await call('GET', `${OA}/pets/versions`)).body.items.map((v: Json) => v.id)).toEqual([again.lastVersion]);
  });

  it('versions are looked up within their spec; unknown ones, slugs and organizations answer 404', async () => {
    const { call } = await sandbox();
    const pets = (await call('POST', OA, { slug: 'pets', source: { text: JSON_TEXT } })).body;
    await call('POST', OA, { slug: 'orders', source: { text: JSON_TEXT } });
    expect((await call('GET', `${OA}/orders/versions/${pets.lastVersion}`)).status).toBe(404);
    expect((await call('GET', `${OA}/orders/versions/${pets.lastVersion}/content`)).status).toBe(404);
    expect((await call('GET', `${OA}/pets/versions/oasv-999`)).status).toBe(404);
    expect((await call('GET', `${OA}/nope`)).status).toBe(404);
    expect((await call('GET', `${OA}/nope/versions`)).status).toBe(404);
    expect((await call('GET', '/orgs/org-nope/openapi')).status).toBe(404);
    expect((await call('PUT', '/orgs/org-nope/openapi/pets', { source: { text: JSON_TEXT } })).status).toBe(404);
  });

  it('paginates specs and versions', async () => {
    const { call } = await sandbox();
    for (const slug of ['a', 'b', 'c']) await call('POST', OA, { slug, source: { url: `${URL_SOURCE}?${slug}` } });
    for (let i = 0; i < 2; i++) await call('PUT', `${OA}/a`, { source: { url: `${URL_SOURCE}?v=${i}` } });
    const specs = await call('GET', `${OA}?limit=2`);
    expect(specs.body.items.map((s: Json) => s.slug)).toEqual(['a', 'b']);
    const rest = await call('GET', `${OA}?limit=2&page=${encodeURIComponent(specs.body.next.page)}`);
    expect(rest.body.items.map((s: Json) => s.slug)).toEqual(['c']);
    const versions = await call('GET', `${OA}/a/versions?limit=2`);
    expect(versions.body.items.map((v: Json) => v.url)).toEqual([`${URL_SOURCE}?v=1`, `${URL_SOURCE}?v=0`]);
    const older = await call('GET', `${OA}/a/versions?limit=2&page=${encodeURIComponent(versions.body.next.page)}`);
    expect(older.body.items.map((v: Json) => v.url)).toEqual([`${URL_SOURCE}?a`]);
    expect(older.body).not.toHaveProperty('next');
  });
});

describe('OpenAPI processing (deterministic, finished within the request)', () => {
  it.each([
    ['text that is neither JSON nor YAML', { text: '{"openapi": "3.1.0", paths: [' }, 'PARSE_ERROR', 'invalid-syntax'],
    ['YAML without openapi or swagger', { text: 'title: Pets\npaths: {}\n' }, 'PARSE_ERROR', 'not-openapi'],
    ['a JSON array', { text: '[{"openapi": "3.1.0"}]' }, 'PARSE_ERROR', 'not-openapi'],
    ['a plain string', { text: 'just some words' }, 'PARSE_ERROR', 'not-openapi'],
    ['a host under .invalid', { url: 'https://unreachable.invalid/openapi.json' }, 'FETCH_ERROR', 'fetch_error'],
    [
      'a host under timeout.invalid',
      { url: 'https://api.timeout.invalid/openapi.json' },
      'FETCH_TIMEOUT',
      'fetch_timeout',
    ],
    ['a scheme other than http(s)', { url: 'ftp://files.acme.test/openapi.json' }, 'FETCH_ERROR', 'fetch_error'],
  ])('%s ⇒ %s, no version', async (_name, source, code, errorCode) => {
    const { call } = await sandbox();
    const made = await call('POST', OA, { slug: 'pets', source });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      processingState: 'complete',
      lastProcessErrorCode: code,
      lastProcessedErrorCount: 1,
    });
    expect(made.body.lastProcessedErrors).toEqual([{ message: expect.any(String), code: errorCode }]);
    expect(made.body).not.toHaveProperty('lastVersion');
    expect((await call('GET', `${OA}/pets`)).body).toEqual(made.body);
    expect((await call('GET', `${OA}/pets/versions`)).body.items).toEqual([]);
    expect((await call('GET', `${OA}/pets/versions/latest`)).status).toBe(404);
    expect((await call('GET', `${OA}/pets/versions/latest/content`)).status).toBe(404);
  });

  it('a failed update keeps the last good version; the next good one clears the errors', async () => {
    const { call } = await sandbox();
    const good = (await call('POST', OA, { slug: 'pets', source: { text: YAML_TEXT } })).body;
    const bad = await call('PUT', `${OA}/pets`, { source: { url: 'https://down.invalid/x.yaml' } });
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({
      lastVersion: good.lastVersion,
      lastProcessErrorCode: 'FETCH_ERROR',
      sourceURL: 'https://down.invalid/x.yaml',
    });
    expect((await call('GET', `${OA}/pets/versions/latest/content/raw`)).body.text).toBe(YAML_TEXT);
    const fixed = await call('PUT', `${OA}/pets`, { source: { text: SWAGGER_TEXT } });
    expect(fixed.body.lastVersion).not.toBe(good.lastVersion);
    expect(fixed.body.lastProcessedErrorCount).toBe(0);
    for (const absent of ['lastProcessErrorCode', 'lastProcessedErrors', 'sourceURL'])
      expect(fixed.body).not.toHaveProperty(absent);
    expect((await call('GET', `${OA}/pets/versions`)).body.count).toBe(2);
  });

  it('an ordinary URL, JSON, YAML and Swagger 2 text all complete', async () => {
    const { call } = await sandbox();
    const sources = [
      { url: 'http://localhost:9/openapi.yaml' },
      { text: JSON_TEXT },
      { text: YAML_TEXT },
      { text: SWAGGER_TEXT },
    ];
    for (const [i, source] of sources.entries()) {
      const res = await call('POST', OA, { slug: `s${i}`, source });
      expect(res.body.lastProcessErrorCode, JSON.stringify(source)).toBeUndefined();
      expect(res.body.lastVersion).toEqual(expect.any(String));
    }
  });
});

describe('OpenAPI spec size (no limit in the API; docops and the sandbox share OPENAPI_TEXT_MAX_BYTES)', () => {
  /** A JSON spec of exactly `bytes` bytes (quick to parse), as sent: its JSON body is larger (quotes escaped). */
  const specOf = (bytes: number): string => {
    const shell = JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Big', version: '1', description: '' },
      paths: {},
    });
    return shell.replace('"description":""', `"description":"${'a'.repeat(bytes - shell.length)}"`);
  };

  it('takes a spec as large as docops reads (its JSON body over the 5 MB other bodies may be), and refuses a larger one with 413', async () => {
    const { call } = await sandbox();
    const largest = specOf(OPENAPI_TEXT_MAX_BYTES);
    expect(Buffer.byteLength(largest)).toBe(OPENAPI_TEXT_MAX_BYTES);
    const made = await call('PUT', `${OA}/big`, { source: { text: largest } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ lastProcessedErrorCount: 0 });
    const over = await call('PUT', `${OA}/big`, { source: { text: specOf(OPENAPI_TEXT_MAX_BYTES + 1) } });
    expect(over.status).toBe(413);
    expect(over.body.error.message).toBe(`body.source.text: ${OPENAPI_TEXT_MAX_BYTES + 1} bytes; at most 25 MiB`);
    // Other operations keep the general limit.
    expect((await call('PATCH', '/orgs/org-demo', { title: 'x'.repeat(6 * 1024 * 1024) })).status).toBe(413);
  });
});
