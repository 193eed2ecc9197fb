/**
 * Request bodies pass both the sandbox's own validators (management-api.md's limits, unknown fields refused) and
 * the official spec's request schemas (packages/sandbox/src/spec-bodies.ts), and the spec's validators ship as generated
 * code that needs neither the spec nor ajv's compiler (tools/build/precompile-spec-bodies.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bodyRoutes, writeSpecBodies } from '../../tools/build/precompile-spec-bodies.js';
import { SEED_SHAPED_BODIES } from '../../packages/sandbox/src/spec-bodies.js';
import { specBodyRef } from '../../packages/sandbox/src/spec-operations.js';
import { spec } from './contract-spec.js';
import { sandbox } from './helpers.js';

const ORG = '/orgs/org-demo';

describe('bodies are checked against the official spec as well', () => {
  it('refuses what only the spec refuses, naming the field and the spec; nothing changes', async () => {
    const { call } = await sandbox();
    const cases: [method: string, path: string, body: unknown, where: string][] = [
      // A merge rule naming reviewers needs its users (the spec's oneOf); the sandbox's validator checks the names only.
      [
        'PATCH',
        ORG,
        { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers' }] } },
        'body.mergeRules',
      ],
      // The spec's minProperties: a move must say something.
      ['POST', '/spaces/sp-api/move', {}, 'body'],
    ];
    // The spec's minProperties: a share-link PATCH must change something.
    const site = (await call('POST', `${ORG}/sites`, {})).body;
    const link = (await call('POST', `${ORG}/sites/${site.id}/share-links`, { name: 'x' })).body;
    cases.push(['PATCH', `${ORG}/sites/${site.id}/share-links/${link.id}`, {}, 'body']);
    for (const [method, path, body, where] of cases) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error.message).toContain(where);
      expect(res.body.error.message).toContain("the official spec's request schema");
    }
    expect((await call('GET', ORG)).body.mergeRules).toEqual({ type: 'none' });
    expect((await call('GET', `${ORG}/spaces`)).body.items).toHaveLength(4);
  });

  it('still refuses fields neither reference lists, and applies the stricter limit where both speak', async () => {
    const { call } = await sandbox();
    const unknown = await call('PATCH', ORG, { color: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/body\.color: unknown field/);
    // management-api.md: a hostname matches the Subdomain pattern; the spec only says 3..32.
    expect((await call('PATCH', ORG, { hostname: 'Not_A_Host' })).status).toBe(400);
    // management-api.md: a condition is 1..1024 characters; the spec allows an empty one.
    const site = (await call('POST', `${ORG}/sites`, { spaces: ['sp-api'] })).body;
    const [ss] = (await call('GET', `${ORG}/sites/${site.id}/site-spaces`)).body.items;
    expect((await call('PATCH', `${ORG}/sites/${site.id}/site-spaces/${ss.id}`, { condition: '' })).status).toBe(400);
  });

  it('keeps the shapes management-api.md defines where the spec has another one', async () => {
    const { call } = await sandbox();
    // `spaces: "new"` creates a space (management-api.md); the spec's `spaces` is a list only.
    expect((await call('POST', `${ORG}/sites`, { title: 'Fresh', spaces: 'new' })).status).toBe(201);
    // Translation settings take {title} (management-api.md), not the spec's {source, language}.
    expect((await call('POST', `${ORG}/translations`, { title: 'German' })).status).toBe(201);
  });
});

describe('the generated validators (build step)', () => {
  // Inside the package (as dist/ is), so the generated code resolves ajv's runtime from its node_modules.
  const cache = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url));
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'docops-spec-bodies-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const keys = writeSpecBodies(spec, dir);
  const generated = createRequire(import.meta.url)(join(dir, 'index.cjs')) as Record<string, (v: unknown) => boolean>;

  it('cover every route with a body the spec describes, except the seed-shaped ones', () => {
    const expected = bodyRoutes()
      .filter(
        ([key, method, pattern]) => !SEED_SHAPED_BODIES.has(key) && specBodyRef(spec, method, pattern) !== undefined,
      )
      .map(([key]) => key);
    expect(Object.keys(generated).sort()).toEqual(expected.sort());
    expect(keys.length).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(40);
  });

  it('validate like the spec: allowed and refused bodies', () => {
    const patchOrg = generated['PATCH /v1/orgs/:organizationId']!;
    expect(patchOrg({ mergeRules: { type: 'none' } })).toBe(true);
    expect(patchOrg({ mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers' }] } })).toBe(false);
    const patchSection = generated['PATCH /v1/orgs/:organizationId/sites/:siteId/sections/:siteSectionId']!;
    expect(patchSection({ siteSectionGroupId: null, localizedTitle: { fr: 'Titre' } })).toBe(true);
    expect(patchSection({ localizedTitle: { xx: 'nope' } })).toBe(false);
  });

  it("need at run time only packages the installed docops depends on (not the spec, not ajv's compiler)", () => {
    const code = readFileSync(join(dir, 'validators.cjs'), 'utf8');
    const required = [...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!);
    const deps = Object.keys(
      (
        JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
          dependencies: Record<string, string>;
        }
      ).dependencies,
    );
    for (const r of required)
      expect(deps, r).toContain(r.startsWith('@') ? r.split('/').slice(0, 2).join('/') : r.split('/')[0]);
    expect(
      required.filter((r) => /^ajv\/dist\/(ajv|core|2019|2020)(\.js)?$/.test(r) || r.startsWith('@gitbook/')),
    ).toEqual([]);
  });
});
