/**
 * `parent` references of Collections and Spaces: one that resolves to nothing, or that would nest a collection
 * in itself (through ids and live parents, which validation cannot see), blocks its document before any write;
 * a blocked collection registers nothing, so what is written under it is blocked in turn.
 */
import { describe, expect, it } from 'vitest';
import { ref } from '../../../src/model/refs.js';
import { collectionKind } from '../../../src/kinds/collection/kind.js';
import { spaceKind } from '../../../src/kinds/space/kind.js';
import { desiredOf, fakeDiffContext, fakeDoc, plan } from '../helpers.js';
import { ORG } from '../seed.js';
import { SPACES } from '../site/fixtures.js';

// Live: Product docs (col-product), Internal (col-internal) > Old (col-old).
const routes = () => ({
  [`/orgs/${ORG}/collections`]: [
    { object: 'collection', id: 'col-product', title: 'Product docs', defaultLevel: null },
    { object: 'collection', id: 'col-internal', title: 'Internal', defaultLevel: null },
    { object: 'collection', id: 'col-old', title: 'Old', parent: 'col-internal', defaultLevel: null },
  ],
  [`/orgs/${ORG}/spaces`]: SPACES.map((s) => ({ ...s, editMode: 'live', defaultLevel: null })),
});
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
const NOT_FOUND = (p: string) =>
  `parent collection "${p}" is neither a Collection manifest nor a live collection (by title or id)`;
const CYCLE = (p: string, key: string) =>
  `parent collection "${p}" is collection "${key}" itself or inside it (through live or manifest parents); a collection cannot be nested in itself`;

describe('Collection parent references', () => {
  it('a parent naming nothing blocks the collection and, in turn, a new collection written under it', async () => {
    const ctx = fakeDiffContext();
    const { result } = await plan(
      collectionKind,
      ORG,
      collections(
        { title: 'Guides', parent: 'Nowhere' },
        { title: 'Deep', parent: 'Guides' },
        { title: 'Fine', parent: 'col-product' },
      ),
      routes(),
      ctx,
    );
    expect(result.blocked).toEqual([
      {
        kind: 'Collection',
        org: ORG,
        key: 'Guides',
        source: { file: 'collection.yaml', line: 10, column: 2 },
        message: NOT_FOUND('Nowhere'),
      },
      {
        kind: 'Collection',
        org: ORG,
        key: 'Deep',
        source: { file: 'collection.yaml', line: 10, column: 2 },
        message: NOT_FOUND('Guides'),
      },
    ]);
    expect(result.steps.map((s) => s.id)).toEqual(['Collection/org-demo/Fine#create']);
    expect([...ctx.registered.keys()]).toEqual([`Collection|${ORG}|Fine`]);
    // Blocked live collections stay matched: neither unmanaged nor pruned.
    const pruned = await plan(
      collectionKind,
      ORG,
      collections({ title: 'Internal', parent: 'Nowhere' }),
      routes(),
      fakeDiffContext({ prune: ['Collection'] }),
    );
    expect(pruned.result.steps.map((s) => s.id).sort()).toEqual([
      'Collection/org-demo/Old#delete',
      'Collection/org-demo/Product docs#delete',
    ]);
    expect(pruned.result.blocked.map((b) => b.key)).toEqual(['Internal']);
  });

  it('a collection id that is not live is no parent', async () => {
    const { result } = await plan(
      collectionKind,
      ORG,
      collections({ title: 'Product docs', parent: 'col-gone' }),
      routes(),
    );
    expect(result.steps).toEqual([]);
    expect(result.blocked.map((b) => b.message)).toEqual([NOT_FOUND('col-gone')]);
  });

  it('moving a collection under one of its live descendants, by id, is blocked before any write', async () => {
    // col-old is inside col-internal: Internal cannot move under it.
    const { result } = await plan(
      collectionKind,
      ORG,
      collections({ title: 'Internal', parent: 'col-old' }, { title: 'Product docs', parent: 'col-internal' }),
      routes(),
    );
    expect(result.blocked.map((b) => [b.key, b.message])).toEqual([['Internal', CYCLE('col-old', 'Internal')]]);
    expect(result.steps.map((s) => s.id)).toEqual(['Collection/org-demo/Product docs#move']);
  });

  it('two collections moved into each other through ids, or through an id and a title, are both blocked', async () => {
    const byIds = await plan(
      collectionKind,
      ORG,
      collections({ title: 'Product docs', parent: 'col-internal' }, { title: 'Internal', parent: 'col-product' }),
      routes(),
    );
    expect(byIds.result.steps).toEqual([]);
    expect(byIds.result.blocked.map((b) => [b.key, b.message])).toEqual([
      ['Product docs', CYCLE('col-internal', 'Product docs')],
      ['Internal', CYCLE('col-product', 'Internal')],
    ]);
    // A new collection under a live one that the manifests move under the new one (validation sees no cycle).
    const ctx = fakeDiffContext();
    const mixed = await plan(
      collectionKind,
      ORG,
      collections({ title: 'New', parent: 'col-product' }, { title: 'Product docs', parent: 'New' }),
      routes(),
      ctx,
    );
    expect(mixed.result.steps).toEqual([]);
    expect(mixed.result.blocked.map((b) => b.key)).toEqual(['New', 'Product docs']);
    expect(ctx.registered.size).toBe(0);
  });

  it('a move that leaves no cycle once the plan is applied is planned', async () => {
    // Old leaves Internal for the top level, Internal goes under Old.
    const { result } = await plan(
      collectionKind,
      ORG,
      collections({ title: 'Old', parent: null }, { title: 'Internal', parent: 'col-old' }),
      routes(),
    );
    expect(result.blocked).toEqual([]);
    expect(result.steps.map((s) => s.id).sort()).toEqual([
      'Collection/org-demo/Internal#move',
      'Collection/org-demo/Old#move',
    ]);
  });
});

