/**
 * Pruning collections offline: each delete lists the spaces it takes (soft delete), fetch reads the spaces only
 * when a collection would be deleted, and no delete takes an object a manifest describes — it is moved out
 * first (its delete waits for the move), or, when its manifest puts it in the collection, the delete is blocked.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredEntry, DiffContext } from '../../../src/model/kind.js';
import { collectionKind } from '../../../src/kinds/collection/kind.js';
import type { CollectionSpec } from '../../../src/kinds/collection/model.js';
import { siteKind } from '../../../src/kinds/site/kind.js';
import { spaceKind } from '../../../src/kinds/space/kind.js';
import type { SpaceSpec } from '../../../src/kinds/space/model.js';
import { desiredOf, fakeDiffContext, fakeDoc, fakeFetchContext } from '../helpers.js';
import { ORG } from '../seed.js';

const COLLECTIONS = `/orgs/${ORG}/collections`;
const SPACES = `/orgs/${ORG}/spaces`;
const SITES = `/orgs/${ORG}/sites`;
const space = (id: string, title: string, parent?: string) => ({
  object: 'space',
  id,
  title,
  emoji: '',
  ...(parent ? { parent } : {}),
});
const routes = () => ({
  [COLLECTIONS]: [
    { object: 'collection', id: 'col-product', title: 'Product docs' },
    { object: 'collection', id: 'col-internal', title: 'Internal' },
    { object: 'collection', id: 'col-old', title: 'Old', parent: 'col-internal' },
  ],
  [SPACES]: [
    space('sp-getting-started', 'Getting Started', 'col-product'),
    space('sp-runbooks', 'Runbooks', 'col-internal'),
    space('sp-archive', 'Archive', 'col-old'),
    space('sp-changelog', 'Changelog'),
  ],
  // Site "Help": section guides shows Changelog and Runbooks, section archive only Archive.
  [SITES]: [{ object: 'site', id: 'site-help', title: 'Help' }],
  [`${SITES}/site-help/sections`]: [
    { object: 'site-section', id: 'sec-guides', path: 'guides', title: 'Guides', default: true },
    { object: 'site-section', id: 'sec-archive', path: 'archive', title: 'Archive' },
  ],
  [`${SITES}/site-help/site-spaces`]: [
    {
      object: 'site-space',
      id: 'ss-cl',
      path: 'changelog',
      section: 'sec-guides',
      space: space('sp-changelog', 'Changelog'),
      default: true,
    },
    {
      object: 'site-space',
      id: 'ss-rb',
      path: 'runbooks',
      section: 'sec-guides',
      space: space('sp-runbooks', 'Runbooks'),
    },
    {
      object: 'site-space',
      id: 'ss-ar',
      path: 'archive',
      section: 'sec-archive',
      space: space('sp-archive', 'Archive'),
      default: true,
    },
  ],
});
const PURGE = 'when the space is purged, 7 days after its delete, unless restored';
const purged = (kind: string, key: string, id: string) => ({
  kind,
  org: ORG,
  key,
  id,
  note: kind === 'SiteSpace' ? PURGE : 'when its last space is purged, 7 days after the delete, unless restored',
});
/** ctx.resolve also finds live collections by title (the engine seeds live ids). */
const LIVE_TITLES = {
  [`Collection|${ORG}|Product docs`]: 'col-product',
  [`Collection|${ORG}|Internal`]: 'col-internal',
  [`Collection|${ORG}|Old`]: 'col-old',
};
const collections = (...specs: Record<string, unknown>[]) =>
  desiredOf(
    collectionKind,
    specs.map((s) => fakeDoc('Collection', ORG, s)),
  );
const spaces = (...specs: Record<string, unknown>[]) =>
  desiredOf(
    spaceKind,
    specs.map((s) => fakeDoc('Space', ORG, s)),
  );

/** Fetch (with the given prune) and diff the Collection kind; `others` are the other kinds' entries. */
async function prunePlan(
  desired: DesiredEntry<CollectionSpec>[],
  opts: { prune?: string[]; others?: DesiredEntry[]; ctx?: DiffContext } = {},
) {
  const prune = opts.prune ?? ['Collection'];
  const fetchCtx = fakeFetchContext(routes(), prune);
  const live = await collectionKind.fetch(fetchCtx, ORG, desired);
  const result = collectionKind.diff(
    opts.ctx ?? fakeDiffContext({ prune, desired: opts.others ?? [], registered: LIVE_TITLES }),
    ORG,
    desired,
    live,
  );
  return { live, result, asked: fetchCtx.asked };
}

const steps = (r: {
  steps: {
    id: string;
    dependsOn: string[];
    cascades?: unknown[];
    requests: { method: string; path: string; body?: unknown }[];
  }[];
}) =>
  r.steps.map((s) => ({
    id: s.id,
    dependsOn: s.dependsOn,
    cascades: s.cascades ?? [],
    requests: s.requests.map((q) => `${q.method} ${q.path}${q.body === undefined ? '' : ` ${JSON.stringify(q.body)}`}`),
  }));

