/**
 * Collection: a folder of spaces, identity by title or pinned id. Create POST {title, parent} (+ PATCH of the
 * fields POST cannot set, in the same step), PATCH title/description/defaultLevel, re-parent with
 * POST /collections/{id}/move, DELETE only under prune (which also removes the spaces inside).
 *
 * A collection nested under a collection created in the same plan is created at the top level and moved
 * under its parent one wave later: waves stay bounded (24, 25) however deep the nesting, so the Space kind
 * (depth 26) can always rely on its parent existing.
 */
import type { DesiredEntry, DiffContext, DiffResult, FetchContext, IdentityLookup, KindDefinition, LiveKindState, LiveObject, Report } from '../../core/kind.js';
import { isRef, ref, refsIn, type RequestSpec, type Step } from '../../core/plan.js';
import type { ManifestDocument } from '../../manifests/document.js';
import { asString, blockEntry, changedFields, isRecord, makeStep, nullableString, orgPath, pick, seg, stepId, exportTitled, titledEntry, uniqueLiveKey, unmatchedLive, withDisplayKeys } from '../common.js';
import { orderCollectionMoves, type CollectionMove } from './moves.js';
import { blockedByParent } from './parents.js';
import { pruneCollections, type PruneSpace } from './prune.js';
import { mustExistLive, namesManifest } from '../manifest-refs.js';
import { matchByIdOrTitle } from '../match.js';
import { collectionUndo, snapshotCollection } from './snapshot.js';
import { SPACE_DEPTH } from '../depths.js';
import { recoverByKey } from '../recover.js';
import { loadSchema } from '../schema.js';
import { spacesPath } from '../site/model.js';
import { readSpaceUsage, usageObjects, type SpaceUsage } from '../space/purge.js';


export const COLLECTION_KIND = 'Collection';
export const COLLECTION_DEPTH = 24;

export interface CollectionSpec {
  title: string;
  id?: string;
  description?: string;
  defaultLevel?: string | null;
  /** Collection manifest title or collection id; null = top level. */
  parent?: string | null;
}

export interface CollectionFields {
  title: string;
  description: string | null;
  defaultLevel: string | null;
  parent: string | null;
}

export type CollectionObject = LiveObject<CollectionFields>;

/** What fetch keeps beside the collections. */
export interface CollectionAux {
  /** The organization's live spaces, read only when a collection would be deleted. */
  spaces?: PruneSpace[];
  /** Where spaces are shown, read only when a collection that would be deleted holds a space. */
  usage?: SpaceUsage;
}

export type CollectionState = LiveKindState<CollectionObject, CollectionAux>;

const FIELDS = ['title', 'description', 'defaultLevel'] as const;

export const collectionsPath = (org: string): string => `${orgPath(org)}/collections`;
const onePath = (id: string): string => `/collections/${seg(id)}`;

/** The spec of a schema-valid Collection document: the fields it writes, in this order. */
function parseCollectionSpec(doc: ManifestDocument): CollectionSpec {
  const s = doc.spec;
  const spec: CollectionSpec = { title: asString(s['title']) ?? '' };
  const id = asString(s['id']);
  if (id !== undefined) spec.id = id;
  const description = asString(s['description']);
  if (description !== undefined) spec.description = description;
  const defaultLevel = nullableString(s['defaultLevel']);
  if (defaultLevel !== undefined) spec.defaultLevel = defaultLevel;
  const parent = nullableString(s['parent']);
  if (parent !== undefined) spec.parent = parent;
  return spec;
}

function toDesired(doc: ManifestDocument): DesiredEntry<CollectionSpec>[] {
  return [titledEntry(COLLECTION_KIND, doc, parseCollectionSpec(doc))];
}

/**
 * A collection cannot be its own parent, directly or through other manifests. A parent naming no Collection
 * manifest must name a live collection: a warning offline (plan blocks the collection otherwise).
 */
