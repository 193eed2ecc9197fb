/**
 * What the safety rules measure: live objects per (step kind, org) and what a plan deletes and updates
 * per (step kind, org). Objects of sub-kinds count under their own kind, wherever the LiveState keeps them.
 */
import type { Plan } from '../core/plan.js';
import type { LiveState } from '../core/reconcile.js';

export interface Scope {
  kind: string;
  org: string;
}

export interface ScopeChanges extends Scope {
  /** Distinct keys of delete and prune steps. */
  deletes: Set<string>;
  /** Distinct keys of update steps. */
  updates: Set<string>;
}

const scopeKey = (kind: string, org: string): string => `${kind}\u0000${org}`;

/** Live objects per (kind, org), each object counted once even when two kinds' states both hold it. */
export function liveCounts(live: LiveState): Map<string, number> {
  const seen = new Map<string, Set<string>>();
  for (const state of live.values()) {
    for (const o of state.objects) {
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
  for (const s of plan.steps) {
    if (s.action === 'create') continue;
    const k = scopeKey(s.kind, s.org);
    let c = byScope.get(k);
    if (!c) {
      c = { kind: s.kind, org: s.org, deletes: new Set(), updates: new Set() };
      byScope.set(k, c);
    }
    (s.action === 'delete' ? c.deletes : c.updates).add(s.key);
  }
  return [...byScope.values()].sort((a, b) => (a.kind === b.kind ? cmp(a.org, b.org) : cmp(a.kind, b.kind)));
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
