/**
 * Collection diff (pure): create (POST {title, parent} + a PATCH of what POST cannot set, in one step; a
 * collection nested under one created in this plan is moved under it one wave later), update, re-parent
 * (`#move`, ordered so no move nests a collection in itself), and under prune delete what no manifest describes
 * (prune.ts). Access lists: src/kinds/access/diff.ts.
 */
import type { DesiredEntry, DiffContext, DiffResult } from '../../model/kind.js';
import type { RequestSpec, Step } from '../../model/plan.js';
import { isRef, ref } from '../../model/refs.js';
import { blockEntry, changedFields, pick, refSteps, stepId } from '../common.js';
import {
  createRequest,
  createStep,
  diffTitled,
  updateStep,
  type TitledKind,
  type TitledPrune,
  type TitledScope,
} from '../titled.js';
import { uniqueLiveKey } from '../unmatched.js';
import { accessPlanner, type AccessPlanner } from '../access/diff.js';
import { COLLECTION_ACCESS } from './model.js';
import { splitAccess } from '../access/state.js';
import { recoverByTitleInParent } from '../recover.js';
import { SPACE_DEPTH } from '../space/model.js';
import {
  COLLECTION_DEPTH,
  COLLECTION_FIELDS as FIELDS,
  COLLECTION_KIND,
  collectionPath as onePath,
  collectionsPath,
  type CollectionKindState,
  type CollectionObject,
  type CollectionSpec,
  type CollectionState,
} from './model.js';
import { orderCollectionMoves, type CollectionMove } from './moves.js';
import { parentMoveStep, resolveCollectionId } from '../parent-refs.js';
import { blockedByParent } from './parents.js';
import { pruneCollections } from './prune.js';

const COLLECTION: TitledKind<CollectionObject> = { kind: COLLECTION_KIND, depth: COLLECTION_DEPTH };
type Entry = DesiredEntry<CollectionSpec>;
/** One diff's collections: their scope, and each planned entry's parent resolved (null: top level; undefined: not managed). */
type CollectionScope = TitledScope<CollectionSpec, CollectionObject> & {
  parentOf: (e: Entry) => string | null | undefined;
};

export function diffCollections(
  ctx: DiffContext,
  org: string,
  entries: Entry[],
  state: CollectionKindState,
): DiffResult {
  const { own, grants } = splitAccess(state.objects);
  const live: CollectionState = { ...state, objects: own };
  return diffTitled(COLLECTION, ctx, org, entries, own, (titled) => {
    const access = accessPlanner(ctx, org, COLLECTION_ACCESS, { objects: grants, aux: state.aux });
    const liveRefs = own.map((o) => ({ id: o.id, title: o.key }));
    const resolveLive = (p: string) => resolveCollectionId(ctx, org, p, liveRefs);
    const { desired } = titled;
    const blocked = blockedEntries(titled, desired, access, resolveLive);
    const parentOf = (e: Entry): string | null | undefined => {
      const p = e.spec.parent;
      if (p === undefined || p === null) return p;
      const id = resolveLive(p);
      if (id === undefined)
        throw new Error(
          `internal: parent collection "${p}" of "${e.key}" resolves to nothing, but the collection was not blocked`,
        );
      return id;
    };
    const t: CollectionScope = { ...titled, parentOf };
    const moves: CollectionMove[] = [];
    return {
      blocked,
      // Every planned collection registers first: parents may be written after their children.
      registerFirst: true,
      create: (entry) => createCollection(t, entry),
      update(entry, current) {
        const { steps, move } = updateCollection(t, entry, current);
        if (move) moves.push(move);
        return steps;
      },
      after(all) {
        orderCollectionMoves(moves, new Map(own.map((o) => [o.id, o.fields.parent])), COLLECTION_DEPTH);
        access.plan(
          t.result,
          all.filter((e) => !blocked.has(e)),
        );
      },
      prune: () => pruneSpec(t, live, desired, (e) => (blocked.has(e) ? undefined : parentOf(e)), resolveLive),
    };
  });
}

/**
 * Collections whose access list or parent names nothing, or whose parent would nest them in themselves: blocked
 * before anything registers, so they plan nothing and register no id and whatever names them is blocked in turn.
 */
function blockedEntries(
  t: TitledScope<CollectionSpec, CollectionObject>,
  desired: readonly Entry[],
  access: AccessPlanner,
  resolveLive: (p: string) => string | undefined,
): ReadonlyMap<Entry, string> {
  const accessBlocked = new Set(desired.filter((e) => access.block(t.result, e)));
  const { ctx, org, matched } = t;
  const parentOf = (e: Entry) => e.spec.parent;
  const blocked = blockedByParent({
    ctx,
    org,
    desired,
    matched,
    live: t.live,
    parentOf,
    resolveLive,
    blocked: accessBlocked,
  });
  for (const [e, message] of blocked)
    if (!accessBlocked.has(e)) blockEntry(t.result, e, e.doc.pos(['spec', 'parent']), message);
  return blocked;
}

