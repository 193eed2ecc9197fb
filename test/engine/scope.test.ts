/**
 * Scoped reconciles in the core: change detection by content, the closure a change takes along, and the guards
 * that refuse a scoped diff reading or planning outside its scopes.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import { desiredState, liveKey, type LiveState } from '../../src/model/state.js';
import type { DesiredEntry, DiffResult, KindDefinition } from '../../src/model/kind.js';
import type { Step } from '../../src/model/plan.js';
import { makeStep } from '../../src/kinds/common.js';
import { computePlan, diffAll } from '../../src/engine/reconcile.js';
import {
  changedScopes,
  checkScopedSteps,
  documentFingerprints,
  ScopeError,
  scopeClosure,
} from '../../src/engine/scope.js';
import { KINDS } from '../../src/kinds/index.js';
import type { ManifestDocument } from '../../src/model/document.js';

const doc = (
  kind: string,
  org: string,
  spec: Record<string, unknown> = {},
  file = 'm.yaml',
  index = 0,
): ManifestDocument => ({
  file,
  index,
  apiVersion: 'docops/v1',
  kind,
  metadata: { organization: org },
  spec,
  pos: () => ({ file, line: 1, column: 1 }),
});

const entryOf = (d: ManifestDocument, key: string, spec: unknown = d.spec): DesiredEntry => ({
  kind: d.kind,
  org: d.metadata.organization,
  key,
  spec,
  source: d.pos([]),
  doc: d,
});

/** A desired state of these documents, one entry per document (keyed by its spec's `name`, or the kind). */
function stateOf(docs: ManifestDocument[], kinds: readonly string[]): ReturnType<typeof desiredState> {
  const map = new Map<string, DesiredEntry[]>(kinds.map((k) => [k, []]));
  for (const d of docs) map.get(d.kind)!.push(entryOf(d, typeof d.spec['name'] === 'string' ? d.spec['name'] : d.kind));
  return desiredState(map, docs);
}

const noSteps = (): DiffResult => ({ steps: [], unmanaged: [], warnings: [], blocked: [] });

/** A kind with the given scope declaration that fetches nothing (its fetches are counted). */
function kind(name: string, extra: Partial<KindDefinition> = {}, fetched: string[] = []): KindDefinition {
  return {
    kind: name,
    identity: 'by name',
    schema: {},
    depth: 0,
    scope: {},
    toDesired: () => [],
    fetch: async (_ctx, org) => (fetched.push(`${name}/${org}`), { objects: [] }),
    diff: noSteps,
    ...extra,
  };
}

const names = (keys: Iterable<string>): string[] => [...keys].map((k) => k.replace('\u0000', '/')).sort();

describe('documentFingerprints / changedScopes', () => {
  const base = [
    doc('Members', 'o1', { members: [{ email: 'a@x', role: 'read' }] }, 'members.yaml'),
    doc('Team', 'o1', { name: 'T' }, 'teams.yaml'),
    doc('Team', 'o2', { name: 'U' }, 'teams.yaml', 1),
  ];

  it('compares content per (kind, org), not files: the same documents from other files change nothing', () => {
    const before = documentFingerprints(stateOf(base, ['Members', 'Team']))!;
    const moved = base.map((d) => ({ ...d, file: `renamed-${d.file}`, pos: d.pos }));
    expect(changedScopes(before, documentFingerprints(stateOf(moved, ['Members', 'Team']))!)).toEqual([]);
  });

  it('one role changed is one scope; a removed last document of a (kind, org) is a changed scope too', () => {
    const before = documentFingerprints(stateOf(base, ['Members', 'Team']))!;
    const edited = [doc('Members', 'o1', { members: [{ email: 'a@x', role: 'edit' }] }, 'members.yaml'), base[1]!];
    expect(names(changedScopes(before, documentFingerprints(stateOf(edited, ['Members', 'Team']))!))).toEqual([
      'Members/o1',
      'Team/o2',
    ]);
  });

  it('`prune: true` written on a document changes its scope', () => {
    const before = documentFingerprints(stateOf(base, ['Members', 'Team']))!;
    const pruned = [base[0]!, { ...base[1]!, prune: true }, base[2]!];
    expect(names(changedScopes(before, documentFingerprints(stateOf(pruned, ['Members', 'Team']))!))).toEqual([
      'Team/o1',
    ]);
  });
});