const soft = (key: string, id: string) => ({
  kind: 'Space',
  org: ORG,
  key,
  id,
  note: 'soft delete: restorable for 7 days',
});

describe('Collection prune: cascades', () => {
  it('each delete lists the spaces directly inside it (soft delete); nested collections have their own step', async () => {
    const { result, asked, live } = await prunePlan(collections({ title: 'Product docs' }));
    expect(steps(result)).toEqual([
      {
        id: 'Collection/org-demo/Internal#delete',
        dependsOn: [],
        cascades: [soft('Runbooks', 'sp-runbooks'), purged('SiteSpace', 'Help/guides/Runbooks', 'ss-rb')],
        requests: ['DELETE /collections/col-internal'],
      },
      {
        id: 'Collection/org-demo/Old#delete',
        dependsOn: [],
        // The archive section shows only Archive: it goes when Archive is purged.
        cascades: [
          soft('Archive', 'sp-archive'),
          purged('SiteSpace', 'Help/archive/Archive', 'ss-ar'),
          purged('SiteSection', 'Help/archive', 'sec-archive'),
        ],
        requests: ['DELETE /collections/col-old'],
      },
    ]);
    expect(result.blocked).toEqual([]);
    expect(asked).toEqual([
      COLLECTIONS,
      SPACES,
      SITES,
      `${SITES}/site-help/sections`,
      `${SITES}/site-help/site-spaces`,
    ]);
    // The spaces, sections and site spaces read are counted by the gate as live objects.
    expect(live.related?.map((o) => `${o.kind}:${o.id}`)).toEqual([
      'Space:sp-getting-started',
      'Space:sp-runbooks',
      'Space:sp-archive',
      'Space:sp-changelog',
      'SiteSection:sec-guides',
      'SiteSection:sec-archive',
      'SiteSpace:ss-cl',
      'SiteSpace:ss-rb',
      'SiteSpace:ss-ar',
    ]);
  });

  it('reads no spaces when nothing would be deleted (prune off, or every collection described)', async () => {
    expect((await prunePlan(collections({ title: 'Product docs' }), { prune: [] })).asked).toEqual([COLLECTIONS]);
    const all = await prunePlan(collections({ title: 'Product docs' }, { title: 'Internal' }, { title: 'Old' }));
    expect(all.asked).toEqual([COLLECTIONS]);
    expect(all.result.steps.filter((s) => s.phase === 'prune')).toEqual([]);
  });

  it('a space the Space kind prunes itself is not repeated as a cascade', async () => {
    const others = spaces({ title: 'Getting Started' });
    const { result } = await prunePlan(collections({ title: 'Product docs' }), {
      prune: ['Collection', 'Space'],
      others,
    });
    expect(steps(result).map((s) => [s.id, s.cascades])).toEqual([
      ['Collection/org-demo/Internal#delete', []],
      ['Collection/org-demo/Old#delete', []],
    ]);
  });
});

