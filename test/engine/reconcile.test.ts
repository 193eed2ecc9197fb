import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import type { DesiredEntry, KindDefinition } from '../../src/model/kind.js';
import { isRef, placeholder, ref } from '../../src/model/refs.js';
import { computePlan, diffAll, diffOrder, pruneResolver } from '../../src/engine/reconcile.js';
import { liveKey } from '../../src/model/state.js';
import type { ManifestDocument } from '../../src/model/document.js';

const doc = (kind: string, org: string, prune?: boolean): ManifestDocument => ({
  file: 'm.yaml',
  index: 0,
  apiVersion: 'docops/v1',
  kind,
  metadata: { organization: org },
  ...(prune === undefined ? {} : { prune }),
  spec: {},
  pos: () => ({ file: 'm.yaml', line: 1, column: 1 }),
});

const entry = (kind: string, org: string, key: string, prune?: boolean): DesiredEntry => ({
  kind,
  org,
  key,
  spec: {},
  source: { file: 'm.yaml', line: 1, column: 1 },
  doc: doc(kind, org, prune),
});

function listingClient(lists: Record<string, unknown[] | Error>): ApiClient & { listed: string[] } {
  const listed: string[] = [];
  return {
    baseUrl: 'memory://',
    listed,
    request: async () => {
      throw new Error('computePlan must not write');
    },
    get: async <T>() => ({}) as T,
    async *paginate() {},
    listAll: async <T>(path: string) => {
      listed.push(path);
      const v = lists[path];
      if (v instanceof Error) throw v;
      return (v ?? []) as T[];
    },
    close: async () => {},
  };
}

/** A parent kind whose objects are listed from `/orgs/{org}/parents`, and a child kind that reads the same list. */
const parent: KindDefinition = {
  kind: 'Parent',
  identity: 'by name',
  schema: {},
  depth: 10,
  toDesired: () => [],
  fetch: async (ctx, org) => ({
    objects: (await ctx.list<{ id: string; name: string }>(`/orgs/${org}/parents`)).map((p) => ({
      kind: 'Parent',
      org,
      key: p.name,
      id: p.id,
      fields: {},
    })),
  }),
  diff: (ctx, org, desired, live) => {
    const steps = desired
      .filter((d) => !live.objects.some((o) => o.key === d.key))
      .map((d) => {
        const id = `Parent/${org}/${d.key}#create`;
        ctx.register('Parent', org, d.key, ref(id));
        return {
          id,
          action: 'create' as const,
          phase: 'create' as const,
          kind: 'Parent',
          org,
          key: d.key,
          wave: 10,
          before: null,
          after: { name: d.key },
          dependsOn: [],
          requests: [
            { method: 'POST' as const, path: `/orgs/${org}/parents`, body: { name: d.key }, capture: { id: 'id' } },
          ],
        };
      });
    const unmanaged = live.objects
      .filter((o) => !desired.some((d) => d.key === o.key))
      .map((o) => ({ kind: 'Parent', org, key: o.key, id: o.id }));
    return { steps, unmanaged, warnings: [], blocked: [] };
  },
};

const child: KindDefinition = {
  kind: 'Child',
  identity: 'by parent',
  schema: {},
  depth: 20,
  toDesired: () => [],
  fetch: async (ctx, org) => {
    await ctx.list(`/orgs/${org}/parents`); // the same list as Parent: must not be fetched twice
    return { objects: [] };
  },
  diff: (ctx, org, desired) => ({
    steps: desired.map((d) => {
      const parentId = ctx.resolve('Parent', org, d.key) ?? 'missing';
      const dependsOn = isRef(parentId) ? [`Parent/${org}/${d.key}#create`] : [];
      return {
        id: `Child/${org}/${d.key}#create`,
        action: 'create' as const,
        phase: 'create' as const,
        kind: 'Child',
        org,
        key: d.key,
        wave: 20,
        before: null,
        after: {},
        dependsOn,
        requests: [{ method: 'POST' as const, path: `/parents/${parentId}/children` }],
      };
    }),
    unmanaged: [],
    warnings: [],
    blocked: [],
  }),
};

