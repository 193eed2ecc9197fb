/**
 * Space: identity by title or pinned id. Create POST /orgs/{o}/spaces {title, emoji, parent, editMode} (+ a
 * PATCH of defaultLevel in the same step), PATCH /spaces/{id}, move to another collection with
 * POST /spaces/{id}/move {parent}, soft DELETE only under prune. Ids are registered so a Site can name
 * spaces by their manifest title. `access:`, when written, is the space's complete list of grants (src/kinds/access).
 */
import type { DesiredEntry, DiffContext, DiffResult, FetchContext, IdentityLookup, KindDefinition, Report } from '../../model/kind.js';
import type { RequestSpec } from '../../model/plan.js';
import { ref } from '../../model/refs.js';
import type { ManifestDocument } from '../../model/document.js';
import { accessPlanner } from '../access/diff.js';
import { accessSpec } from '../access/export.js';
import { accessReader } from '../access/fetch.js';
import type { AccessObject } from '../access/model.js';
import { crossValidateAccess, withAccessEntries } from '../access/parse.js';
import { splitAccess } from '../access/state.js';
import { COLLECTION_KIND, collectionObject, collectionsPath } from '../collection/model.js';
import { ambiguousParent, parentMoveStep, parentNamer, resolveCollection, type LiveCollectionRef } from '../collection/parent-refs.js';
import { unresolvedParentMessage } from '../collection/parents.js';
import { SOFT_DELETE } from '../collection/prune.js';
import { blockEntry, changedFields, exportTitled, makeStep, pick, plainSource, refSteps, stepId, titledEntry, uniqueLiveKey, unmatchedLive, withDisplayKeys } from '../common.js';
import { spaceSchema, type SpaceManifestSpec } from '../generated/space.js';
import { memberIds } from '../access/fetch.js';
import { membersListPath } from '../access/model.js';
import { mustExistLive, namesManifest } from '../manifest-refs.js';
import { byId, liveMergeRules, manifestMergeRules, writesMergeRules } from '../merge-rules.js';
import { mergeRulesChange } from './merge-rules.js';
import { matchByIdOrTitle } from '../match.js';
import { recoverByTitleInParent } from '../recover.js';
import { SPACE_DEPTH, SPACE_FIELDS as FIELDS, SPACE_KIND, orgSpacesPath, spaceObject, spacePath as onePath, type SpaceAux, type SpaceKindState, type SpaceObject, type SpaceSpec, type SpaceState, SPACE_ACCESS } from './model.js';
import { purgeCascades, readSpaceUsage, siteNamedSpaces, usageObjects } from './purge.js';
import { snapshotSpace, spaceUndo } from './snapshot.js';
import { spaceInformer } from './informer.js';

function toDesired(doc: ManifestDocument<SpaceManifestSpec>, report: Report): DesiredEntry<SpaceSpec>[] {
  return [titledEntry(SPACE_KIND, doc, withAccessEntries(doc, report))];
}

/** A parent naming no Collection manifest must name a live collection: a warning offline (plan blocks the space otherwise). Access lists: crossValidateAccess. */
function crossValidate(entries: DesiredEntry<SpaceSpec>[], all: ReadonlyMap<string, DesiredEntry[]>, report: Report, index: IdentityLookup, warn?: Report): void {
  crossValidateAccess(entries, all, report, index, warn);
  if (!warn) return;
  const known = namesManifest(all, COLLECTION_KIND, index);
  for (const e of entries) {
    const parent = e.spec.parent;
    if (typeof parent === 'string' && !known(e.org, parent)) warn(e.doc.pos(['spec', 'parent']), mustExistLive('parent collection', parent, COLLECTION_KIND, e.org));
  }
}

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
  if (!ctx.prune(SPACE_KIND, org) || matchByIdOrTitle(SPACE_KIND, withDisplayKeys(desired), objects).unmatched.length === 0) return { objects, aux: { collections: liveCollections, ...members } };
  const usage = await readSpaceUsage(ctx, org);
  return { objects, aux: { collections: liveCollections, usage, ...members }, related: usageObjects(org, usage) };
}

