/**
 * Collection: a folder of spaces, identity by title or pinned id. Create POST {title, parent} (+ PATCH of the
 * fields POST cannot set, in the same step), PATCH title/description/defaultLevel, re-parent with
 * POST /collections/{id}/move, DELETE only under prune (which also removes the spaces inside).
 *
 * A collection nested under a collection created in the same plan is created at the top level and moved
 * under its parent one wave later: waves stay bounded (24, 25) however deep the nesting, so the Space kind
 * (depth 26) can always rely on its parent existing.
 */
import type { DesiredEntry, DiffContext, DiffResult, FetchContext, KindDefinition, LiveKindState, LiveObject, Report } from '../core/kind.js';
import { isRef, ref, refsIn, type RequestSpec, type Step } from '../core/plan.js';
import type { ManifestDocument } from '../manifests/document.js';
import { changedFields, isRecord, makeStep, orgPath, pick, seg, stepId, exportTitled, titledEntry, uniqueLiveKey, unmatchedLive, withDisplayKeys } from './common.js';
import { matchByIdOrTitle } from './match.js';
import { loadSchema } from './schema.js';

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

const FIELDS = ['title', 'description', 'defaultLevel'] as const;

export const collectionsPath = (org: string): string => `${orgPath(org)}/collections`;
const onePath = (id: string): string => `/collections/${seg(id)}`;

function toDesired(doc: ManifestDocument): DesiredEntry[] {
  const spec = pick(doc.spec, ['title', 'id', 'description', 'defaultLevel', 'parent']) as unknown as CollectionSpec;
  return [titledEntry(COLLECTION_KIND, doc, spec)];
}

/** A collection cannot be its own parent, directly or through other manifests. */
function crossValidate(entries: DesiredEntry[], _all: ReadonlyMap<string, DesiredEntry[]>, report: Report): void {
  const byKey = new Map(entries.map((e) => [`${e.org}\u0000${e.key}`, e]));
  for (const e of entries) {
    const seen = new Set<DesiredEntry>([e]);
    let parent = (e.spec as unknown as CollectionSpec).parent;
    while (typeof parent === 'string') {
      const next = byKey.get(`${e.org}\u0000${parent}`);
      if (!next) break;
      if (next === e) {
        report(e.doc.pos(['spec', 'parent']), `collection "${e.key}" is nested in itself (through parent "${(e.spec as unknown as CollectionSpec).parent}")`);
        break;
      }
      if (seen.has(next)) break; // a cycle further up: reported at its own members
      seen.add(next);
      parent = (next.spec as unknown as CollectionSpec).parent;
    }
  }
}

export function collectionObject(org: string, c: unknown): LiveObject | undefined {
  if (!isRecord(c) || typeof c['id'] !== 'string' || typeof c['title'] !== 'string') return undefined;
  const fields: CollectionFields = {
    title: c['title'],
    description: typeof c['description'] === 'string' ? c['description'] : null,
    defaultLevel: typeof c['defaultLevel'] === 'string' ? c['defaultLevel'] : null,
    parent: typeof c['parent'] === 'string' ? c['parent'] : null,
  };
  return { kind: COLLECTION_KIND, org, key: c['title'], id: c['id'], fields: fields as unknown as Record<string, unknown> };
}

