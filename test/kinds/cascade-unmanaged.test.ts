/**
 * Plan-level cascade rules (src/engine/cascades.ts), whichever kinds listed them: an object a step's cascade takes is
 * never listed as "unmanaged (left alone)", and each object is listed once (under its own delete step if it has
 * one, else under the first step in plan order that takes it).
 */
import { describe, expect, it } from 'vitest';
import type { DesiredEntry, KindDefinition } from '../../src/model/kind.js';
import { dedupeCascades } from '../../src/engine/cascades.js';
import type { Step } from '../../src/model/plan.js';
import { diffAll } from '../../src/engine/reconcile.js';
import type { DesiredState } from '../../src/model/state.js';
import { fakeDoc } from './helpers.js';

function kind(name: string, depth: number, diff: KindDefinition['diff']): KindDefinition {
  return {
    kind: name,
    identity: 'key',
    schema: {},
    depth,
    toDesired: () => [],
    fetch: async () => ({ objects: [] }),
    diff,
  };
}

const entry = (k: string): DesiredEntry => ({
  kind: k,
  org: 'o1',
  key: 'x',
  spec: {},
  source: { file: 'f', line: 1, column: 1 },
  doc: fakeDoc(k, 'o1', {}),
});

describe('diffAll drops cascaded objects from the unmanaged list', () => {
  it('by id, leaving a same-titled object with another id listed', () => {
    const parent = kind('Box', 1, () => ({
      steps: [
        {
          id: 'Box/o1/old#delete',
          action: 'delete',
          phase: 'prune',
          kind: 'Box',
          org: 'o1',
          key: 'old',
          wave: 1,
          before: { title: 'old' },
          after: null,
          dependsOn: [],
          requests: [{ method: 'DELETE', path: '/boxes/b1' }],
          cascades: [
            { kind: 'Item', org: 'o1', key: 'Guide', id: 'i1' },
            { kind: 'Item', org: 'o1', key: 'No id' },
          ],
        },
      ],
      unmanaged: [],
      warnings: [],
      blocked: [],
    }));
    // Diffed after the parent, the child kind lists what it does not manage.
    const child = kind('Item', 2, () => ({
      steps: [],
      unmanaged: [
        { kind: 'Item', org: 'o1', key: 'Guide', id: 'i1' },
        { kind: 'Item', org: 'o1', key: 'Guide', id: 'i2' },
        { kind: 'Item', org: 'o1', key: 'No id', id: 'i3' },
        { kind: 'Item', org: 'o1', key: 'Other', id: 'i4' },
        { kind: 'Item', org: 'o2', key: 'Guide', id: 'i1' },
      ],
      warnings: [],
      blocked: [],
    }));
    const desired: DesiredState = new Map([
      ['Box', [entry('Box')]],
      ['Item', [entry('Item')]],
    ]);
    const plan = diffAll([parent, child], desired, new Map());
    expect(plan.unmanaged).toEqual([
      { kind: 'Item', org: 'o1', key: 'Guide', id: 'i2' },
      { kind: 'Item', org: 'o1', key: 'Other', id: 'i4' },
      { kind: 'Item', org: 'o2', key: 'Guide', id: 'i1' },
    ]);
  });

  it('gives every kind the manifest entries of any kind in its org (ctx.desired)', () => {
    const seen: string[] = [];
    const a = kind('A', 1, (ctx) => {
      seen.push(
        ...ctx.desired('B', 'o1').map((e) => `${e.kind}:${e.key}`),
        `o2:${ctx.desired('B', 'o2').length}`,
        `C:${ctx.desired('C', 'o1').length}`,
      );
      return { steps: [], unmanaged: [], warnings: [], blocked: [] };
    });
    const desired: DesiredState = new Map([
      ['A', [entry('A')]],
      ['B', [entry('B')]],
    ]);
    diffAll([a, kind('B', 2, () => ({ steps: [], unmanaged: [], warnings: [], blocked: [] }))], desired, new Map());
    expect(seen).toEqual(['B:x', 'o2:0', 'C:0']);
  });
});

describe('dedupeCascades: each object once', () => {
  const del = (kind: string, key: string, path: string, cascades?: Step['cascades']): Step => ({
    id: `${kind}/o1/${key}#delete`,
    action: 'delete',
    phase: 'prune',
    kind,
    org: 'o1',
    key,
    wave: 1,
    before: null,
    after: null,
    dependsOn: [],
    requests: [{ method: 'DELETE', path }],
    ...(cascades ? { cascades } : {}),
  });

  it('drops what a delete step of its own deletes, and repeats after the first listing', () => {
    const steps = [
      del('Item', 'a', '/items/i1'),
      del('Box', 'b1', '/boxes/b1', [
        { kind: 'Item', org: 'o1', key: 'a', id: 'i1' }, // own step (by id)
        { kind: 'Item', org: 'o1', key: 'b', id: 'i2' },
        { kind: 'Member', org: 'o1', key: 'b1/x' },
      ]),
      del('Box', 'b2', '/boxes/b2', [
        { kind: 'Item', org: 'o1', key: 'b', id: 'i2' }, // listed under b1 already
        { kind: 'Item', org: 'o2', key: 'b', id: 'i2' }, // another org: another object
        { kind: 'Member', org: 'o1', key: 'b1/x' }, // same key, no id
      ]),
      del('Box', 'b3', '/boxes/b3', [{ kind: 'Item', org: 'o1', key: 'a' }]), // own step (by key, no id)
    ];
    const out = dedupeCascades(steps);
    expect(out.map((s) => s.cascades)).toEqual([
      undefined,
      [
        { kind: 'Item', org: 'o1', key: 'b', id: 'i2' },
        { kind: 'Member', org: 'o1', key: 'b1/x' },
      ],
      [{ kind: 'Item', org: 'o2', key: 'b', id: 'i2' }],
      undefined,
    ]);
    expect(out[0]).toBe(steps[0]);
    expect(steps[1]!.cascades).toHaveLength(3); // inputs are not changed
  });
});