/** POST {title, parent} and a PATCH of what POST cannot set; under a parent created in this plan, a move a wave later. */
function createCollection(t: CollectionScope, entry: Entry): Step[] {
  const spec = entry.spec;
  const parent = t.parentOf(entry);
  const createId = stepId(COLLECTION_KIND, t.org, entry.key, 'create');
  const body: Record<string, unknown> = { title: spec.title };
  // A parent created in this plan gets its child one wave later (see the file comment).
  if (typeof parent === 'string' && !isRef(parent)) body['parent'] = parent;
  const requests = [createRequest(collectionsPath(t.org), body, recoverByTitleInParent(t.live, spec.title))];
  const extra = pick(spec, ['description', 'defaultLevel']);
  if (extra['defaultLevel'] === null) delete extra['defaultLevel'];
  if (Object.keys(extra).length > 0) requests.push({ method: 'PATCH', path: onePath(ref(createId)), body: extra });
  const after = { ...pick(spec, FIELDS), ...(spec.parent !== undefined ? { parent: spec.parent } : {}) };
  const steps = [createStep(t, entry, { after, requests })];
  if (typeof parent === 'string' && isRef(parent)) {
    const move: RequestSpec = {
      method: 'POST',
      path: `${onePath(ref(createId))}/move`,
      body: { parent },
      idempotent: true,
    };
    steps.push(
      createStep(t, entry, {
        suffix: 'parent',
        wave: COLLECTION_DEPTH + 1,
        after: { parent: spec.parent },
        requests: [move],
        dependsOn: [createId, ...refSteps(parent)],
        note: 'nest under a collection created in this plan',
      }),
    );
  }
  return steps;
}

/** A PATCH of the changed fields, and a re-parent (`#move`, ordered afterwards so no move nests one in itself). */
function updateCollection(
  t: CollectionScope,
  entry: Entry,
  current: CollectionObject,
): { steps: Step[]; move?: CollectionMove } {
  const spec = entry.spec;
  const have = current.fields;
  const parent = t.parentOf(entry);
  const c = changedFields(spec, have, FIELDS);
  const requests: RequestSpec[] = [{ method: 'PATCH', path: onePath(current.id), body: c.after }];
  const steps = c.changed.length > 0 ? [updateStep(t, entry, { before: c.before, after: c.after, requests })] : [];
  const move = parentMoveStep({
    ...{ kind: COLLECTION_KIND, org: t.org, entry, wave: COLLECTION_DEPTH, path: onePath(current.id) },
    ...{ live: have.parent, parent, written: spec.parent },
  });
  if (!move) return { steps };
  return { steps: [...steps, move], move: { id: current.id, target: parent ?? null, step: move } };
}

/** Unmatched collections: nested ones first; under prune what they hold decides (prune.ts). */
function pruneSpec(
  t: CollectionScope,
  live: CollectionState,
  desired: readonly Entry[],
  parentOf: (e: Entry) => string | null | undefined,
  resolveParent: (p: string) => string | undefined,
): TitledPrune<CollectionObject> {
  const { ctx, org, matched, unmatched } = t;
  const depthOf = liveDepths(live.objects);
  const pruning = t.prune
    ? pruneCollections(
        {
          ...{ ctx, org, kind: COLLECTION_KIND, depth: COLLECTION_DEPTH, spaceDepth: SPACE_DEPTH },
          ...{ collections: live.objects, desired, matched, unmatched, resolveParent },
          // A blocked collection's parent names nothing (or itself): it has no resolved parent.
          parentOf,
          spaces: live.aux?.spaces,
          usage: live.aux?.usage,
        },
        t.result,
      )
    : undefined;
  return {
    objects: pruning ? pruning.deleted : unmatched,
    key: pruning ? pruning.key : uniqueLiveKey(unmatched),
    // Nested ones first (deletes run in descending wave); deeper levels share the nested wave.
    wave: (o) => COLLECTION_DEPTH + Math.min(depthOf.get(o.id) ?? 0, 1),
    path: (o) => onePath(o.id),
    note: 'also deletes the spaces inside it',
    ...(pruning ? { cascades: pruning.cascades, dependsOn: pruning.dependsOn } : {}),
  };
}

/** Nesting depth of each live collection (0 = top level). */
function liveDepths(objects: readonly CollectionObject[]): Map<string, number> {
  const parentOf = new Map(objects.map((o) => [o.id, o.fields.parent]));
  const depth = new Map<string, number>();
  for (const o of objects) {
    let d = 0;
    const seen = new Set<string>([o.id]);
    for (let p = parentOf.get(o.id); p && parentOf.has(p) && !seen.has(p); p = parentOf.get(p)) {
      seen.add(p);
      d++;
    }
    depth.set(o.id, d);
  }
  return depth;
}