function crossValidate(entries: DesiredEntry<CollectionSpec>[], all: ReadonlyMap<string, DesiredEntry[]>, report: Report, index: IdentityLookup, warn?: Report): void {
  const byKey = new Map(entries.map((e) => [`${e.org}\u0000${e.key}`, e]));
  const known = namesManifest(all, COLLECTION_KIND, index);
  for (const e of entries) {
    const written = e.spec.parent;
    if (typeof written === 'string' && !known(e.org, written)) warn?.(e.doc.pos(['spec', 'parent']), mustExistLive('parent collection', written, COLLECTION_KIND, e.org));
  }
  for (const e of entries) {
    const seen = new Set<DesiredEntry>([e]);
    let parent = e.spec.parent;
    while (typeof parent === 'string') {
      const next = byKey.get(`${e.org}\u0000${parent}`);
      if (!next) break;
      if (next === e) {
        report(e.doc.pos(['spec', 'parent']), `collection "${e.key}" is nested in itself (through parent "${e.spec.parent}")`);
        break;
      }
      if (seen.has(next)) break; // a cycle further up: reported at its own members
      seen.add(next);
      parent = next.spec.parent;
    }
  }
}

export function collectionObject(org: string, c: unknown): CollectionObject | undefined {
  if (!isRecord(c) || typeof c['id'] !== 'string' || typeof c['title'] !== 'string') return undefined;
  const fields: CollectionFields = {
    title: c['title'],
    description: typeof c['description'] === 'string' ? c['description'] : null,
    defaultLevel: typeof c['defaultLevel'] === 'string' ? c['defaultLevel'] : null,
    parent: typeof c['parent'] === 'string' ? c['parent'] : null,
  };
  return { kind: COLLECTION_KIND, org, key: c['title'], id: c['id'], fields };
}

/**
 * The collections; under prune, when a collection would be deleted, also the organization's spaces (memoised,
 * shared with the Space and Site kinds): what a delete takes with it, and which of it manifests describe.
 */
async function fetch(ctx: FetchContext, org: string, desired: DesiredEntry<CollectionSpec>[]): Promise<CollectionState> {
  const items = await ctx.list(collectionsPath(org));
  const objects = items.map((c) => collectionObject(org, c)).filter((o) => o !== undefined);
  if (!ctx.prune(COLLECTION_KIND, org)) return { objects };
  const unmatched = new Set(matchByIdOrTitle(COLLECTION_KIND, withDisplayKeys(desired), objects).unmatched.map((o) => o.id));
  if (unmatched.size === 0) return { objects };
  const spaces = (await ctx.list(spacesPath(org))).map(pruneSpace).filter((s): s is PruneSpace => s !== undefined);
  const related: LiveObject[] = spaces.map((s) => ({ kind: 'Space', org, key: s.title, id: s.id, fields: { title: s.title, parent: s.parent } }));
  const aux: CollectionAux = { spaces };
  // A space the delete takes leaves its sites when it is purged: read where spaces are shown, when one is inside.
  if (spaces.some((s) => s.parent !== null && unmatched.has(s.parent))) {
    aux.usage = await readSpaceUsage(ctx, org);
    related.push(...usageObjects(org, aux.usage));
  }
  return { objects, aux, related };
}

function pruneSpace(s: unknown): PruneSpace | undefined {
  if (!isRecord(s) || typeof s['id'] !== 'string' || typeof s['title'] !== 'string') return undefined;
  return { id: s['id'], title: s['title'], parent: typeof s['parent'] === 'string' ? s['parent'] : null };
}

/** A live collection as a parent reference can name it. */
export interface LiveCollectionRef {
  id: string;
  title: string;
}

/** A parent reference resolved: an id (or a ref to the step creating it), or several live collections with that title. */
export type ParentTarget = { id: string } | { ambiguous: string[] };

/**
 * A parent reference → collection id (or a ref to the step creating it): a Collection manifest title (or a
 * live collection title when the Collection kind is managed, both through ctx.resolve), else a live collection
 * id, else the title of exactly one live collection (so a Space can name a live collection by title in an
 * organization without Collection manifests). Several live collections with the title: ambiguous (docops
 * never guesses). Undefined: unknown.
 */