describe('Space parent references', () => {
  it('a parent naming nothing (title or id) blocks the space: no step, no registered id', async () => {
    const ctx = fakeDiffContext({
      registered: { [`Collection|${ORG}|Guides`]: ref('Collection/org-demo/Guides#create') },
    });
    const { result } = await plan(
      spaceKind,
      ORG,
      spaces(
        { title: 'Tutorials', parent: 'Guidez' },
        { title: 'Runbooks', emoji: '🛠', parent: 'col-gone' },
        { title: 'Setup', parent: 'Guides' },
      ),
      routes(),
      ctx,
    );
    expect(result.blocked).toEqual([
      {
        kind: 'Space',
        org: ORG,
        key: 'Tutorials',
        source: { file: 'space.yaml', line: 10, column: 2 },
        message: NOT_FOUND('Guidez'),
      },
      {
        kind: 'Space',
        org: ORG,
        key: 'Runbooks',
        source: { file: 'space.yaml', line: 10, column: 2 },
        message: NOT_FOUND('col-gone'),
      },
    ]);
    expect(result.warnings).toEqual([]);
    expect(result.steps.map((s) => s.id)).toEqual(['Space/org-demo/Setup#create']);
    expect(ctx.registered.has(`Space|${ORG}|Tutorials`)).toBe(false);
    expect(ctx.registered.has(`Space|${ORG}|Runbooks`)).toBe(false);
  });

  it('a space written under a blocked (so unregistered) new collection is blocked in turn', async () => {
    const collectionCtx = fakeDiffContext();
    await plan(collectionKind, ORG, collections({ title: 'Guides', parent: 'Nowhere' }), routes(), collectionCtx);
    const { result } = await plan(
      spaceKind,
      ORG,
      spaces({ title: 'Setup', parent: 'Guides' }),
      routes(),
      collectionCtx,
    );
    expect(result.steps).toEqual([]);
    expect(result.blocked.map((b) => [b.key, b.message])).toEqual([['Setup', NOT_FOUND('Guides')]]);
  });
});