function diff(ctx: DiffContext, org: string, entries: DesiredEntry<SpaceSpec>[], state: SpaceKindState): DiffResult {
  const desired = withDisplayKeys(entries);
  const result: DiffResult = { steps: [], unmanaged: [], warnings: [], blocked: [] };
  const { own, grants } = splitAccess(state.objects);
  const live: SpaceState = { ...state, objects: own };
  const access = accessPlanner(ctx, org, SPACE_ACCESS, { objects: grants, aux: state.aux });
  const { matched, unmatched, stalePins } = matchByIdOrTitle(SPACE_KIND, desired, live.objects);
  for (const e of stalePins) result.warnings.push({ kind: SPACE_KIND, org, key: e.key, message: `pinned id ${e.id} does not exist; matched by title instead` });
  const collections = live.aux?.collections ?? [];

  for (const entry of desired) {
    const spec = entry.spec;
    const current = matched.get(entry);
    // An access entry naming nothing blocks the space before anything of it is planned or registered.
    if (access.block(result, entry)) continue;
    let parent: string | null | undefined = spec.parent;
    if (typeof spec.parent === 'string') {
      const target = resolveCollection(ctx, org, spec.parent, collections);
      if (target && 'ambiguous' in target) {
        // Moving the space into one of them would be a guess, and leaving it would look like "no changes".
        blockEntry(result, entry, entry.doc.pos(['spec', 'parent']), ambiguousParent(spec.parent, target.ambiguous));
        if (current) ctx.register(SPACE_KIND, org, entry.key, current.id);
        continue;
      }
      parent = target?.id;
      if (parent === undefined) {
        // Nothing of the space is planned or registered: a Site naming it (if it is new) is blocked in turn.
        blockEntry(result, entry, entry.doc.pos(['spec', 'parent']), unresolvedParentMessage(spec.parent));
        continue;
      }
    }
    const rules = mergeRulesChange(ctx, org, entry, current?.fields, live.aux?.members ?? {});
    if (rules && 'message' in rules) {
      blockEntry(result, entry, entry.doc.pos(rules.at), `${rules.message}; nothing of the space is planned until it names a member`);
      continue;
    }
    const base = { kind: SPACE_KIND, org, key: entry.key, entry };
    if (!current) {
      const createId = stepId(SPACE_KIND, org, entry.key, 'create');
      const body: Record<string, unknown> = pick(spec, ['title', 'emoji', 'editMode']);
      if (typeof parent === 'string') body['parent'] = parent;
      const requests: RequestSpec[] = [{ method: 'POST', path: orgSpacesPath(org), body: sortKeys(body, ['title', 'emoji', 'parent', 'editMode']), capture: { id: 'id' }, recover: recoverByTitleInParent(live.objects, spec.title) }];
      const patch = { ...(typeof spec.defaultLevel === 'string' ? { defaultLevel: spec.defaultLevel } : {}), ...(rules ? { mergeRules: rules.body } : {}) };
      if (Object.keys(patch).length > 0) requests.push({ method: 'PATCH', path: onePath(ref(createId)), body: patch });
      const after = { ...pick(spec, FIELDS), ...(spec.parent !== undefined ? { parent: spec.parent } : {}), ...(rules ? { mergeRules: rules.after } : {}) };
      result.steps.push(makeStep({ ...base, id: createId, action: 'create', phase: 'create', wave: SPACE_DEPTH, before: null, after, requests, dependsOn: refSteps(parent) }));
      ctx.register(SPACE_KIND, org, entry.key, ref(createId));
      continue;
    }
    ctx.register(SPACE_KIND, org, entry.key, current.id);
    const have = current.fields;
    const c = changedFields(spec, have, FIELDS);
    if (c.changed.length > 0 || rules) {
      const [before, after, body] = rules ? [{ ...c.before, mergeRules: rules.before }, { ...c.after, mergeRules: rules.after }, { ...c.after, mergeRules: rules.body }] : [c.before, c.after, c.after];
      result.steps.push(makeStep({ ...base, id: stepId(SPACE_KIND, org, entry.key, 'update'), action: 'update', phase: 'update', wave: SPACE_DEPTH, before, after, requests: [{ method: 'PATCH', path: onePath(current.id), body }] }));
    }
    const move = parentMoveStep({ kind: SPACE_KIND, org, entry, wave: SPACE_DEPTH, path: onePath(current.id), live: have.parent, parent, written: spec.parent });
    if (move) result.steps.push(move);
  }
  access.plan(result, desired);

  const prune = ctx.prune(SPACE_KIND, org);
  const key = uniqueLiveKey(unmatched);
  const deleted = prune ? pruneSpaces(ctx, org, unmatched, key, result) : unmatched;
  const later = prune ? purgeCascades(ctx, org, live.aux?.usage, deleted.map((o) => o.id), new Set(deleted.map((o) => o.id))) : undefined;
  unmatchedLive(result, {
    kind: SPACE_KIND,
    org,
    prune,
    objects: deleted,
    key,
    wave: () => SPACE_DEPTH,
    path: (o) => onePath(o.id),
    before: (o) => ({ title: o.key }),
    note: SOFT_DELETE,
    cascades: (o) => later?.get(o.id) ?? [],
  });
  return result;
}

/**
 * The unmatched spaces a prune deletes: all but those a Site manifest shows (by title or id), whose delete would
 * drop that site space at the purge — each of those is a blocked object naming where the site shows it.
 */
function pruneSpaces(ctx: DiffContext, org: string, unmatched: SpaceObject[], key: (o: SpaceObject) => string, result: DiffResult): SpaceObject[] {
  const named = siteNamedSpaces(ctx, org);
  if (named.size === 0) return unmatched;
  return unmatched.filter((o) => {
    const at = named.get(o.id) ?? named.get(o.key);
    if (!at) return true;
    result.blocked.push({
      kind: SPACE_KIND,
      org,
      key: key(o),
      message:
        `not deleted (prune): a Site manifest shows it (${at.file}:${at.line}:${at.column}), and the site space would go when the deleted space is purged; ` +
        'describe the space in a Space manifest, or take it out of the site',
      source: plainSource(at),
    });
    return false;
  });
}

/** The body with its keys in the documented order (stable plans). */
function sortKeys(body: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(order.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
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
    const rules = liveMergeRules(f.mergeRules);
    const mergeRules = rules && rules.type !== 'inherit' && live.aux?.members ? manifestMergeRules(rules, byId(live.aux.members)) : undefined;
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
  scope: { reads: (entries) => (entries.some((e) => typeof e.spec.parent === 'string') ? ['Collection'] : []), affectedBy: ['Collection', 'Site'] },
  toDesired,
  crossValidate,
  fetch,
  diff,
  export: exportDocs,
  snapshot: snapshotSpace,
  undo: spaceUndo,
  informer: spaceInformer,
};
