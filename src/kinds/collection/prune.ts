/**
 * Pruning collections (pure). Deleting a collection deletes the collections nested in it and soft-deletes the
 * spaces inside them (management-api.md: restorable for 7 days). So, under prune:
 *
 * - every live collection no manifest describes gets a delete step (nested ones first) whose `cascades` list the
 *   spaces directly inside it that nothing else deletes first (a nested collection has a step of its own, and so
 *   has a space the Space kind prunes), each followed by what its purge takes 7 days later (space-purge.ts);
 * - a delete never takes a managed object: a collection a Collection manifest describes, a space a Space manifest
 *   describes, or a live space a Site manifest names (whatever those kinds' prune setting). One whose manifest
 *   does not write `parent` (a Site names no parent) is moved to the top level first (an update step); one whose
 *   manifest moves it elsewhere is moved by its own kind's `#move` step. Either way every delete that could take
 *   it depends on that move;
 * - a manifest that puts an object into a collection being deleted (its `parent` names it) contradicts the prune:
 *   that collection and the collections holding it are not deleted, and each is a blocked object naming the
 *   manifest position (the run fails; the rest of the plan goes on).
 */
import type { DesiredEntry, DiffContext, DiffResult, LiveObject } from '../../model/kind.js';
import type { BlockedObject, CascadeObject, Step } from '../../model/plan.js';
import type { SourcePos } from '../../model/errors.js';
import { SOFT_DELETE, type CollectionObject, type CollectionSpec, type PruneSpace } from './model.js';
import { isRecord, makeStep, nullableString, plainSource, seg, stepId } from '../common.js';
import { withDisplayKeys, matchByIdOrTitle } from '../match.js';
import { uniqueKeys } from '../unmatched.js';
import { purgeCascades, siteNamedSpaces, type SpaceUsage } from '../space-purge.js';

const SPACE = 'Space';

export interface CollectionPruneInput {
  ctx: DiffContext;
  org: string;
  kind: string;
  /** The Collection kind's depth (waves of its steps). */
  depth: number;
  spaceDepth: number;
  collections: readonly CollectionObject[];
  /** The desired collections of the org, display-keyed as the diff keys them. */
  desired: readonly DesiredEntry<CollectionSpec>[];
  /** Desired collections (display-keyed) → the live collection they manage. */
  matched: ReadonlyMap<DesiredEntry<CollectionSpec>, CollectionObject>;
  /** Live collections no manifest describes: deleted under prune. */
  unmatched: readonly CollectionObject[];
  /** Desired collections' parents resolved (undefined = not written or unknown, null = top level, else id or ref). */
  parentOf: (e: DesiredEntry<CollectionSpec>) => string | null | undefined;
  /** The organization's live spaces, read under prune (undefined: not read). */
  spaces: readonly PruneSpace[] | undefined;
  /** Where spaces are shown (sites), read when a deleted collection holds a space. */
  usage: SpaceUsage | undefined;
  /** Resolve a parent reference as the Space kind does (undefined: unknown). */
  resolveParent: (written: string) => string | undefined;
}

export interface CollectionPrune {
  /** The unmatched collections that are deleted (blocked ones left out). */
  deleted: CollectionObject[];
  /** Key of an unmatched collection's delete step (unique among all unmatched ones). */
  key: (o: CollectionObject) => string;
  cascades: (o: CollectionObject) => CascadeObject[];
  dependsOn: (o: CollectionObject) => string[];
}

/** One managed object inside a live collection, and where its manifest wants it. */
interface Managed {
  kind: string;
  name: string;
  /** Live parent collection id (null: top level; undefined: not live yet). */
  live: string | null | undefined;
  /** Wanted parent: undefined = not written (or unknown), null = top level, else id or ref. */
  target: string | null | undefined;
  /** Step id of the move its own kind plans (when the target differs from the live parent). */
  ownMove?: string;
  /** Where the manifest writes `parent` (or names the object, for a Site's space). */
  at: SourcePos;
  /** For a move-out step: the object's key, id and path, and its entry (source). */
  moveOut?: { key: string; id: string; path: string; wave: number; entry?: DesiredEntry };
}

const where = (p: SourcePos): string => `${p.file}:${p.line}:${p.column}`;

