/**
 * The kinds against the real sandbox over loopback HTTP with the real client: the example plan applies
 * cleanly and a second plan is empty; invites + a team of invitees; renames; prune.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/model/api-client.js';
import { applyPlan } from '../../src/engine/apply.js';
import type { DesiredEntry } from '../../src/model/kind.js';
import { computePlan } from '../../src/engine/reconcile.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { desiredOf, fakeDoc } from './helpers.js';

const EXAMPLES = fileURLToPath(new URL('../../config.example/manifests', import.meta.url));
const running: RunningSandbox[] = [];
const clients: ApiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(): Promise<ApiClient> {
  const sb = await startSandbox();
  running.push(sb);
  const client = createClient({ baseUrl: sb.url, token: sb.token });
  clients.push(client);
  return client;
}

/** Plan, apply, and return the ids of the applied steps plus the next plan's steps. */
async function applyAndReplan(client: ApiClient, desired: ReadonlyMap<string, DesiredEntry[]>, options = {}) {
  const { plan } = await computePlan(client, KINDS, desired, options);
  const report = await applyPlan(client, plan);
  expect(report.failed).toEqual([]);
  const again = await computePlan(client, KINDS, desired, options);
  return { applied: report.applied, next: again.plan };
}

const members = (list: { email: string; role: string | null }[], invite = false) =>
  desiredOf(KINDS[1]!, [fakeDoc('Members', 'org-demo', { invite, members: list })]);
const teams = (...specs: Record<string, unknown>[]) =>
  desiredOf(
    KINDS[2]!,
    specs.map((s) => fakeDoc('Team', 'org-demo', s)),
  );

describe('kinds against the sandbox', () => {
  it('applies the example manifests, after which the plan is empty', async () => {
    const client = await start();
    const { desired } = await loadManifests(EXAMPLES, KINDS);
    const { applied, next } = await applyAndReplan(client, desired);
    // 4 org/member/team changes plus the Acme Help Center site the demo seed doesn't have yet.
    expect(applied.filter((id) => id.startsWith('OpenAPISpec/'))).toEqual(['OpenAPISpec/org-demo/petstore#create']);
    expect(applied.filter((id) => !id.startsWith('Site') && !id.startsWith('OpenAPISpec/'))).toEqual([
      'Team/org-demo/Security#create',
      'Team/org-demo/Security#members',
      'Members/org-demo/frank@acme.test#update',
      'Team/org-demo/Writers#members',
    ]);
    expect(applied.filter((id) => id.startsWith('Site/')).length).toBeGreaterThan(0); // the site itself;
    expect(next.steps).toEqual([]);
    expect(next.warnings).toEqual([]);
  });

  it('invites missing members and builds a team of them in one apply', async () => {
    const client = await start();
    const desired = new Map([
      [
        'Members',
        members(
          [
            { email: 'ada@acme.test', role: 'admin' },
            { email: 'zoe@acme.test', role: 'edit' },
            { email: 'yan@acme.test', role: null },
          ],
          true,
        ),
      ],
      [
        'Team',
        teams({
          title: 'Newcomers',
          members: [{ email: 'zoe@acme.test', role: 'owner' }, { email: 'yan@acme.test' }, { email: 'ada@acme.test' }],
        }),
      ],
    ]);
    const { applied, next } = await applyAndReplan(client, desired);
    expect(applied).toEqual([
      'Members/org-demo/invite#create',
      'Team/org-demo/Newcomers#create',
      'Team/org-demo/Newcomers#members',
    ]);
    expect(next.steps).toEqual([]);
    const live = await client.listAll<{ role: string | null; user: { email: string } }>('/orgs/org-demo/members');
    const roleOf = (email: string) => live.find((m) => m.user.email === email)?.role;
    expect([roleOf('zoe@acme.test'), roleOf('yan@acme.test')]).toEqual(['edit', null]);
  });

  it('renames a pinned team and prunes the teams no manifest mentions', async () => {
    const client = await start();
    const desired = new Map([['Team', teams({ title: 'Platform Engineering', id: 'team-platform' })]]);
    const { applied, next } = await applyAndReplan(client, desired, { prune: { Team: true } });
    expect(applied.sort()).toEqual([
      'Team/org-demo/Platform Engineering#update',
      'Team/org-demo/Support#delete',
      'Team/org-demo/Writers#delete',
    ]);
    expect(next.steps).toEqual([]);
    const live = await client.listAll<{ title: string }>('/orgs/org-demo/teams');
    expect(live.map((t) => t.title)).toEqual(['Platform Engineering']);
  });
});
