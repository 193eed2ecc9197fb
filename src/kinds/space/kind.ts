/**
 * Space: identity by title or pinned id. Create POST /orgs/{o}/spaces {title, emoji, parent, editMode} (+ a
 * PATCH of defaultLevel in the same step), PATCH /spaces/{id}, move to another collection with
 * POST /spaces/{id}/move {parent}, soft DELETE only under prune. Ids are registered so a Site can name
 * spaces by their manifest title. `access:`, when written, is the space's complete list of grants (src/kinds/access).
 */
import type { DesiredEntry, FetchContext, KindDefinition, Report } from '../../model/kind.js';
import type { ManifestDocument } from '../../model/document.js';
import { accessSpec } from '../access/export.js';
import { accessReader } from '../access/fetch.js';
import type { AccessObject } from '../access/model.js';
import { crossValidateAccess, withAccessEntries } from '../access/parse.js';
import { splitAccess } from '../access/state.js';
import { COLLECTION_KIND, collectionObject, collectionsPath } from '../collection/model.js';
import { parentNamer, type LiveCollectionRef } from '../parent-refs.js';
import { exportTitled, type CrossValidate } from '../common.js';
import { titledEntry, withDisplayKeys, matchByIdOrTitle } from '../match.js';
import { spaceSchema, type SpaceManifestSpec } from '../generated/space.js';
import { memberIds } from '../access/fetch.js';
import { membersListPath } from '../access/model.js';
import { mustExistLive, namesManifest } from '../manifest-refs.js';
import { byId, liveMergeRules, manifestMergeRules, unknownMergeRules, writesMergeRules } from '../merge-rules.js';
import { diffSpaces } from './diff.js';
import {
  SPACE_DEPTH,
  SPACE_KIND,
  orgSpacesPath,
  spaceObject,
  type SpaceAux,
  type SpaceKindState,
  type SpaceObject,
  type SpaceSpec,
  type SpaceState,
  SPACE_ACCESS,
} from './model.js';
import { readSpaceUsage, usageObjects } from '../space-purge.js';
import { snapshotSpace, spaceUndo } from './snapshot.js';
import { spaceInformer } from './informer.js';

function toDesired(doc: ManifestDocument<SpaceManifestSpec>, report: Report): DesiredEntry<SpaceSpec>[] {
  return [titledEntry(SPACE_KIND, doc, withAccessEntries(doc, report))];
}

/** A parent naming no Collection manifest must name a live collection: a warning offline (plan blocks the space otherwise). Access lists: crossValidateAccess. */
const crossValidate: CrossValidate<SpaceSpec> = (entries, all, report, index, warn) => {
  crossValidateAccess(entries, all, report, index, warn);
  if (!warn) return;
  const known = namesManifest(all, COLLECTION_KIND, index);
  for (const e of entries) {
    const parent = e.spec.parent;
    if (typeof parent === 'string' && !known(e.org, parent))
      warn(e.doc.pos(['spec', 'parent']), mustExistLive('parent collection', parent, COLLECTION_KIND, e.org));
  }
};

/** The spaces, and the grants of those whose manifest writes `access:` (src/kinds/access/fetch.ts). */
async function fetch(ctx: FetchContext, org: string, desired: DesiredEntry<SpaceSpec>[]): Promise<SpaceKindState> {
  const access = accessReader(ctx, org, SPACE_ACCESS, desired);
  const state = await fetchSpaces(ctx, org, desired);
  const grants = await access.read(state.objects);
  if (grants.objects.length === 0 && Object.keys(grants.aux).length === 0) return state;
  return { ...state, objects: [...state.objects, ...grants.objects], aux: { ...state.aux, ...grants.aux } };
}

/**
 * Spaces, plus the live collections (id and title) when a parent is written: a parent may name a live
 * collection by id or by title without any Collection manifest. Both lists are shared with other kinds.
 */