export function pruneCollections(input: CollectionPruneInput, result: DiffResult): CollectionPrune {
  const { org, kind, collections, unmatched } = input;
  const byId = new Map(collections.map((c) => [c.id, c]));
  const parentIdOf = (id: string): string | null => byId.get(id)?.fields.parent ?? null;
  const managed = [...managedCollections(input), ...managedSpaces(input)];

  // A manifest that wants an object in a collection being deleted blocks that collection and every one holding it.
  const candidates = new Set(unmatched.map((c) => c.id));
  const blocked = new Map<string, BlockedObject>();
  const keyOf = uniqueKeys(unmatched, (o) => o.key);
  const block = (id: string, message: string, at: SourcePos): void => {
    for (
      let c: string | null = id, first = true;
      c !== null && candidates.has(c) && !blocked.has(c);
      c = parentIdOf(c), first = false
    ) {
      const o = byId.get(c)!;
      const why = first ? message : `it holds collection "${byId.get(id)!.key}", which cannot be deleted (see there)`;
      blocked.set(c, { kind, org, key: keyOf(o), message: `not deleted (prune): ${why}`, source: plainSource(at) });
    }
  };
  for (const m of managed) {
    if (typeof m.target === 'string' && candidates.has(m.target)) {
      block(
        m.target,
        `${m.name} (${where(m.at)}) is to be inside it, and deleting a collection deletes what is inside it; ` +
          `write another parent, or describe the collection in a manifest`,
        m.at,
      );
    }
  }
  result.blocked.push(...blocked.values());
  const deleted = new Set([...candidates].filter((id) => !blocked.has(id)));

  // Managed objects directly inside a deleted collection move out first; the deletes that could take them wait.
  const waits = new Map<string, string[]>();
  const waitFor = (parent: string, stepIdToWait: string): void => {
    for (let c: string | null = parent; c !== null && deleted.has(c); c = parentIdOf(c))
      waits.set(c, [...(waits.get(c) ?? []), stepIdToWait]);
  };
  for (const m of managed) {
    if (typeof m.live !== 'string' || !deleted.has(m.live)) continue;
    if (m.ownMove !== undefined) {
      waitFor(m.live, m.ownMove);
      continue;
    }
    const step = moveOutStep(org, m, m.live, byId.get(m.live)!.key);
    result.steps.push(step);
    waitFor(m.live, step.id);
  }

  // What each delete takes: the spaces directly inside it that are neither managed nor deleted by a step of their own.
  const managedSpaceIds = new Set(managed.filter((m) => m.kind === SPACE && m.moveOut).map((m) => m.moveOut!.id));
  const spacesPruned = spacesWithOwnDelete(input);
  const inside = new Map<string, PruneSpace[]>();
  for (const s of input.spaces ?? []) {
    if (s.parent === null || !deleted.has(s.parent) || managedSpaceIds.has(s.id) || spacesPruned.has(s.id)) continue;
    inside.set(s.parent, [...(inside.get(s.parent) ?? []), s]);
  }
  // …and, when each is purged 7 days later, the site spaces showing it (and sections left empty).
  const deletedOrder = unmatched.filter((o) => deleted.has(o.id));
  const mine = deletedOrder.flatMap((o) => (inside.get(o.id) ?? []).map((s) => s.id));
  const later = purgeCascades(input.ctx, org, input.usage, mine, new Set([...mine, ...spacesPruned]));
  return {
    deleted: deletedOrder,
    key: keyOf,
    cascades: (o) =>
      (inside.get(o.id) ?? []).flatMap((s) => [
        { kind: SPACE, org, key: s.title, id: s.id, note: SOFT_DELETE },
        ...(later.get(s.id) ?? []),
      ]),
    dependsOn: (o) => waits.get(o.id) ?? [],
  };
}

/** The step moving a managed object to the top level before the collection `title` it is in is deleted. */
function moveOutStep(org: string, m: Managed, live: string, title: string): Step {
  const out = m.moveOut!;
  const step = makeStep({
    id: stepId(m.kind, org, out.key, 'move'),
    action: 'update',
    phase: 'update',
    kind: m.kind,
    org,
    key: out.key,
    wave: out.wave,
    before: { parent: live },
    after: { parent: null },
    requests: [{ method: 'POST', path: `${out.path}/move`, body: { parent: null }, idempotent: true }],
    note: `moved to the top level before collection "${title}" is deleted (prune), which would delete it`,
    ...(out.entry ? { entry: out.entry } : {}),
  });
  if (!out.entry) step.source = plainSource(m.at);
  return step;
}

