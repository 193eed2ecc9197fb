/**
 * The example manifests against the demo seed: they load and validate with the real loader, and a first plan
 * through the engine is the small change set they promise (not a wall of creates).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/types.js';
import { computePlan } from '../../src/core/reconcile.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import { seedRoutes } from './seed.js';

const EXAMPLES = fileURLToPath(new URL('../../config.example/manifests', import.meta.url));

/** A read-only client over the seed routes, counting requests per path. */
function seedClient(): ApiClient & { calls: Map<string, number> } {
  const routes = seedRoutes();
  const calls = new Map<string, number>();
  const body = (path: string): unknown => {
    calls.set(path, (calls.get(path) ?? 0) + 1);
    if (!(path in routes)) throw new Error(`unexpected GET ${path}`);
    return structuredClone(routes[path]);
  };
  return {
    calls,
    baseUrl: 'http://127.0.0.1/v1',
    request: () => Promise.reject(new Error('a plan must not write')),
    get: <T>(path: string) => Promise.resolve(body(path) as T),
    paginate: () => {
      throw new Error('not used');
    },
    listAll: <T>(path: string) => Promise.resolve(body(path) as T[]),
    close: () => Promise.resolve(),
  };
}

describe('config.example/manifests against the demo seed', () => {
  it('validate with the loader and the kind schemas', async () => {
    const { desired } = await loadManifests(EXAMPLES, KINDS);
    expect(desired.get('Organization')).toHaveLength(1);
    expect(desired.get('Members')).toHaveLength(10);
    expect(desired.get('Team')!.map((e) => e.key)).toEqual(['Platform', 'Writers', 'Support', 'Security']);
    expect(desired.get('Translation')!.map((e) => e.id)).toEqual(['tr-fr']);
  });

  it('plan one role change, one new team and one membership change', async () => {
    const { desired } = await loadManifests(EXAMPLES, KINDS);
    const client = seedClient();
    const { plan } = await computePlan(client, KINDS, desired);
    expect(plan.steps.map((s) => [s.id, s.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body)}`)])).toEqual([
      ['Team/org-demo/Security#create', ['PUT /orgs/org-demo/teams {"title":"Security","members":["u-grace","u-ada"]}']],
      [
        'Team/org-demo/Security#members',
        ['PUT /orgs/org-demo/teams/<<ref:Team/org-demo/Security#create.id>>/members {"memberships":{"u-grace":{"role":"owner"}}}'],
      ],
      ['Members/org-demo/frank@acme.test#update', ['PATCH /orgs/org-demo/members/u-frank {"role":"comment"}']],
      ['Team/org-demo/Writers#members', ['PUT /orgs/org-demo/teams/team-writers/members {"add":["u-dan"]}']],
    ]);
    expect(plan.unmanaged).toEqual([]);
    expect(plan.warnings).toEqual([]);
    // Members and Team share one memoised member list; only managed teams' member lists are read.
    expect(client.calls.get('/orgs/org-demo/members')).toBe(1);
    expect([...client.calls.keys()].filter((p) => p.endsWith('/members') && p.includes('/teams/')).sort()).toEqual([
      '/orgs/org-demo/teams/team-platform/members',
      '/orgs/org-demo/teams/team-support/members',
      '/orgs/org-demo/teams/team-writers/members',
    ]);
  });
});
