/**
 * Parent references, shared by Collection and Space: a `parent` written as a Collection manifest title, a live
 * collection title or id → the collection's id (or a ref to the step creating it); the `#move` step that puts a
 * live object under it; how export names a parent, and undo relinks one. Not a kind's: both kinds' own.
 */
import type { DesiredEntry, DiffContext, LiveKindState, LiveObject, UndoRefs } from '../model/kind.js';
import type { Step } from '../model/plan.js';
import { makeStep, refSteps, stepId } from './common.js';
import { COLLECTION_KIND } from './collection/model.js';

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
export function resolveCollection(
  ctx: DiffContext,
  org: string,
  parent: string,
  live: readonly LiveCollectionRef[],
): ParentTarget | undefined {
  const known = ctx.resolve(COLLECTION_KIND, org, parent);
  if (known !== undefined) return { id: known };
  if (live.some((c) => c.id === parent)) return { id: parent };
  const titled = live.filter((c) => c.title === parent);
  if (titled.length === 1) return { id: titled[0]!.id };
  return titled.length > 1 ? { ambiguous: titled.map((c) => c.id) } : undefined;
}

/** `resolveCollection` as an id: undefined when the parent names nothing or several live collections. */
export function resolveCollectionId(
  ctx: DiffContext,
  org: string,
  parent: string,
  live: readonly LiveCollectionRef[],
): string | undefined {
  const target = resolveCollection(ctx, org, parent, live);
  return target && 'id' in target ? target.id : undefined;
}

/** Why a Space or Collection whose `parent` names nothing is blocked. */
export function unresolvedParentMessage(parent: string): string {
  return `parent collection "${parent}" is neither a Collection manifest nor a live collection (by title or id)`;
}

/** The message of a parent that names several live collections. */
export const ambiguousParent = (parent: string, ids: readonly string[]): string =>
  `parent "${parent}" names ${ids.length} live collections (${ids.join(', ')}); write the id of the one you mean`;

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
    requests: [{ method: 'POST', path: `${m.path}/move`, body: { parent: m.parent }, idempotent: true }],
    dependsOn: refSteps(m.parent),
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

/** A parent undo recreates is named by its title (its new id is unknown until apply). */
export function relinkParents<O extends LiveObject<{ parent: string | null }>, A>(
  kind: string,
  org: string,
  state: LiveKindState<O, A>,
  refs: UndoRefs,
): LiveKindState<O, A> {
  const objects = state.objects.map((o) => {
    const parent = o.fields.parent;
    if (o.kind !== kind || typeof parent !== 'string') return o;
    const title = refs.recreated(COLLECTION_KIND, org, parent);
    return title === undefined ? o : { ...o, fields: { ...o.fields, parent: title } };
  });
  return { ...state, objects };
}