/** Collection manifests: where each wants its collection (matched ones have a live parent). */
function managedCollections(input: CollectionPruneInput): Managed[] {
  const { org, kind } = input;
  const out: Managed[] = [];
  for (const e of input.desired) {
    const o = input.matched.get(e);
    if (!o) {
      out.push({
        kind,
        name: `new collection "${e.key}"`,
        live: undefined,
        target: input.parentOf(e),
        at: parentPos(e),
      });
      continue;
    }
    const live = o.fields.parent;
    const target = input.parentOf(e);
    out.push({
      kind,
      name: `collection "${e.key}"`,
      live,
      target,
      ...(target !== undefined && target !== live ? { ownMove: stepId(kind, org, e.key, 'move') } : {}),
      at: parentPos(e),
      moveOut: { key: e.key, id: o.id, path: `/collections/${seg(o.id)}`, wave: input.depth, entry: e },
    });
  }
  return out;
}

/** Space manifests (any prune setting), and live spaces a Site manifest names. */
function managedSpaces(input: CollectionPruneInput): Managed[] {
  const { ctx, org } = input;
  const live: LiveObject<{ parent: string | null }>[] = (input.spaces ?? []).map((s) => ({
    kind: SPACE,
    org,
    key: s.title,
    id: s.id,
    fields: { parent: s.parent },
  }));
  const entries = withDisplayKeys(ctx.desired(SPACE, org));
  const { matched } = matchByIdOrTitle(SPACE, entries, live);
  const out: Managed[] = [];
  const claimed = new Set<string>();
  for (const e of entries) {
    const o = matched.get(e);
    const written = writtenParent(e);
    const target = typeof written === 'string' ? input.resolveParent(written) : written;
    const liveParent = o ? o.fields.parent : undefined;
    if (o) claimed.add(o.id);
    out.push({
      kind: SPACE,
      name: `${o ? '' : 'new '}space "${e.key}"`,
      live: liveParent,
      target,
      ...(o && target !== undefined && target !== liveParent ? { ownMove: stepId(SPACE, org, e.key, 'move') } : {}),
      at: parentPos(e),
      ...(o
        ? { moveOut: { key: e.key, id: o.id, path: `/spaces/${seg(o.id)}`, wave: input.spaceDepth, entry: e } }
        : {}),
    });
  }
  // A live space a Site manifest names (by title or id) that no Space manifest describes: the site needs it.
  const named = siteNamedSpaces(ctx, org);
  const usedBySites = live.filter((o) => !claimed.has(o.id) && (named.has(o.id) || named.has(o.key)));
  const taken = new Set(entries.map((e) => e.key));
  const key = uniqueKeys(usedBySites, (o) => o.key);
  for (const o of usedBySites) {
    const k = taken.has(key(o)) ? `${o.key} (${o.id})` : key(o);
    out.push({
      kind: SPACE,
      name: `space "${o.key}", which a Site manifest shows,`,
      live: o.fields.parent,
      target: undefined,
      at: named.get(o.id) ?? named.get(o.key)!,
      moveOut: { key: k, id: o.id, path: `/spaces/${seg(o.id)}`, wave: input.spaceDepth },
    });
  }
  return out;
}

/** Spaces the Space kind deletes with steps of its own (it is managed in the org and prunes): unmatched live spaces. */
function spacesWithOwnDelete(input: CollectionPruneInput): Set<string> {
  const { ctx, org } = input;
  const entries = ctx.desired(SPACE, org);
  if (!input.spaces || entries.length === 0 || !ctx.prune(SPACE, org)) return new Set();
  const live: LiveObject[] = input.spaces.map((s) => ({ kind: SPACE, org, key: s.title, id: s.id, fields: {} }));
  return new Set(matchByIdOrTitle(SPACE, withDisplayKeys(entries), live).unmatched.map((o) => o.id));
}

/**
 * The `parent` a Collection or Space entry writes (undefined: not written). Space entries reach this kind with
 * their spec's type forgotten (ctx.desired): the one field is read with a check.
 */
function writtenParent(e: DesiredEntry): string | null | undefined {
  return isRecord(e.spec) ? nullableString(e.spec['parent']) : undefined;
}

/** Where an entry writes `parent`, else the entry itself. */
function parentPos(e: DesiredEntry): SourcePos {
  return writtenParent(e) !== undefined ? e.doc.pos(['spec', 'parent']) : e.source;
}