async function fetchSpaces(ctx: FetchContext, org: string, desired: DesiredEntry<SpaceSpec>[]): Promise<SpaceState> {
  const wantsParent = desired.some((e) => typeof e.spec.parent === 'string');
  const wantsMembers = desired.some((e) => writesMergeRules(e.spec));
  const [spaces, collections, people] = await Promise.all([
    ctx.list(orgSpacesPath(org)),
    wantsParent ? ctx.list(collectionsPath(org)) : Promise.resolve([]),
    wantsMembers ? ctx.list(membersListPath(org)) : Promise.resolve(undefined),
  ]);
  const members = people ? { members: memberIds(people) } : {};
  const liveCollections: LiveCollectionRef[] = collections.flatMap((c) => {
    const o = collectionObject(org, c);
    return o ? [{ id: o.id, title: o.key }] : [];
  });
  const objects = spaces.map((s) => spaceObject(org, s)).filter((o) => o !== undefined);
  // Under prune, what a space delete takes later (site spaces, emptied sections): only when one would be deleted.
  if (
    !ctx.prune(SPACE_KIND, org) ||
    matchByIdOrTitle(SPACE_KIND, withDisplayKeys(desired), objects).unmatched.length === 0
  )
    return { objects, aux: { collections: liveCollections, ...members } };
  const usage = await readSpaceUsage(ctx, org);
  return { objects, aux: { collections: liveCollections, usage, ...members }, related: usageObjects(org, usage) };
}

function exportDocs(org: string, state: SpaceKindState): object[] {
  const live: SpaceState = { ...state, objects: splitAccess(state.objects).own };
  const parentName = parentNamer(live.aux?.collections ?? []);
  return exportTitled(SPACE_KIND, org, live, (o) => {
    const f = o.fields;
    const spec: Record<string, unknown> = {};
    if (f.emoji) spec['emoji'] = f.emoji;
    if (f.editMode !== null && f.editMode !== undefined && f.editMode !== 'live') spec['editMode'] = f.editMode;
    if (f.defaultLevel !== null && f.defaultLevel !== undefined) spec['defaultLevel'] = f.defaultLevel;
    if (f.parent !== null && f.parent !== undefined) spec['parent'] = parentName(f.parent);
    // Left out: the default (inherit), and rules naming a user the member list gives no e-mail for.
    // Rules of a type docops does not know are written as answered (export marks them).
    const rules = liveMergeRules(f.mergeRules);
    const mergeRules = !rules
      ? unknownMergeRules(f.mergeRules)
      : rules.type !== 'inherit' && live.aux?.members
        ? manifestMergeRules(rules, byId(live.aux.members))
        : undefined;
    if (mergeRules) spec['mergeRules'] = mergeRules;
    return { ...spec, ...accessSpec(live.aux, o.id) };
  });
}

/**
 * The snapshot and undo hooks take spaces only: the journal calls a kind's snapshot for objects of its own kind
 * (never a SpaceAccess grant), and undo's parts of this kind hold what snapshotSpace wrote.
 */
export const spaceKind: KindDefinition<SpaceSpec, SpaceObject | AccessObject, SpaceAux, SpaceManifestSpec> = {
  kind: SPACE_KIND,
  identity: 'title, or the pinned spec.id (which allows renaming)',
  schema: spaceSchema,
  depth: SPACE_DEPTH,
  lists: ['access'],
  // A move to parent null puts the space at the top level; a default level of null gives members no access by default.
  nullMeanings: { Space: { parent: 'top level', defaultLevel: 'no default access' } },
  // Scoped reconciles: a written parent resolves through the Collection kind (ids, create refs); its purge reads
  // the Site documents (sections a manifest writes are kept).
  scope: {
    reads: (entries) => (entries.some((e) => typeof e.spec.parent === 'string') ? ['Collection'] : []),
    affectedBy: ['Collection', 'Site'],
  },
  toDesired,
  crossValidate,
  fetch,
  diff: diffSpaces,
  export: exportDocs,
  snapshot: snapshotSpace,
  undo: spaceUndo,
  informer: spaceInformer,
};
