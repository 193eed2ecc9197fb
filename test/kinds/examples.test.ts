/**
 * The example manifests against the demo seed: they load and validate with the real loader, and a first plan
 * through the engine is the small change set they promise (not a wall of creates).
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { computePlan } from '../../src/engine/reconcile.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import { startSandbox } from '@docops/sandbox';

const EXAMPLES = fileURLToPath(new URL('../../config.example/manifests', import.meta.url));

const running: { close(): Promise<void> }[] = [];
afterEach(
  async () =>
    void (await Promise.all(
      running
        .splice(0)
        .reverse()
        .map((r) => r.close()),
    )),
);

/** The demo sandbox and a real client; `gets()` reads the paths the sandbox saw (its own stats). */
async function demo() {
  const sb = await startSandbox({ seed: 'demo' });
  const client = createClient({ baseUrl: sb.url, token: sb.token });
  running.push(sb, client);
  const gets = () =>
    sb
      .stats()
      .requests.filter((r) => r.method === 'GET')
      .map((r) => r.path.replace(/^\/v1/, '').replace(/\?.*$/, ''));
  return { client, gets };
}

describe('config.example/manifests against the demo seed', () => {
  it('validate with the loader and the kind schemas', async () => {
    const { desired } = await loadManifests(EXAMPLES, KINDS);
    expect(desired.get('Organization')).toHaveLength(1);
    expect(desired.get('Members')).toHaveLength(10);
    expect(desired.get('Team')!.map((e) => e.key)).toEqual(['Platform', 'Writers', 'Support', 'Security']);
    expect(desired.get('Translation')!.map((e) => e.id)).toEqual(['tr-fr']);
    expect(desired.get('OpenAPISpec')!.map((e) => e.key)).toEqual(['petstore']);
  });

  it('plan one role change, one new team and one membership change', async () => {
    const { desired } = await loadManifests(EXAMPLES, KINDS);
    const { client, gets } = await demo();
    const { plan } = await computePlan(client, KINDS, desired);
    expect(
      plan.steps
        .filter((s) => !s.kind.startsWith('Site') && s.kind !== 'OpenAPISpec')
        .map((s) => [s.id, s.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body)}`)]),
    ).toEqual([
      [
        'Team/org-demo/Security#create',
        ['PUT /orgs/org-demo/teams {"title":"Security","members":["u-grace","u-ada"]}'],
      ],
      [
        'Team/org-demo/Security#members',
        [
          'PUT /orgs/org-demo/teams/<<ref:Team/org-demo/Security#create.id>>/members {"memberships":{"u-grace":{"role":"owner"}}}',
        ],
      ],
      ['Members/org-demo/frank@acme.test#update', ['PATCH /orgs/org-demo/members/u-frank {"role":"comment"}']],
      ['Team/org-demo/Writers#members', ['PUT /orgs/org-demo/teams/team-writers/members {"add":["u-dan"]}']],
    ]);
    // The demo seed has no site yet: the example creates the Acme Help Center.
    expect(plan.steps.find((s) => s.kind === 'Site')?.action).toBe('create');
    // …and no OpenAPI spec: the example's spec is created.
    expect(plan.steps.filter((s) => s.kind === 'OpenAPISpec').map((s) => s.id)).toEqual([
      'OpenAPISpec/org-demo/petstore#create',
    ]);
    expect(plan.unmanaged).toEqual([]);
    expect(plan.warnings).toEqual([]);
    // Members and Team share one memoised member list; only managed teams' member lists are read.
    expect(gets().filter((p) => p === '/orgs/org-demo/members')).toHaveLength(1);
    expect([...new Set(gets())].filter((p) => p.endsWith('/members') && p.includes('/teams/')).sort()).toEqual([
      '/orgs/org-demo/teams/team-platform/members',
      '/orgs/org-demo/teams/team-support/members',
      '/orgs/org-demo/teams/team-writers/members',
    ]);
  });
});