describe('computePlan', () => {
  it('fetches each list once however many kinds need it, and lets children resolve ids planned by parents', async () => {
    const client = listingClient({ '/orgs/o1/parents': [{ id: 'p-old', name: 'old' }] });
    const desired = new Map([
      ['Parent', [entry('Parent', 'o1', 'new'), entry('Parent', 'o1', 'old')]],
      ['Child', [entry('Child', 'o1', 'new'), entry('Child', 'o1', 'old')]],
    ]);
    const { plan } = await computePlan(client, [child, parent], desired);
    expect(client.listed).toEqual(['/orgs/o1/parents']);
    expect(plan.steps.map((s) => s.id)).toEqual(['Parent/o1/new#create', 'Child/o1/new#create', 'Child/o1/old#create']);
    expect(plan.steps[1]!.requests[0]!.path).toBe(`/parents/${placeholder('Parent/o1/new#create', 'id')}/children`);
    expect(plan.steps[1]!.requests[0]!.refs).toEqual([
      { at: 'path', offset: 9, step: 'Parent/o1/new#create', output: 'id' },
    ]);
    expect(plan.steps[2]!.requests[0]!.path).toBe('/parents/p-old/children');
  });

  it('reports live objects no manifest mentions as unmanaged', async () => {
    const client = listingClient({
      '/orgs/o1/parents': [
        { id: 'p1', name: 'keep' },
        { id: 'p2', name: 'stray' },
      ],
    });
    const { plan } = await computePlan(client, [parent], new Map([['Parent', [entry('Parent', 'o1', 'keep')]]]));
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged).toEqual([{ kind: 'Parent', org: 'o1', key: 'stray', id: 'p2' }]);
  });

  it('a failed list fails the whole plan instead of looking empty', async () => {
    const client = listingClient({ '/orgs/o1/parents': new Error('GET /orgs/o1/parents failed with 503') });
    await expect(computePlan(client, [parent], new Map([['Parent', [entry('Parent', 'o1', 'x')]]]))).rejects.toThrow(
      /503/,
    );
  });

  it('only reconciles kinds in organisations that have a document of them', async () => {
    const client = listingClient({});
    await computePlan(client, [parent, child], new Map([['Child', [entry('Child', 'o2', 'x')]]]));
    expect(client.listed).toEqual(['/orgs/o2/parents']); // from Child's own fetch; Parent is not managed in o2
  });
});

describe('diffAll: ids for resolve', () => {
  /** A kind that resolves every desired key in `target` and writes the answer into a step's path. */
  const asker = (target: string): KindDefinition => ({
    ...child,
    kind: 'Asker',
    depth: 90,
    fetch: async () => ({ objects: [] }),
    diff: (ctx, org, desired) => ({
      steps: desired.map((d) => ({
        id: `Asker/${org}/${d.key}#x`,
        action: 'update' as const,
        phase: 'update' as const,
        kind: 'Asker',
        org,
        key: d.key,
        wave: 90,
        before: {},
        after: {},
        dependsOn: [],
        requests: [{ method: 'PATCH' as const, path: `/${ctx.resolve(target, org, d.key) ?? 'missing'}` }],
      })),
      unmanaged: [],
      warnings: [],
      blocked: [],
    }),
  });
  const live = (objects: { kind: string; key: string; id: string }[]) =>
    new Map([[liveKey('Holder', 'o1'), { objects: objects.map((o) => ({ ...o, org: 'o1', fields: {} })) }]]);
  const paths = (plan: { steps: { requests: { path: string }[] }[] }) => plan.steps.map((s) => s.requests[0]!.path);

  it("finds live ids of a kind nobody registered, also inside another kind's live state, first object of a key winning", () => {
    const state = live([
      { kind: 'Holder', key: 'h', id: 'h1' },
      { kind: 'Inner', key: 'a', id: 'i1' },
      { kind: 'Inner', key: 'a', id: 'i2' },
      { kind: 'Holder', key: 'b', id: 'h2' },
      { kind: 'Inner', key: 'b', id: 'i3' },
    ]);
    const desired = new Map([['Asker', ['a', 'b', 'h', 'zz'].map((k) => entry('Asker', 'o1', k))]]);
    expect(paths(diffAll([asker('Inner')], desired, state))).toEqual(['/i1', '/i3', '/missing', '/missing']);
    expect(paths(diffAll([asker('Holder')], desired, state))).toEqual(['/missing', '/h2', '/h1', '/missing']);
  });

  it('a registered id or ref wins over a live id with the same key', () => {
    const registrar: KindDefinition = {
      ...child,
      kind: 'Registrar',
      depth: 5,
      fetch: async () => ({ objects: [] }),
      diff: (ctx, org) => {
        ctx.register('Inner', org, 'a', 'registered-a');
        return { steps: [], unmanaged: [], warnings: [], blocked: [] };
      },
    };
    const desired = new Map([
      ['Registrar', [entry('Registrar', 'o1', 'r')]],
      ['Asker', [entry('Asker', 'o1', 'a')]],
    ]);
    const state = live([{ kind: 'Inner', key: 'a', id: 'i1' }]);
    expect(paths(diffAll([registrar, asker('Inner')], desired, state))).toEqual(['/registered-a']);
  });
});

describe('pruneResolver', () => {
  it('is on where a document says prune: true or the config enables the kind', () => {
    const prune = pruneResolver(new Map([['Parent', [entry('Parent', 'o1', 'a', true), entry('Parent', 'o2', 'b')]]]), {
      prune: { Child: true },
    });
    expect(prune('Parent', 'o1')).toBe(true);
    expect(prune('Parent', 'o2')).toBe(false);
    expect(prune('Child', 'o9')).toBe(true);
  });
});

describe('diffOrder', () => {
  const k = (kind: string, depth: number, needs?: string[]): KindDefinition => ({
    ...parent,
    kind,
    depth,
    ...(needs ? { needs } : {}),
  });
  it('goes by depth, but a kind follows every kind it needs', () => {
    const order = diffOrder([k('Site', 30), k('Organization', 0, ['Site']), k('Team', 20), k('Members', 10)]).map(
      (x) => x.kind,
    );
    expect(order).toEqual(['Members', 'Team', 'Site', 'Organization']);
  });
  it('refuses a cycle', () => {
    expect(() => diffOrder([k('A', 0, ['B']), k('B', 1, ['A'])])).toThrow(/cycle/);
  });
});
