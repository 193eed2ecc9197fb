/** An object a step's cascade takes is never listed as "unmanaged (left alone)", whichever kind listed it. */
import { describe, expect, it } from 'vitest';
import type { DesiredEntry, KindDefinition } from '../../src/core/kind.js';
import { diffAll, type DesiredState } from '../../src/core/reconcile.js';
import { fakeDoc } from './helpers.js';

function kind(name: string, depth: number, diff: KindDefinition['diff']): KindDefinition {
  return { kind: name, identity: 'key', schema: {}, depth, toDesired: () => [], fetch: async () => ({ objects: [] }), diff };
}

const entry = (k: string): DesiredEntry => ({ kind: k, org: 'o1', key: 'x', spec: {}, source: { file: 'f', line: 1, column: 1 }, doc: fakeDoc(k, 'o1', {}) });

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
      seen.push(...ctx.desired('B', 'o1').map((e) => `${e.kind}:${e.key}`), `o2:${ctx.desired('B', 'o2').length}`, `C:${ctx.desired('C', 'o1').length}`);
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
