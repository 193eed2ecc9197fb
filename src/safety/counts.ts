/**
 * What the safety rules measure: live objects per (step kind, org) and what a plan deletes and updates
 * per (step kind, org). Objects of sub-kinds count under their own kind, wherever the LiveState keeps them.
 * Objects a delete takes with it (Step.cascades) count as deletes of their own kind, once each, and not again
 * when the plan also deletes them with a step of their own.
 */
import { objectIdentity } from '../core/cascades.js';
import { pathSegments, type Plan } from '../core/plan.js';
import type { LiveState } from '../core/reconcile.js';

export interface Scope {
  kind: string;
  org: string;
}

export interface ScopeChanges extends Scope {
  /** Distinct objects deleted: the keys of delete and prune steps, plus the cascaded objects no such step deletes. */
  deletes: Set<string>;
  /** How many of `deletes` are cascades (taken along by deleting another object). */
  cascaded: number;
  /** Distinct keys of update steps. */
  updates: Set<string>;
}

const scopeKey = (kind: string, org: string): string => `${kind}\u0000${org}`;

/**
 * Live objects per (kind, org), each object counted once even when two kinds' states both hold it (also the
 * objects a kind read only to know what its deletes take along, `related`).
 */
export function liveCounts(live: LiveState): Map<string, number> {
  const seen = new Map<string, Set<string>>();
  for (const state of live.values()) {
    for (const o of [...state.objects, ...(state.related ?? [])]) {
      const k = scopeKey(o.kind, o.org);
      const ids = seen.get(k) ?? new Set<string>();
      ids.add(o.id !== '' ? `id:${o.id}` : `key:${o.key}`);
      seen.set(k, ids);
    }
  }
  return new Map([...seen].map(([k, ids]) => [k, ids.size]));
}

export function liveCountOf(counts: ReadonlyMap<string, number>, kind: string, org: string): number {
  return counts.get(scopeKey(kind, org)) ?? 0;
}

/**
 * Deletes and updates of a plan, per (kind, org), in a stable order (kind, then org). By action, not phase: a
 * step of the delete phase that replaces an object by an equivalent one (a Site's root site space by the
 * one its new section is created with) is an update, not a loss.
 */
export function planChanges(plan: Plan): ScopeChanges[] {
  const byScope = new Map<string, ScopeChanges>();
  const scope = (kind: string, org: string): ScopeChanges => {
    const k = scopeKey(kind, org);
    let c = byScope.get(k);
    if (!c) {
      c = { kind, org, deletes: new Set(), cascaded: 0, updates: new Set() };
      byScope.set(k, c);
    }
    return c;
  };
  // What the plan's own delete steps address, per scope: their keys and the ids in their DELETE paths.
  const stepped = new Map<string, { keys: Set<string>; ids: Set<string> }>();
  for (const s of plan.steps) {
    if (s.action === 'create') continue;
    const c = scope(s.kind, s.org);
    if (s.action !== 'delete') {
      c.updates.add(s.key);
      continue;
    }
    c.deletes.add(`step:${s.key}`);
    const k = scopeKey(s.kind, s.org);
    const own = stepped.get(k) ?? { keys: new Set<string>(), ids: new Set<string>() };
    own.keys.add(s.key);
    for (const id of pathSegments(s, ['DELETE'])) own.ids.add(id);
    stepped.set(k, own);
  }
  for (const s of plan.steps) {
    for (const o of s.cascades ?? []) {
      const own = stepped.get(scopeKey(o.kind, o.org));
      if (own && (o.id !== undefined && o.id !== '' ? own.ids.has(o.id) : own.keys.has(o.key))) continue;
      const c = scope(o.kind, o.org);
      const before = c.deletes.size;
      c.deletes.add(`cascade:${objectIdentity(o)}`);
      if (c.deletes.size > before) c.cascaded++;
    }
  }
  return [...byScope.values()].sort((a, b) => (a.kind === b.kind ? cmp(a.org, b.org) : cmp(a.kind, b.kind)));
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