describe('scopeClosure over the registered kinds', () => {
  const org = 'o1';
  const all = [
    doc('Organization', org, { title: 'O' }),
    doc('Members', org, { members: [] }),
    doc('Team', org, { title: 'T', members: [{ email: 'a@x' }] }),
    doc('Translation', org, { title: 'Tr' }),
    doc('Space', org, { title: 'S' }),
    doc('Site', org, { title: 'Si' }),
    doc('Members', 'o2', { members: [] }),
  ];
  const desired = (): ReturnType<typeof desiredState> => {
    const map = new Map<string, DesiredEntry[]>(KINDS.map((k) => [k.kind, []]));
    for (const d of all) map.get(d.kind)!.push(entryOf(d, String(d.spec['title'] ?? d.kind)));
    return desiredState(map, all);
  };
  const close = (...changed: string[]): string[] =>
    names(
      scopeClosure(
        KINDS,
        desired(),
        changed.map((c) => liveKey(c.split('/')[0]!, c.split('/')[1]!)),
      )!,
    );

  it("a Members change is Members of that org only (Team's plan does not depend on it)", () => {
    expect(close('Members/o1')).toEqual(['Members/o1']);
  });

  it('a Team listing members reads Members; a Space change re-plans the Site and Organization that need it', () => {
    expect(close('Team/o1')).toEqual(['Members/o1', 'Team/o1']);
    // Site needs Space (and reads it back), Organization needs Site: a new space's ref reaches both.
    expect(close('Space/o1')).toEqual(['Organization/o1', 'Site/o1', 'Space/o1']);
  });

  it('a scope whose last document was removed is not reconciled, but what it affects is', () => {
    expect(close('Site/o3')).toEqual([]);
    expect(close('Site/o1')).toEqual(['Organization/o1', 'Site/o1', 'Space/o1']);
  });

  it('every registered kind declares its scope (a kind without one would silently make every daemon run full)', () => {
    expect(KINDS.filter((k) => k.scope === undefined).map((k) => k.kind)).toEqual([]);
  });

  it('unsure without a declaration: a registered kind with no `scope` makes every run full', () => {
    const bare = { ...KINDS[0]! };
    delete bare.scope;
    expect(scopeClosure([bare, ...KINDS.slice(1)], desired(), [liveKey('Members', org)])).toBeUndefined();
  });
});

describe('a scoped plan stays inside its scopes', () => {
  const a = doc('A', 'o1', { name: 'a' });
  const b = doc('B', 'o1', { name: 'b' });
  const desired = stateOf([a, b], ['A', 'B']);
  const deleteOf = (kindName: string, org: string, key: string): Step =>
    makeStep({
      id: `${kindName}/${org}/${key}#delete`,
      kind: kindName,
      org,
      key,
      action: 'delete',
      phase: 'delete',
      wave: 0,
      before: {},
      after: null,
      requests: [{ method: 'DELETE', path: `/things/${key}` }],
    });

  it('a diff planning a delete of another kind outside the scope set is refused with a ScopeError', () => {
    // A buggy kind: A's diff deletes a B object, and B is not in the scope set.
    const rogue = kind('A', { diff: (_ctx, org) => ({ ...noSteps(), steps: [deleteOf('B', org, 'b')] }) });
    const kinds = [rogue, kind('B')];
    const scope = new Set([liveKey('A', 'o1')]);
    expect(() => diffAll(kinds, desired, new Map(), { scope })).toThrow(ScopeError);
    // The same plan in a full run (every scope) is what the kind asked for.
    expect(diffAll(kinds, desired, new Map()).steps.map((s) => s.id)).toEqual(['B/o1/b#delete']);
  });

  it("a delete in another organization than the emitting scope's is refused, even of the kind's own objects", () => {
    expect(() =>
      checkScopedSteps(
        [deleteOf('A', 'o2', 'x')],
        { kind: 'A', org: 'o1' },
        new Set([liveKey('A', 'o1'), liveKey('A', 'o2')]),
        new Set(['A']),
      ),
    ).toThrow(ScopeError);
    // Sub-objects (a kind that is not registered) belong to the emitting scope.
    expect(() =>
      checkScopedSteps(
        [deleteOf('ASection', 'o1', 'x')],
        { kind: 'A', org: 'o1' },
        new Set([liveKey('A', 'o1')]),
        new Set(['A']),
      ),
    ).not.toThrow();
  });

  it('reading the ids or live state of a managed scope the run did not fetch is a ScopeError', () => {
    const reader = kind('A', { diff: (ctx, org) => (ctx.resolve('B', org, 'b'), noSteps()) });
    const scope = new Set([liveKey('A', 'o1')]);
    expect(() => diffAll([reader, kind('B')], desired, new Map(), { scope })).toThrow(/read the ids of B\/o1/);
    const liveReader = kind('A', { diff: (ctx, org) => (ctx.live('B', org), noSteps()) });
    expect(() => diffAll([liveReader, kind('B')], desired, new Map(), { scope })).toThrow(ScopeError);
    // With B in the scope set, the read is fine.
    expect(() =>
      diffAll([reader, kind('B')], desired, new Map() as LiveState, { scope: new Set([...scope, liveKey('B', 'o1')]) }),
    ).not.toThrow();
  });

  it('fetches only the scopes of the set', async () => {
    const fetched: string[] = [];
    const client = {} as ApiClient;
    await computePlan(client, [kind('A', {}, fetched), kind('B', {}, fetched)], desired, {
      scope: new Set([liveKey('B', 'o1')]),
    });
    expect(fetched).toEqual(['B/o1']);
  });
});
