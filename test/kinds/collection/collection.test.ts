import { ref } from '../../../src/model/refs.js';
/**
 * Collection kind offline: create (nested under live or new collections), update, re-parent, prune child-first, cycles;
 * and re-parenting of collections and spaces end to end against the sandbox.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import { orderSteps } from '../../../src/engine/order.js';
import { computePlan } from '../../../src/engine/reconcile.js';
import { collectionKind } from '../../../src/kinds/collection/kind.js';
import { parentNamer } from '../../../src/kinds/parent-refs.js';
import { KINDS } from '../../../src/kinds/index.js';
import { loadManifests } from '../../../src/manifests/index.js';
import { sandboxPerTest } from '../sandbox-per-test.js';
import { desiredOf, fakeDiffContext, fakeDoc, plan, reports, identityLookup } from '../helpers.js';
import { ORG } from '../seed.js';

const routes = () => ({
  [`/orgs/${ORG}/collections`]: [
    { object: 'collection', id: 'col-product', title: 'Product docs', defaultLevel: null },
    { object: 'collection', id: 'col-internal', title: 'Internal', defaultLevel: null },
    { object: 'collection', id: 'col-old', title: 'Old', parent: 'col-internal', defaultLevel: null },
  ],
});
const desired = (...specs: Record<string, unknown>[]) =>
  desiredOf(
    collectionKind,
    specs.map((s) => fakeDoc('Collection', ORG, s)),
  );
const SEED = [{ title: 'Product docs' }, { title: 'Internal' }, { title: 'Old', parent: 'Internal' }];
const summary = (steps: Parameters<typeof orderSteps>[0]) =>
  orderSteps(steps).map((s) => [
    s.id,
    s.phase,
    s.wave,
    s.dependsOn,
    s.requests.map((r) => `${r.method} ${r.path}${r.body === undefined ? '' : ` ${JSON.stringify(r.body)}`}`),
  ]);

describe('Collection diff', () => {
  it('plans nothing when collections match (parents by title or id)', async () => {
    const { result } = await plan(
      collectionKind,
      ORG,
      desired({ title: 'Product docs' }, { title: 'Internal' }, { title: 'Old', parent: 'col-internal' }),
      routes(),
    );
    expect(result).toEqual({ steps: [], unmanaged: [], warnings: [], blocked: [] });
  });

  it('a pinned collection sharing its title, blocked by its parent, registers nothing; its namesake plans', async () => {
    // Same-titled pinned entries are keyed `Title (id)` by copies of the entries: the block must hold for the copy.
    const ctx = fakeDiffContext();
    const dup = [
      { object: 'collection', id: 'col-a', title: 'Shared', defaultLevel: null },
      { object: 'collection', id: 'col-b', title: 'Shared', defaultLevel: null },
    ];
    const { result } = await plan(
      collectionKind,
      ORG,
      desired(
        ...SEED,
        { title: 'Shared', id: 'col-a', parent: 'Nowhere' },
        { title: 'Shared', id: 'col-b', description: 'B' },
      ),
      { [`/orgs/${ORG}/collections`]: [...routes()[`/orgs/${ORG}/collections`], ...dup] },
      ctx,
    );
    expect(result.blocked.map((b) => [b.key, b.message])).toEqual([
      [
        'Shared (col-a)',
        'parent collection "Nowhere" is neither a Collection manifest nor a live collection (by title or id)',
      ],
    ]);
    expect(result.steps.map((s) => s.id)).toEqual(['Collection/org-demo/Shared (col-b)#update']);
    expect(ctx.resolve('Collection', ORG, 'Shared (col-a)')).toBeUndefined();
    expect(ctx.resolve('Collection', ORG, 'Shared (col-b)')).toBe('col-b');
  });

  it('creates under a live parent in one POST, and under a new parent by moving it one wave later', async () => {
    const ctx = fakeDiffContext();
    const { result } = await plan(
      collectionKind,
      ORG,
      desired(
        ...SEED,
        { title: 'Guides', parent: 'Product docs', description: 'How-tos', defaultLevel: 'read' },
        { title: 'Team A', parent: 'Teams' },
        { title: 'Teams' },
      ),
      routes(),
      ctx,
    );
    expect(summary(result.steps)).toEqual([
      [
        'Collection/org-demo/Guides#create',
        'create',
        24,
        [],
        [
          'POST /orgs/org-demo/collections {"title":"Guides","parent":"col-product"}',
          'PATCH /collections/<<ref:Collection/org-demo/Guides#create.id>> {"description":"How-tos","defaultLevel":"read"}',
        ],
      ],
      ['Collection/org-demo/Team A#create', 'create', 24, [], ['POST /orgs/org-demo/collections {"title":"Team A"}']],
      ['Collection/org-demo/Teams#create', 'create', 24, [], ['POST /orgs/org-demo/collections {"title":"Teams"}']],
      [
        'Collection/org-demo/Team A#parent',
        'create',
        25,
        ['Collection/org-demo/Team A#create', 'Collection/org-demo/Teams#create'],
        [
          'POST /collections/<<ref:Collection/org-demo/Team A#create.id>>/move {"parent":"<<ref:Collection/org-demo/Teams#create.id>>"}',
        ],
      ],
    ]);
    expect(ctx.registered.get(`Collection|${ORG}|Teams`)).toBe(ref('Collection/org-demo/Teams#create'));
    expect(ctx.registered.get(`Collection|${ORG}|Internal`)).toBe('col-internal');
  });

  it('updates changed fields with one PATCH and re-parents with a move', async () => {
    const { result } = await plan(
      collectionKind,
      ORG,
      desired(
        { title: 'Product documentation', id: 'col-product', defaultLevel: 'comment' },
        { title: 'Internal' },
        { title: 'Old', parent: null },
      ),
      routes(),
    );
    expect(summary(result.steps)).toEqual([
      ['Collection/org-demo/Old#move', 'update', 24, [], ['POST /collections/col-old/move {"parent":null}']],
      [
        'Collection/org-demo/Product documentation#update',
        'update',
        24,
        [],
        ['PATCH /collections/col-product {"title":"Product documentation","defaultLevel":"comment"}'],
      ],
    ]);
  });

  it('lists unmanaged collections, and under prune deletes nested ones first', async () => {
    const off = await plan(collectionKind, ORG, desired({ title: 'Product docs' }), routes());
    expect(off.result.steps).toEqual([]);
    expect(off.result.unmanaged.map((u) => u.key)).toEqual(['Internal', 'Old']);
    const on = await plan(
      collectionKind,
      ORG,
      desired({ title: 'Product docs' }),
      routes(),
      fakeDiffContext({ prune: ['Collection'] }),
    );
    expect(summary(on.result.steps)).toEqual([
      ['Collection/org-demo/Old#delete', 'prune', 25, [], ['DELETE /collections/col-old']],
      ['Collection/org-demo/Internal#delete', 'prune', 24, [], ['DELETE /collections/col-internal']],
    ]);
  });

  it('a collection nested in itself through other manifests is an error at its parent', () => {
    const r = reports();
    const entries = desired({ title: 'A', parent: 'B' }, { title: 'B', parent: 'A' }, { title: 'C', parent: 'A' });
    const all = new Map([['Collection', entries]]);
    collectionKind.crossValidate!(entries, all, r.report, identityLookup(all));
    expect(r.list.map((x) => x.message)).toEqual([
      'collection "A" is nested in itself (through parent "B")',
      'collection "B" is nested in itself (through parent "A")',
    ]);
  });

  it('an unknown parent blocks the collection (more in refs-collection.test.ts)', async () => {
    const { result } = await plan(collectionKind, ORG, desired(...SEED, { title: 'X', parent: 'Nowhere' }), routes());
    expect(result.steps).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.blocked.map((b) => [b.key, b.message])).toEqual([
      ['X', 'parent collection "Nowhere" is neither a Collection manifest nor a live collection (by title or id)'],
    ]);
  });
});

describe('Collection and Space re-parenting against the sandbox', () => {
  const start = sandboxPerTest('reparent');
  const doc = (kind: string, spec: Record<string, unknown>): string =>
    `apiVersion: docops/v1\nkind: ${kind}\nmetadata: { organization: org-demo }\nspec: ${JSON.stringify(spec)}\n`;

  it('moves spaces and collections under new and live parents in one apply; the next plan is empty', async () => {
    const r = await start();
    const docs = [
      doc('Collection', { title: 'Product docs' }),
      doc('Collection', { title: 'Guides', parent: 'Product docs' }), // new, under a live parent
      doc('Collection', { title: 'Deep', parent: 'Guides' }), // new, under a new parent
      doc('Collection', { title: 'Internal', parent: 'Guides' }), // live, moved under a new parent
      doc('Space', { title: 'Changelog', parent: 'Deep' }), // live top-level space into a new nested collection
      doc('Space', { title: 'API Reference', parent: 'Internal' }), // live space into another live collection
    ];
    writeFileSync(join(r.dir, 'content.yaml'), docs.join('---\n'));
    const { desired } = await loadManifests(r.dir, KINDS, { env: {} });
    const { plan: first } = await computePlan(r.client, KINDS, desired);
    expect(first.steps.map((s) => `${s.id} ${s.phase}:${s.wave}`)).toEqual([
      'Collection/org-demo/Deep#create create:24',
      'Collection/org-demo/Guides#create create:24',
      'Collection/org-demo/Deep#parent create:25',
      'Collection/org-demo/Internal#move update:24',
      'Space/org-demo/API Reference#move update:26',
      'Space/org-demo/Changelog#move update:26',
    ]);
    const report = await applyPlan(r.client, first);
    expect(report.failed).toEqual([]);

    const byTitle = new Map(
      (await r.client.listAll<{ id: string; title: string; parent?: string }>('/orgs/org-demo/collections')).map(
        (c) => [c.title, c],
      ),
    );
    const id = (title: string): string => byTitle.get(title)!.id;
    expect(byTitle.get('Guides')!.parent).toBe('col-product');
    expect(byTitle.get('Deep')!.parent).toBe(id('Guides'));
    expect(byTitle.get('Internal')!.parent).toBe(id('Guides'));
    const spaceParent = async (sp: string) => (await r.client.get<{ parent?: string }>(`/spaces/${sp}`)).parent;
    expect(await spaceParent('sp-changelog')).toBe(id('Deep'));
    expect(await spaceParent('sp-api')).toBe('col-internal');

    const next = (await computePlan(r.client, KINDS, desired)).plan;
    expect(next.steps).toEqual([]);
    expect(next.warnings).toEqual([]);
  });
});

describe('export names a parent collection', () => {
  it('by its title when no other live collection has it, else by its id', () => {
    const name = parentNamer([
      { id: 'c1', title: 'Product docs' },
      { id: 'c2', title: 'Team' },
      { id: 'c3', title: 'Team' },
    ]);
    expect(name('c1')).toBe('Product docs');
    expect(name('c2')).toBe('c2');
    expect(name('gone')).toBe('gone');
  });
});