export function resolveCollection(ctx: DiffContext, org: string, parent: string, live: readonly LiveCollectionRef[]): ParentTarget | undefined {
  const known = ctx.resolve(COLLECTION_KIND, org, parent);
  if (known !== undefined) return { id: known };
  if (live.some((c) => c.id === parent)) return { id: parent };
  const titled = live.filter((c) => c.title === parent);
  if (titled.length === 1) return { id: titled[0]!.id };
  return titled.length > 1 ? { ambiguous: titled.map((c) => c.id) } : undefined;
}

/** `resolveCollection` as an id: undefined when the parent names nothing or several live collections. */
export function resolveCollectionId(ctx: DiffContext, org: string, parent: string, live: readonly LiveCollectionRef[]): string | undefined {
  const target = resolveCollection(ctx, org, parent, live);
  return target && 'id' in target ? target.id : undefined;
}

/** The message of a parent that names several live collections. */
export const ambiguousParent = (parent: string, ids: readonly string[]): string =>
  `parent "${parent}" names ${ids.length} live collections (${ids.join(', ')}); write the id of the one you mean`;

/** Steps a ref-valued id depends on. */
export const refSteps = (idOrRef: string | null | undefined): string[] => (isRef(idOrRef) ? refsIn(idOrRef).map((r) => r.stepId) : []);

/** Moving a live collection or space under another parent. */
export interface ParentMove {
  kind: string;
  org: string;
  entry: DesiredEntry;
  wave: number;
  /** The object's own path (`/collections/{id}`, `/spaces/{id}`); the move is POST `{path}/move`. */
  path: string;
  /** Parent id the live object has. */
  live: string | null;
  /** The manifest's parent resolved to an id or ref; undefined = not managed (absent or unknown). */
  parent: string | null | undefined;
  /** The parent as the manifest writes it (for `after`). */
  written: string | null | undefined;
}

/** The `#move` step (POST …/move {parent}) when the wanted parent differs from the live one. */
export function parentMoveStep(m: ParentMove): Step | undefined {
  if (m.parent === undefined || m.parent === m.live) return undefined;
  return makeStep({
    kind: m.kind,
    org: m.org,
    key: m.entry.key,
    entry: m.entry,
    id: stepId(m.kind, m.org, m.entry.key, 'move'),
    action: 'update',
    phase: 'update',
    wave: m.wave,
    before: { parent: m.live },
    after: { parent: m.written ?? null },
    requests: [{ method: 'POST', path: `${m.path}/move`, body: { parent: m.parent } }],
    dependsOn: refSteps(m.parent),
  });
}

