/**
 * Collection: a folder of spaces, identity by title or pinned id. Create POST {title, parent} (+ PATCH of the
 * fields POST cannot set, in the same step), PATCH title/description/defaultLevel, re-parent with
 * POST /collections/{id}/move, DELETE only under prune (which also removes the spaces inside).
 *
 * A collection nested under a collection created in the same plan is created at the top level and moved
 * under its parent one wave later: waves stay bounded (24, 25) however deep the nesting, so the Space kind
 * (depth 26) can always rely on its parent existing. The diff is in diff.ts, deletes under prune in prune.ts.
 * `access:`, when written, is the collection's complete list of grants (src/kinds/access).
 */
import type { DesiredEntry, FetchContext, KindDefinition, LiveObject, Report } from '../../model/kind.js';
import type { ManifestDocument } from '../../model/document.js';
import { accessSpec } from '../access/export.js';
import { accessReader } from '../access/fetch.js';
import type { AccessObject } from '../access/model.js';
import { COLLECTION_ACCESS } from './model.js';
import { crossValidateAccess, withAccessEntries } from '../access/parse.js';
import { splitAccess } from '../access/state.js';
import { exportTitled, isRecord, type CrossValidate } from '../common.js';
import { titledEntry, withDisplayKeys, matchByIdOrTitle } from '../match.js';
import { collectionSchema, type CollectionManifestSpec } from '../generated/collection.js';
import { mustExistLive, namesManifest } from '../manifest-refs.js';
import { orgSpacesPath } from '../space/model.js';
import { readSpaceUsage, usageObjects } from '../space-purge.js';
import { diffCollections } from './diff.js';
import {
  COLLECTION_DEPTH,
  COLLECTION_KIND,
  collectionObject,
  collectionsPath,
  type CollectionAux,
  type CollectionKindState,
  type CollectionObject,
  type CollectionSpec,
  type CollectionState,
  type PruneSpace,
} from './model.js';
import { parentNamer } from '../parent-refs.js';
import { collectionUndo, snapshotCollection } from './snapshot.js';
import { collectionInformer } from './informer.js';

function toDesired(doc: ManifestDocument<CollectionManifestSpec>, report: Report): DesiredEntry<CollectionSpec>[] {
  return [titledEntry(COLLECTION_KIND, doc, withAccessEntries(doc, report))];
}

/**
 * A collection cannot be its own parent, directly or through other manifests. A parent naming no Collection
 * manifest must name a live collection: a warning offline (plan blocks the collection otherwise).
 */
const crossValidate: CrossValidate<CollectionSpec> = (entries, all, report, index, warn) => {
  crossValidateAccess(entries, all, report, index, warn);
  const byKey = new Map(entries.map((e) => [`${e.org}\u0000${e.key}`, e]));
  const known = namesManifest(all, COLLECTION_KIND, index);
  for (const e of entries) {
    const written = e.spec.parent;
    if (typeof written === 'string' && !known(e.org, written))
      warn?.(e.doc.pos(['spec', 'parent']), mustExistLive('parent collection', written, COLLECTION_KIND, e.org));
  }
  for (const e of entries) {
    const seen = new Set<DesiredEntry>([e]);
    let parent = e.spec.parent;
    while (typeof parent === 'string') {
      const next = byKey.get(`${e.org}\u0000${parent}`);
      if (!next) break;
      if (next === e) {
        report(
          e.doc.pos(['spec', 'parent']),
          `collection "${e.key}" is nested in itself (through parent "${e.spec.parent}")`,
        );
        break;
      }
      if (seen.has(next)) break; // a cycle further up: reported at its own members
      seen.add(next);
      parent = next.spec.parent;
    }
  }
};

/** The collections, and the grants of those whose manifest writes `access:` (src/kinds/access/fetch.ts). */
async function fetch(
  ctx: FetchContext,
  org: string,
  desired: DesiredEntry<CollectionSpec>[],
): Promise<CollectionKindState> {
  const access = accessReader(ctx, org, COLLECTION_ACCESS, desired);
  const state = await fetchCollections(ctx, org, desired);
  const grants = await access.read(state.objects);
  if (grants.objects.length === 0 && Object.keys(grants.aux).length === 0) return state;
  return { ...state, objects: [...state.objects, ...grants.objects], aux: { ...state.aux, ...grants.aux } };
}

/**
 * The collections; under prune, when a collection would be deleted, also the organization's spaces (memoised,
 * shared with the Space and Site kinds): what a delete takes with it, and which of it manifests describe.
 */
async function fetchCollections(
  ctx: FetchContext,
  org: string,
  desired: DesiredEntry<CollectionSpec>[],
): Promise<CollectionState> {
  const items = await ctx.list(collectionsPath(org));
  const objects = items.map((c) => collectionObject(org, c)).filter((o) => o !== undefined);
  if (!ctx.prune(COLLECTION_KIND, org)) return { objects };
  const unmatched = new Set(
    matchByIdOrTitle(COLLECTION_KIND, withDisplayKeys(desired), objects).unmatched.map((o) => o.id),
  );
  if (unmatched.size === 0) return { objects };
  const spaces = (await ctx.list(orgSpacesPath(org))).map(pruneSpace).filter((s): s is PruneSpace => s !== undefined);
  const related: LiveObject[] = spaces.map((s) => ({
    kind: 'Space',
    org,
    key: s.title,
    id: s.id,
    fields: { title: s.title, parent: s.parent },
  }));
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
function exportDocs(org: string, state: CollectionKindState): object[] {
  const live: CollectionState = { ...state, objects: splitAccess(state.objects).own };
  const parentName = parentNamer(live.objects.map((o) => ({ id: o.id, title: o.key })));
  return exportTitled(COLLECTION_KIND, org, live, (o) => {
    const f = o.fields;
    const spec: Record<string, unknown> = {};
    if (f.description !== null && f.description !== undefined) spec['description'] = f.description;
    if (f.defaultLevel !== null && f.defaultLevel !== undefined) spec['defaultLevel'] = f.defaultLevel;
    if (f.parent !== null && f.parent !== undefined) spec['parent'] = parentName(f.parent);
    return { ...spec, ...accessSpec(live.aux, o.id) };
  });
}

/**
 * The snapshot and undo hooks take collections only: the journal calls a kind's snapshot for objects of its own
 * kind (never a CollectionAccess grant), and undo's parts of this kind hold what snapshotCollection wrote.
 */
export const collectionKind: KindDefinition<
  CollectionSpec,
  CollectionObject | AccessObject,
  CollectionAux,
  CollectionManifestSpec
> = {
  kind: COLLECTION_KIND,
  identity: 'title, or the pinned spec.id (which allows renaming)',
  schema: collectionSchema,
  depth: COLLECTION_DEPTH,
  lists: ['access'],
  // A move to parent null puts the collection at the top level; a default level of null gives members no access by default.
  nullMeanings: { Collection: { parent: 'top level', defaultLevel: 'no default access' } },
  // Scoped reconciles: its prune reads the Space and Site documents (spaces a manifest describes are moved out).
  scope: { reads: () => [], affectedBy: ['Space', 'Site'] },
  toDesired,
  crossValidate,
  fetch,
  diff: diffCollections,
  export: exportDocs,
  snapshot: snapshotCollection,
  undo: collectionUndo,
  informer: collectionInformer,
};