describe('Collection prune never takes a managed object', () => {
  it('a described space whose manifest writes no parent is moved to the top level first; the deletes holding it wait', async () => {
    const { result } = await prunePlan(collections({ title: 'Product docs' }), {
      others: spaces({ title: 'Archive' }),
    });
    expect(steps(result)).toEqual([
      {
        id: 'Space/org-demo/Archive#move',
        dependsOn: [],
        cascades: [],
        requests: ['POST /spaces/sp-archive/move {"parent":null}'],
      },
      {
        id: 'Collection/org-demo/Internal#delete',
        dependsOn: ['Space/org-demo/Archive#move'],
        cascades: [soft('Runbooks', 'sp-runbooks'), purged('SiteSpace', 'Help/guides/Runbooks', 'ss-rb')],
        requests: ['DELETE /collections/col-internal'],
      },
      {
        id: 'Collection/org-demo/Old#delete',
        dependsOn: ['Space/org-demo/Archive#move'],
        cascades: [],
        requests: ['DELETE /collections/col-old'],
      },
    ]);
    const move = result.steps[0]!;
    expect(move).toMatchObject({
      kind: 'Space',
      action: 'update',
      phase: 'update',
      wave: 26,
      before: { parent: 'col-old' },
      after: { parent: null },
      source: { file: 'space.yaml' },
    });
    expect(move.note).toBe('moved to the top level before collection "Old" is deleted (prune), which would delete it');
  });

  it('a described space its manifest moves elsewhere is moved by the Space kind; the delete waits for that move', async () => {
    const ctx = fakeDiffContext({
      prune: ['Collection'],
      desired: spaces({ title: 'Runbooks', parent: 'Product docs' }),
      registered: LIVE_TITLES,
    });
    const { result } = await prunePlan(collections({ title: 'Product docs' }), { ctx });
    expect(steps(result).map((s) => [s.id, s.dependsOn])).toEqual([
      ['Collection/org-demo/Internal#delete', ['Space/org-demo/Runbooks#move']],
      ['Collection/org-demo/Old#delete', []],
    ]);
    // …which the Space kind does plan (same resolution of the parent).
    const spaceLive = await spaceKind.fetch(
      fakeFetchContext(routes()),
      ORG,
      ctx.desired('Space', ORG) as DesiredEntry<SpaceSpec>[],
    );
    const spaceSteps = spaceKind.diff(
      ctx,
      ORG,
      ctx.desired('Space', ORG) as DesiredEntry<SpaceSpec>[],
      spaceLive,
    ).steps;
    expect(spaceSteps.map((s) => s.id)).toContain('Space/org-demo/Runbooks#move');
  });

  it('a space whose manifest puts it in a collection being deleted blocks that delete and the deletes holding it', async () => {
    const { result } = await prunePlan(collections({ title: 'Product docs' }), {
      others: spaces({ title: 'Archive', parent: 'Old' }),
    });
    expect(result.steps).toEqual([]);
    expect(result.blocked).toEqual([
      {
        kind: 'Collection',
        org: ORG,
        key: 'Old',
        message:
          'not deleted (prune): space "Archive" (space.yaml:10:2) is to be inside it, and deleting a collection deletes what is inside it; write another parent, or describe the collection in a manifest',
        source: { file: 'space.yaml', line: 10, column: 2 },
      },
      {
        kind: 'Collection',
        org: ORG,
        key: 'Internal',
        message: 'not deleted (prune): it holds collection "Old", which cannot be deleted (see there)',
        source: { file: 'space.yaml', line: 10, column: 2 },
      },
    ]);
    expect(result.unmanaged).toEqual([]);
  });

  it('so does a new space created into it (named by id), while the collections below it are still deleted', async () => {
    const { result } = await prunePlan(collections({ title: 'Product docs' }), {
      others: spaces({ title: 'Notes', parent: 'col-internal' }),
    });
    expect(result.blocked.map((b) => b.key)).toEqual(['Internal']);
    expect(result.blocked[0]!.message).toMatch(
      /^not deleted \(prune\): new space "Notes" \(space\.yaml:10:2\) is to be inside it, /,
    );
    expect(steps(result).map((s) => s.id)).toEqual(['Collection/org-demo/Old#delete']);
  });

  it('a described collection inside one being deleted is moved out (no parent written) or blocks it (parent written)', async () => {
    const out = await prunePlan(collections({ title: 'Product docs' }, { title: 'Old' }));
    expect(steps(out.result)).toEqual([
      {
        id: 'Collection/org-demo/Old#move',
        dependsOn: [],
        cascades: [],
        requests: ['POST /collections/col-old/move {"parent":null}'],
      },
      {
        id: 'Collection/org-demo/Internal#delete',
        dependsOn: ['Collection/org-demo/Old#move'],
        cascades: [soft('Runbooks', 'sp-runbooks'), purged('SiteSpace', 'Help/guides/Runbooks', 'ss-rb')],
        requests: ['DELETE /collections/col-internal'],
      },
    ]);
    // Its spaces move with it: Archive is not taken.
    const stays = await prunePlan(collections({ title: 'Product docs' }, { title: 'Old', parent: 'Internal' }));
    expect(stays.result.steps).toEqual([]);
    expect(stays.result.blocked.map((b) => [b.key, b.source])).toEqual([
      ['Internal', { file: 'collection.yaml', line: 10, column: 2 }],
    ]);
    // A new collection under it, likewise.
    const created = await prunePlan(collections({ title: 'Product docs' }, { title: 'Drafts', parent: 'Internal' }));
    expect(created.result.blocked.map((b) => b.key)).toEqual(['Internal']);
    expect(created.result.steps.map((s) => s.id)).toEqual([
      'Collection/org-demo/Drafts#create',
      'Collection/org-demo/Old#delete',
    ]);
  });

  it('a live space a Site manifest shows is moved out first (it names no parent), the move pointing at the site', async () => {
    const site = desiredOf(siteKind, [fakeDoc('Site', ORG, { title: 'Help', spaces: ['Runbooks'] }, 'site.yaml')]);
    const { result } = await prunePlan(collections({ title: 'Product docs' }), { others: site });
    expect(steps(result).map((s) => [s.id, s.dependsOn, s.cascades.length])).toEqual([
      ['Space/org-demo/Runbooks#move', [], 0],
      ['Collection/org-demo/Internal#delete', ['Space/org-demo/Runbooks#move'], 0],
      ['Collection/org-demo/Old#delete', [], 3],
    ]);
    expect(result.steps[0]!.source).toMatchObject({ file: 'site.yaml' });
  });
});