function diff(ctx: DiffContext, org: string, entries: DesiredEntry<CollectionSpec>[], live: CollectionState): DiffResult {
  const desired = withDisplayKeys(entries);
  const result: DiffResult = { steps: [], unmanaged: [], warnings: [], blocked: [] };
  const { matched, unmatched, stalePins } = matchByIdOrTitle(COLLECTION_KIND, desired, live.objects);
  for (const e of stalePins) result.warnings.push({ kind: COLLECTION_KIND, org, key: e.key, message: `pinned id ${e.id} does not exist; matched by title instead` });
  const liveRefs = live.objects.map((o) => ({ id: o.id, title: o.key }));
  // Collections whose parent names nothing, or would nest them in themselves, are blocked before anything
  // registers: they plan nothing and register no id, so whatever names them is blocked in turn.
  const blocked = blockedByParent({
    ctx,
    org,
    desired,
    matched,
    live: live.objects,
    parentOf: (e) => e.spec.parent,
    resolveLive: (p) => resolveCollectionId(ctx, org, p, liveRefs),
  });
  for (const [e, message] of blocked) blockEntry(result, e, e.doc.pos(['spec', 'parent']), message);
  const planned = desired.filter((e) => !blocked.has(e));
  // Register every planned collection first: parents may be written after their children.
  for (const e of planned) {
    const current = matched.get(e);
    ctx.register(COLLECTION_KIND, org, e.key, current ? current.id : ref(stepId(COLLECTION_KIND, org, e.key, 'create')));
  }
  const parentOf = (e: DesiredEntry<CollectionSpec>): string | null | undefined => {
    const p = e.spec.parent;
    if (p === undefined || p === null) return p;
    const id = resolveCollectionId(ctx, org, p, liveRefs);
    if (id === undefined) throw new Error(`internal: parent collection "${p}" of "${e.key}" resolves to nothing, but the collection was not blocked`);
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
      const requests: RequestSpec[] = [{ method: 'POST', path: collectionsPath(org), body, capture: { id: 'id' }, recover: recoverByKey(live.objects, spec.title) }];
      const extra = pick(spec, ['description', 'defaultLevel']);
      if (extra['defaultLevel'] === null) delete extra['defaultLevel'];
      if (Object.keys(extra).length > 0) requests.push({ method: 'PATCH', path: onePath(ref(createId)), body: extra });
      const after = { ...pick(spec, FIELDS), ...(spec.parent !== undefined ? { parent: spec.parent } : {}) };
      result.steps.push(makeStep({ ...base, id: createId, action: 'create', phase: 'create', wave: COLLECTION_DEPTH, before: null, after, requests }));
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
            requests: [{ method: 'POST', path: `${onePath(ref(createId))}/move`, body: { parent } }],
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
        makeStep({ ...base, id: stepId(COLLECTION_KIND, org, entry.key, 'update'), action: 'update', phase: 'update', wave: COLLECTION_DEPTH, before: c.before, after: c.after, requests: [{ method: 'PATCH', path: onePath(current.id), body: c.after }] }),
      );
    }
    const move = parentMoveStep({ kind: COLLECTION_KIND, org, entry, wave: COLLECTION_DEPTH, path: onePath(current.id), live: have.parent, parent, written: spec.parent });
    if (move) {
      result.steps.push(move);
      moves.push({ id: current.id, target: parent ?? null, step: move });
    }
  }
  orderCollectionMoves(moves, new Map(live.objects.map((o) => [o.id, o.fields.parent])), COLLECTION_DEPTH);

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

function exportDocs(org: string, live: CollectionState): object[] {
  const parentName = parentNamer(live.objects.map((o) => ({ id: o.id, title: o.key })));
  return exportTitled(COLLECTION_KIND, org, live, (o) => {
    const f = o.fields;
    const spec: Record<string, unknown> = {};
    if (f.description !== null && f.description !== undefined) spec['description'] = f.description;
    if (f.defaultLevel !== null && f.defaultLevel !== undefined) spec['defaultLevel'] = f.defaultLevel;
    if (f.parent !== null && f.parent !== undefined) spec['parent'] = parentName(f.parent);
    return spec;
  });
}

/**
 * How export names a parent collection: by its title when no other live collection has it (a manifest then
 * keeps naming it if the collection is ever recreated with a new id, e.g. by undo), else by its id.
 */
export function parentNamer(collections: readonly LiveCollectionRef[]): (id: string) => string {
  const count = new Map<string, number>();
  for (const c of collections) count.set(c.title, (count.get(c.title) ?? 0) + 1);
  const byId = new Map(collections.map((c) => [c.id, c.title]));
  return (id) => {
    const title = byId.get(id);
    return title !== undefined && count.get(title) === 1 ? title : id;
  };
}

export const collectionKind: KindDefinition<CollectionSpec, CollectionObject, CollectionAux> = {
  kind: COLLECTION_KIND,
  identity: 'title, or the pinned spec.id (which allows renaming)',
  schema: loadSchema('collection'),
  depth: COLLECTION_DEPTH,
  toDesired,
  crossValidate,
  fetch,
  diff,
  export: exportDocs,
  snapshot: snapshotCollection,
  undo: collectionUndo,
};
