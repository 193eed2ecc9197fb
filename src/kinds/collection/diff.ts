/**
 * Collection diff (pure): create (POST {title, parent} + a PATCH of what POST cannot set, in one step; a
 * collection nested under one created in this plan is moved under it one wave later), update, re-parent
 * (`#move`, ordered so no move nests a collection in itself), and under prune delete what no manifest describes
 * (prune.ts). Access lists: src/kinds/access/diff.ts.
 */
import type { DesiredEntry, DiffContext, DiffResult } from '../../model/kind.js';
import type { RequestSpec } from '../../model/plan.js';
import { isRef, ref } from '../../model/refs.js';
import { blockEntry, changedFields, makeStep, pick, refSteps, stepId } from '../common.js';
import { withDisplayKeys, matchByIdOrTitle, stalePinWarnings } from '../match.js';
import { uniqueLiveKey, unmatchedLive } from '../unmatched.js';
import { accessPlanner } from '../access/diff.js';
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
import { parentMoveStep, resolveCollectionId } from './parent-refs.js';
import { blockedByParent } from './parents.js';
import { pruneCollections } from './prune.js';

export function diffCollections(
  ctx: DiffContext,
  org: string,
  entries: DesiredEntry<CollectionSpec>[],
  state: CollectionKindState,
): DiffResult {
  const desired = withDisplayKeys(entries);
  const result: DiffResult = { steps: [], unmanaged: [], warnings: [], blocked: [] };
  const { own, grants } = splitAccess(state.objects);
  const live: CollectionState = { ...state, objects: own };
  const access = accessPlanner(ctx, org, COLLECTION_ACCESS, { objects: grants, aux: state.aux });
  const { matched, unmatched, stalePins } = matchByIdOrTitle(COLLECTION_KIND, desired, live.objects);
  result.warnings.push(...stalePinWarnings(COLLECTION_KIND, org, stalePins));
  const liveRefs = live.objects.map((o) => ({ id: o.id, title: o.key }));
  // Collections whose access list or parent names nothing, or whose parent would nest them in themselves, are
  // blocked before anything registers: they plan nothing and register no id, so whatever names them is blocked in turn.
  const accessBlocked = new Set(desired.filter((e) => access.block(result, e)));
  const blocked = blockedByParent({
    ctx,
    org,
    desired,
    matched,
    live: live.objects,
    parentOf: (e) => e.spec.parent,
    resolveLive: (p) => resolveCollectionId(ctx, org, p, liveRefs),
    blocked: accessBlocked,
  });
  for (const [e, message] of blocked)
    if (!accessBlocked.has(e)) blockEntry(result, e, e.doc.pos(['spec', 'parent']), message);
  const planned = desired.filter((e) => !blocked.has(e));
  // Register every planned collection first: parents may be written after their children.
  for (const e of planned) {
    const current = matched.get(e);
    ctx.register(
      COLLECTION_KIND,
      org,
      e.key,
      current ? current.id : ref(stepId(COLLECTION_KIND, org, e.key, 'create')),
    );
  }
  const parentOf = (e: DesiredEntry<CollectionSpec>): string | null | undefined => {
    const p = e.spec.parent;
    if (p === undefined || p === null) return p;
    const id = resolveCollectionId(ctx, org, p, liveRefs);
    if (id === undefined)
      throw new Error(
        `internal: parent collection "${p}" of "${e.key}" resolves to nothing, but the collection was not blocked`,
      );
    return id;
  };

  const moves: CollectionMove[] = [];
  for (const entry of planned) {
    const spec = entry.spec;
    const current = matched.get(entry);
    const parent = parentOf(entry);
    const base = { kind: COLLECTION_KIND, org, key: entry.key, entry };
    if (!current) {
      const createId = stepId(COLLECTION_KIND, org, entry.key, 'create');
      const body: Record<string, unknown> = { title: spec.title };
      // A parent created in this plan gets its child one wave later (see the file comment).
      if (typeof parent === 'string' && !isRef(parent)) body['parent'] = parent;
      const requests: RequestSpec[] = [
        {
          method: 'POST',
          path: collectionsPath(org),
          body,
          capture: { id: 'id' },
          recover: recoverByTitleInParent(live.objects, spec.title),
        },
      ];
      const extra = pick(spec, ['description', 'defaultLevel']);
      if (extra['defaultLevel'] === null) delete extra['defaultLevel'];
      if (Object.keys(extra).length > 0) requests.push({ method: 'PATCH', path: onePath(ref(createId)), body: extra });
      const after = { ...pick(spec, FIELDS), ...(spec.parent !== undefined ? { parent: spec.parent } : {}) };
      result.steps.push(
        makeStep({
          ...base,
          id: createId,
          action: 'create',
          phase: 'create',
          wave: COLLECTION_DEPTH,
          before: null,
          after,
          requests,
        }),
      );
      if (typeof parent === 'string' && isRef(parent)) {
        result.steps.push(
          makeStep({
            ...base,
            id: stepId(COLLECTION_KIND, org, entry.key, 'parent'),
            action: 'create',
            phase: 'create',
            wave: COLLECTION_DEPTH + 1,
            before: null,
            after: { parent: spec.parent },
            requests: [{ method: 'POST', path: `${onePath(ref(createId))}/move`, body: { parent }, idempotent: true }],
            dependsOn: [createId, ...refSteps(parent)],
            note: 'nest under a collection created in this plan',
          }),
        );
      }
      continue;
    }
    const have = current.fields;
    const c = changedFields(spec, have, FIELDS);
    if (c.changed.length > 0) {
      result.steps.push(
        makeStep({
          ...base,
          id: stepId(COLLECTION_KIND, org, entry.key, 'update'),
          action: 'update',
          phase: 'update',
          wave: COLLECTION_DEPTH,
          before: c.before,
          after: c.after,
          requests: [{ method: 'PATCH', path: onePath(current.id), body: c.after }],
        }),
      );
    }
    const move = parentMoveStep({
      kind: COLLECTION_KIND,
      org,
      entry,
      wave: COLLECTION_DEPTH,
      path: onePath(current.id),
      live: have.parent,
      parent,
      written: spec.parent,
    });
    if (move) {
      result.steps.push(move);
      moves.push({ id: current.id, target: parent ?? null, step: move });
    }
  }
  orderCollectionMoves(moves, new Map(live.objects.map((o) => [o.id, o.fields.parent])), COLLECTION_DEPTH);
  access.plan(result, planned);

  const depthOf = liveDepths(live.objects);
  const prune = ctx.prune(COLLECTION_KIND, org);
  const pruning = prune
    ? pruneCollections(
        {
          ctx,
          org,
          kind: COLLECTION_KIND,
          depth: COLLECTION_DEPTH,
          spaceDepth: SPACE_DEPTH,
          collections: live.objects,
          desired,
          matched,
          unmatched,
          // A blocked collection's parent names nothing (or itself): it has no resolved parent.
          parentOf: (e) => (blocked.has(e) ? undefined : parentOf(e)),
          spaces: live.aux?.spaces,
          usage: live.aux?.usage,
          resolveParent: (p) => resolveCollectionId(ctx, org, p, liveRefs),
        },
        result,
      )
    : undefined;
  unmatchedLive(result, {
    kind: COLLECTION_KIND,
    org,
    prune,
    objects: pruning ? pruning.deleted : unmatched,
    key: pruning ? pruning.key : uniqueLiveKey(unmatched),
    // Nested ones first (deletes run in descending wave); deeper levels share the nested wave.
    wave: (o) => COLLECTION_DEPTH + Math.min(depthOf.get(o.id) ?? 0, 1),
    path: (o) => onePath(o.id),
    before: (o) => ({ title: o.key }),
    note: 'also deletes the spaces inside it',
    ...(pruning ? { cascades: pruning.cascades, dependsOn: pruning.dependsOn } : {}),
  });
  return result;
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