async function fetch(ctx: FetchContext, org: string): Promise<LiveKindState> {
  const items = await ctx.list(collectionsPath(org));
  return { objects: items.map((c) => collectionObject(org, c)).filter((o): o is LiveObject => o !== undefined) };
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

function diff(ctx: DiffContext, org: string, entries: DesiredEntry[], live: LiveKindState): DiffResult {
  const desired = withDisplayKeys(entries);
  const result: DiffResult = { steps: [], unmanaged: [], warnings: [], blocked: [] };
  const { matched, unmatched, stalePins } = matchByIdOrTitle(COLLECTION_KIND, desired, live.objects);
  for (const e of stalePins) result.warnings.push({ kind: COLLECTION_KIND, org, key: e.key, message: `pinned id ${e.id} does not exist; matched by title instead` });
  // Register every desired collection first: parents may be written after their children.
  for (const e of desired) {
    const current = matched.get(e);
    ctx.register(COLLECTION_KIND, org, e.key, current ? current.id : ref(stepId(COLLECTION_KIND, org, e.key, 'create')));
  }
  const liveRefs = live.objects.map((o) => ({ id: o.id, title: o.key }));
  const parentOf = (e: DesiredEntry): string | null | undefined => {
    const p = (e.spec as unknown as CollectionSpec).parent;
    if (p === undefined || p === null) return p;
    const target = resolveCollection(ctx, org, p, liveRefs);
    if (target === undefined) result.warnings.push({ kind: COLLECTION_KIND, org, key: e.key, message: `parent collection "${p}" not found; parent not managed` });
    // Live titles reach this diff through ctx.resolve (the Collection kind is managed here), never as ambiguous.
    return target && 'id' in target ? target.id : undefined;
  };

  for (const entry of desired) {
    const spec = entry.spec as unknown as CollectionSpec;
    const current = matched.get(entry);
    const parent = parentOf(entry);
    const base = { kind: COLLECTION_KIND, org, key: entry.key, entry };
    if (!current) {
      const createId = stepId(COLLECTION_KIND, org, entry.key, 'create');
      const body: Record<string, unknown> = { title: spec.title };
      // A parent created in this plan gets its child one wave later (see the file comment).
      if (typeof parent === 'string' && !isRef(parent)) body['parent'] = parent;
      const requests: RequestSpec[] = [{ method: 'POST', path: collectionsPath(org), body, capture: { id: 'id' } }];
      const extra = pick(spec as unknown as Record<string, unknown>, ['description', 'defaultLevel']);
      if (extra['defaultLevel'] === null) delete extra['defaultLevel'];
      if (Object.keys(extra).length > 0) requests.push({ method: 'PATCH', path: onePath(ref(createId)), body: extra });
      const after = { ...pick(spec as unknown as Record<string, unknown>, FIELDS), ...(spec.parent !== undefined ? { parent: spec.parent } : {}) };
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
    const have = current.fields as unknown as CollectionFields;
    const c = changedFields(spec as unknown as Record<string, unknown>, have as unknown as Record<string, unknown>, FIELDS);
    if (c.changed.length > 0) {
      result.steps.push(
        makeStep({ ...base, id: stepId(COLLECTION_KIND, org, entry.key, 'update'), action: 'update', phase: 'update', wave: COLLECTION_DEPTH, before: c.before, after: c.after, requests: [{ method: 'PATCH', path: onePath(current.id), body: c.after }] }),
      );
    }
    const move = parentMoveStep({ kind: COLLECTION_KIND, org, entry, wave: COLLECTION_DEPTH, path: onePath(current.id), live: have.parent, parent, written: spec.parent });
    if (move) result.steps.push(move);
  }

  const depthOf = liveDepths(live.objects);
  unmatchedLive(result, {
    kind: COLLECTION_KIND,
    org,
    prune: ctx.prune(COLLECTION_KIND, org),
    objects: unmatched,
    key: uniqueLiveKey(unmatched),
    // Nested ones first (deletes run in descending wave); deeper levels share the nested wave.
    wave: (o) => COLLECTION_DEPTH + Math.min(depthOf.get(o.id) ?? 0, 1),
    path: (o) => onePath(o.id),
    before: (o) => ({ title: o.key }),
    note: 'also deletes the spaces inside it',
  });
  return result;
}

/** Nesting depth of each live collection (0 = top level). */
function liveDepths(objects: readonly LiveObject[]): Map<string, number> {
  const parentOf = new Map(objects.map((o) => [o.id, (o.fields as unknown as CollectionFields).parent]));
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

function exportDocs(org: string, live: LiveKindState): object[] {
  return exportTitled(COLLECTION_KIND, org, live, (o) => {
    const f = o.fields as unknown as CollectionFields;
    const spec: Record<string, unknown> = {};
    if (f.description !== null && f.description !== undefined) spec['description'] = f.description;
    if (f.defaultLevel !== null && f.defaultLevel !== undefined) spec['defaultLevel'] = f.defaultLevel;
    if (f.parent !== null && f.parent !== undefined) spec['parent'] = f.parent;
    return spec;
  });
}

export const collectionKind: KindDefinition = {
  kind: COLLECTION_KIND,
  identity: 'title, or the pinned spec.id (which allows renaming)',
  schema: loadSchema('collection'),
  depth: COLLECTION_DEPTH,
  toDesired,
  crossValidate,
  fetch,
  diff,
  export: exportDocs,
};
