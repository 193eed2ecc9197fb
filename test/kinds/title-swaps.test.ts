/**
 * Two objects of a title-or-id kind that swap titles, both pinned by id (issue 12: the swap class beyond sites):
 * neither the API nor the sandbox refuses two objects sharing a title for a moment, and the renames of one plan
 * run in one group, so one apply reaches the swapped titles and the next plan is empty. For every such kind.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import { applyPlan } from '../../src/engine/apply.js';
import type { DesiredEntry } from '../../src/model/kind.js';
import { computePlan } from '../../src/engine/reconcile.js';
import { KINDS } from '../../src/kinds/index.js';
import { desiredOf, fakeDoc } from './helpers.js';
import { sandboxPerTest } from './sandbox-per-test.js';

const ORG = 'org-demo';
const start = sandboxPerTest('title-swaps');
const entries = (kind: string, specs: Record<string, unknown>[]): Map<string, DesiredEntry[]> =>
  new Map([
    [
      kind,
      desiredOf(
        KINDS.find((k) => k.kind === kind)!,
        specs.map((s) => fakeDoc(kind, ORG, s)),
      ),
    ],
  ]);

async function converge(client: ApiClient, desired: Map<string, DesiredEntry[]>): Promise<string[]> {
  const { plan } = await computePlan(client, KINDS, desired);
  expect(plan.blocked).toEqual([]);
  expect(plan.warnings).toEqual([]);
  const report = await applyPlan(client, plan);
  expect(report.failed).toEqual([]);
  const next = (await computePlan(client, KINDS, desired)).plan;
  expect(next.steps).toEqual([]);
  expect(next.blocked).toEqual([]);
  return plan.steps.map((s) => s.id);
}

const titles = async (client: ApiClient, path: string, ids: string[]): Promise<string[]> => {
  const list = await client.listAll<{ id: string; title: string }>(path);
  return ids.map((id) => list.find((x) => x.id === id)!.title);
};

describe('two pinned objects swap titles in one apply', () => {
  it('teams', async () => {
    const r = await start();
    const steps = await converge(
      r.client,
      entries('Team', [
        { title: 'Writers', id: 'team-platform' },
        { title: 'Platform', id: 'team-writers' },
      ]),
    );
    expect(steps.sort()).toEqual(['Team/org-demo/Platform#update', 'Team/org-demo/Writers#update']);
    expect(await titles(r.client, `/orgs/${ORG}/teams`, ['team-platform', 'team-writers'])).toEqual([
      'Writers',
      'Platform',
    ]);
  });

  it('collections', async () => {
    const r = await start();
    await converge(
      r.client,
      entries('Collection', [
        { title: 'Internal', id: 'col-product' },
        { title: 'Product docs', id: 'col-internal' },
      ]),
    );
    expect(await titles(r.client, `/orgs/${ORG}/collections`, ['col-product', 'col-internal'])).toEqual([
      'Internal',
      'Product docs',
    ]);
  });

  it('spaces', async () => {
    const r = await start();
    await converge(
      r.client,
      entries('Space', [
        { title: 'Changelog', id: 'sp-runbooks' },
        { title: 'Runbooks', id: 'sp-changelog' },
      ]),
    );
    expect(await titles(r.client, `/orgs/${ORG}/spaces`, ['sp-runbooks', 'sp-changelog'])).toEqual([
      'Changelog',
      'Runbooks',
    ]);
  });

  it('translations', async () => {
    const r = await start();
    const made = await r.client.request<{ id: string }>('POST', `/orgs/${ORG}/translations`, {
      body: { title: 'German docs' },
    });
    const de = made.body!.id;
    await converge(
      r.client,
      entries('Translation', [
        { title: 'German docs', id: 'tr-fr' },
        { title: 'French docs', id: de },
      ]),
    );
    expect(await titles(r.client, `/orgs/${ORG}/translations`, ['tr-fr', de])).toEqual(['German docs', 'French docs']);
  });

  it('sites', async () => {
    const r = await start();
    await converge(r.client, entries('Site', [{ title: 'Help Center' }, { title: 'Developer Portal' }]));
    const sites = await r.client.listAll<{ id: string; title: string }>(`/orgs/${ORG}/sites`);
    const help = sites.find((s) => s.title === 'Help Center')!.id;
    const dev = sites.find((s) => s.title === 'Developer Portal')!.id;
    await converge(
      r.client,
      entries('Site', [
        { title: 'Developer Portal', id: help },
        { title: 'Help Center', id: dev },
      ]),
    );
    expect(await titles(r.client, `/orgs/${ORG}/sites`, [help, dev])).toEqual(['Developer Portal', 'Help Center']);
  });
});
