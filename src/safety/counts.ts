/**
 * What the safety rules measure. A rule compares a plan's changes with the live total of the same population:
 * - the objects of a kind in an organization, for the kinds read as one organization-wide list (teams, spaces …);
 * - one object's list, for sub-objects a kind reads per object and only for some objects (`LiveObject.parent`: the
 *   grants of one space, the sections of one site, the memberships of one team). Their organization total is never
 *   known (only the lists of the objects a manifest manages are read), so it is never a denominator.
 * Each change belongs to the population of the live object it addresses (a delete step by the id in its DELETE path
 * or its key, an update step by the ids in its paths or its key, a cascade by its id or key); a change that
 * addresses no live object read counts in its kind's organization population, whose live count is then 0.
 * Objects a delete takes with it (Step.cascades) count as deletes of their own kind, once each, and not again
 * when the plan also deletes them with a step of its own.
 */
import { objectIdentity } from '../engine/cascades.js';
import type { LiveObject, ParentRef } from '../model/kind.js';
import { pathSegments, type Plan, type Step } from '../model/plan.js';
import type { LiveState } from '../model/state.js';

export interface Population {
  kind: string;
  org: string;
  /** The object whose list this is; absent: every object of the kind in the organization. */
  parent?: ParentRef;
}

export interface ScopeChanges extends Population {
  /** Distinct objects deleted: the keys of delete and prune steps, plus the cascaded objects no such step deletes. */
  deletes: Set<string>;
  /** How many of `deletes` are taken along by deleting another object (cascades of delete steps). */
  cascaded: number;
  /** Distinct keys of update steps. */
  updates: Set<string>;
  /** The parent object is deleted by this plan: its list goes with it, which the parent's own delete measures. */
  parentDeleted: boolean;
}

/** Live objects per population, and where each live object belongs. */
export interface LiveIndex {
  /** Population key → number of distinct live objects. */
  counts: ReadonlyMap<string, number>;
  /** The parent of a live object (null: organization-wide), by its identity (objectIdentity, by id and by key). */
  parents: ReadonlyMap<string, ParentRef | null>;
}

export function populationKey(p: Population): string {
  const base = `${p.kind}\u0000${p.org}`;
  if (!p.parent) return base;
  return `${base}\u0000${p.parent.kind}\u0000${p.parent.id !== '' ? `id:${p.parent.id}` : `key:${p.parent.key}`}`;
}

const byKey = (kind: string, org: string, key: string): string => objectIdentity({ kind, org, key });
const byId = (kind: string, org: string, id: string): string => objectIdentity({ kind, org, key: '', id });

/**
 * Live objects per population, each object counted once even when two kinds' states both hold it (also the
 * objects a kind read only to know what its deletes take along, `related`).
 */
export function liveIndex(live: LiveState): LiveIndex {
  const seen = new Map<string, Set<string>>();
  const parents = new Map<string, ParentRef | null>();
  const add = (o: LiveObject): void => {
    const k = populationKey({ kind: o.kind, org: o.org, ...(o.parent ? { parent: o.parent } : {}) });
    const ids = seen.get(k) ?? new Set<string>();
    ids.add(o.id !== '' ? `id:${o.id}` : `key:${o.key}`);
    seen.set(k, ids);
    const where = o.parent ?? null;
    if (o.id !== '' && !parents.has(byId(o.kind, o.org, o.id))) parents.set(byId(o.kind, o.org, o.id), where);
    if (!parents.has(byKey(o.kind, o.org, o.key))) parents.set(byKey(o.kind, o.org, o.key), where);
  };
  for (const state of live.values()) for (const o of [...state.objects, ...(state.related ?? [])]) add(o);
  return { counts: new Map([...seen].map(([k, ids]) => [k, ids.size])), parents };
}

export function liveCountOf(index: LiveIndex, p: Population): number {
  return index.counts.get(populationKey(p)) ?? 0;
}

const NO_LIVE: LiveIndex = { counts: new Map(), parents: new Map() };

/** The parent of the live object a change addresses: by one of `ids` first, then by key; undefined when none was read. */
function parentOf(
  index: LiveIndex,
  kind: string,
  org: string,
  key: string,
  ids: Iterable<string>,
): ParentRef | undefined {
  for (const id of ids) {
    const found = index.parents.get(byId(kind, org, id));
    if (found !== undefined) return found ?? undefined;
  }
  return index.parents.get(byKey(kind, org, key)) ?? undefined;
}

const stepIds = (s: Step): Set<string> => pathSegments(s, s.action === 'delete' ? ['DELETE'] : undefined);

/**
 * Deletes and updates of a plan, per population, in a stable order (kind, org, then parent kind and key). By action, not phase:
 * a step of the delete phase that replaces an object by an equivalent one (a Site's root site space by the one
 * its new section is created with) is an update, not a loss.
 */
export function planChanges(plan: Plan, index: LiveIndex = NO_LIVE): ScopeChanges[] {
  const byPopulation = new Map<string, ScopeChanges>();
  const scope = (kind: string, org: string, parent: ParentRef | undefined): ScopeChanges => {
    const p: Population = { kind, org, ...(parent ? { parent } : {}) };
    const k = populationKey(p);
    let c = byPopulation.get(k);
    if (!c) {
      c = { ...p, deletes: new Set(), cascaded: 0, updates: new Set(), parentDeleted: false };
      byPopulation.set(k, c);
    }
    return c;
  };
  // What the plan deletes, by identity: its delete steps' keys and the ids in their DELETE paths, and every cascade.
  const deleted = new Set<string>();
  const stepped = new Set<string>();
  for (const s of plan.steps) {
    if (s.action === 'create') continue;
    const ids = stepIds(s);
    const c = scope(s.kind, s.org, parentOf(index, s.kind, s.org, s.key, ids));
    if (s.action !== 'delete') {
      c.updates.add(s.key);
      continue;
    }
    c.deletes.add(`step:${s.key}`);
    stepped.add(byKey(s.kind, s.org, s.key));
    for (const id of ids) stepped.add(byId(s.kind, s.org, id));
  }
  for (const s of plan.steps) {
    for (const o of s.cascades ?? []) {
      const hasId = o.id !== undefined && o.id !== '';
      if (hasId ? stepped.has(byId(o.kind, o.org, o.id!)) : stepped.has(byKey(o.kind, o.org, o.key))) continue;
      deleted.add(objectIdentity(o)).add(byKey(o.kind, o.org, o.key));
      const c = scope(o.kind, o.org, parentOf(index, o.kind, o.org, o.key, hasId ? [o.id!] : []));
      const before = c.deletes.size;
      c.deletes.add(`cascade:${objectIdentity(o)}`);
      if (c.deletes.size > before && s.action === 'delete') c.cascaded++;
    }
  }
  for (const k of stepped) deleted.add(k);
  const out = [...byPopulation.values()];
  for (const c of out) {
    const p = c.parent;
    if (p)
      c.parentDeleted =
        (p.id !== '' && deleted.has(byId(p.kind, c.org, p.id))) || deleted.has(byKey(p.kind, c.org, p.key));
  }
  return out.sort((a, b) => cmp(sortKey(a), sortKey(b)) || cmp(populationKey(a), populationKey(b)));
}

/** Kind, org, then the parent as messages name it (kind and key): a stable order a reader follows. */
const sortKey = (c: Population): string => [c.kind, c.org, c.parent?.kind ?? '', c.parent?.key ?? ''].join('\u0000');

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
