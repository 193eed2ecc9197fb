/**
 * The sandbox's routes are a table keyed by the official spec's operation ids (packages/sandbox/src/routes/
 * table.ts): each key names the spec operation its route implements, by method and path; those only
 * management-api.md has are named apart (OFF_SPEC, each with why) and must really be absent from the spec.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../packages/sandbox/src/routes/index.js';
import { OFF_SPEC, tableOf } from '../../packages/sandbox/src/routes/table.js';

type Json = Record<string, unknown>;
const spec = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json') as {
  paths: Record<string, Record<string, Json>>;
};

/** `/orgs/{organizationId}/teams` and `/v1/orgs/:organizationId/teams` alike: the parameters' names do not count. */
const shape = (path: string): string =>
  path
    .replace(/^\/v1/, '')
    .replace(/\{[^}]+\}/g, '{}')
    .replace(/:[A-Za-z]+/g, '{}');

/** operationId → `METHOD shape`, and every `METHOD shape` of the spec. */
const byId = new Map<string, string>();
const operations = new Set<string>();
for (const [path, item] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(item)) {
    if (typeof op?.['operationId'] !== 'string') continue;
    byId.set(op['operationId'], `${method.toUpperCase()} ${shape(path)}`);
    operations.add(`${method.toUpperCase()} ${shape(path)}`);
  }
}

describe('the route table', () => {
  it('keys each route by the spec operation it implements (method and path)', () => {
    const wrong = Object.entries(ROUTES)
      .filter(([id]) => !Object.hasOwn(OFF_SPEC, id))
      .filter(([id, def]) => byId.get(id) !== `${def.method} ${shape(def.pattern)}`)
      .map(([id, def]) => `${id}: ${def.method} ${def.pattern} (the spec: ${byId.get(id) ?? 'no such operation'})`);
    expect(wrong).toEqual([]);
    expect(Object.keys(ROUTES).length).toBeGreaterThan(150);
  });

  it('names apart only operations the spec does not have, each served and with its reason', () => {
    for (const [id, why] of Object.entries(OFF_SPEC)) {
      const def = ROUTES[id];
      expect(def, id).toBeDefined();
      expect(why, id).toMatch(/management-api\.md/);
      expect(byId.has(id), id).toBe(false);
      expect(operations.has(`${def!.method} ${shape(def!.pattern)}`), id).toBe(false);
    }
  });

  it('refuses an operation id in two tables', () => {
    const route = ROUTES['getTeamInOrganizationById']!;
    expect(() => tableOf({ getTeamInOrganizationById: route }, { getTeamInOrganizationById: route })).toThrow(
      /getTeamInOrganizationById is in two route tables/,
    );
  });
});
