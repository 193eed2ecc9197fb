/**
 * Scoped reconciles (docs/daemon.md, "Scoped and full reconciles"): which (kind, organization) scopes a change
 * of the manifests touches, and the guards that keep a run restricted to a set of scopes safe.
 *
 * - `documentFingerprints`: one digest per (kind, org) of its documents' content (never file names or mtimes),
 *   so a checkout touching fifty files that changes one document changes one scope.
 * - `scopeClosure`: the changed scopes, plus the kinds a change affects (`KindScope.affectedBy`, `needs` by
 *   default) and what the reconciled documents read (`KindScope.reads`), as declared by the kinds. Undefined
 *   ("unsure") when a kind declares nothing: the run must be full.
 * - `scopedDiffContext` and `checkScopedSteps`: a scoped diff that reads another kind's state outside the scope
 *   set, or plans a step outside it, is a bug: ScopeError, the run is refused (the daemon's next run is full).
 *
 * Scopes are named by `liveKey(kind, org)` (src/engine/reconcile.ts), the key of the live state they fetch.
 */
import type { Hash } from 'node:crypto';
import type { DesiredState } from '../model/state.js';
import { DocopsError } from '../model/errors.js';
import type { DesiredEntry, DiffContext, KindDefinition } from '../model/kind.js';
import type { Step } from '../model/plan.js';

/** A set of (kind, org) scopes, each `${kind}\u0000${org}` (liveKey). */
export type ScopeSet = ReadonlySet<string>;

const scopeKey = (kind: string, org: string): string => `${kind}\u0000${org}`;

/** `Kind/org` for logs and run records. */
export function scopeName(key: string): string {
  const i = key.indexOf('\u0000');
  return i < 0 ? key : `${key.slice(0, i)}/${key.slice(i + 1)}`;
}

/** A scoped run read or planned outside its scopes: a kind's scope declaration is wrong. Nothing is written. */
export class ScopeError extends DocopsError {
  constructor(message: string) {
    super(
      `scoped reconcile refused: ${message} (a bug in a kind's scope declaration; the next run is a full reconcile)`,
    );
    this.name = 'ScopeError';
  }
}

/**
 * One digest per (kind, org) that has documents: over each document's apiVersion, metadata, `prune` and spec
 * (with the content of the files it names), in load order. Undefined when the desired state carries no documents.
 */
export function documentFingerprints(desired: DesiredState): Map<string, string> | undefined {
  const documents = desired.documents;
  if (!documents) return undefined;
  const known = fingerprintCache.get(desired);
  if (known) return known;
  const hashes = new Map<string, Hash>();
  for (const d of documents) {
    const key = scopeKey(d.kind, d.metadata.organization);
    let h = hashes.get(key);
    // node:crypto on first use, not with this module: `validate` loads it (via reconcile.ts) and never hashes.
    if (!h) hashes.set(key, (h = process.getBuiltinModule('node:crypto').createHash('sha256')));
    // One JSON value per document, separated, so moving a field from one document to the next changes the digest.
    h.update(JSON.stringify([d.apiVersion, d.metadata, d.prune === true, d.spec]));
    h.update('\n');
  }
  const out = new Map([...hashes].map(([k, h]) => [k, h.digest('hex')]));
  fingerprintCache.set(desired, out);
  return out;
}

/** Digests per desired state, computed once (the daemon computes them while a preload waits out the debounce). */
const fingerprintCache = new WeakMap<DesiredState, Map<string, string>>();

/** Scopes whose digest differs, or that exist on one side only (every document of a kind and org removed). */
export function changedScopes(previous: ReadonlyMap<string, string>, next: ReadonlyMap<string, string>): string[] {
  const out = new Set<string>();
  for (const [k, v] of next) if (previous.get(k) !== v) out.add(k);
  for (const k of previous.keys()) if (!next.has(k)) out.add(k);
  return [...out].sort();
}

/** (kind, org)s that have documents, i.e. what a full reconcile fetches and diffs. */
export function managedScopes(desired: DesiredState): Set<string> {
  const out = new Set<string>();
  for (const d of desired.documents ?? []) out.add(scopeKey(d.kind, d.metadata.organization));
  for (const [kind, entries] of desired) for (const e of entries) out.add(scopeKey(kind, e.org));
  return out;
}

/**
 * The scopes a run must reconcile for `changed`, or undefined when that cannot be known (a registered kind
 * declares no `scope`): then the run is full.
 * 1. every changed scope that still has documents;
 * 2. transitively, in the same org, every kind whose `affectedBy` (default: its `needs`) names a kind reconciled
 *    for a change — its plan may differ when that kind's documents do;
 * 3. transitively, what each reconciled scope's entries `reads` (default: its `needs`), so that every id or live
 *    state its diff looks up is fetched and diffed as a full run would.
 * Scopes without documents are never added (a full run does not reconcile them either).
 */
export function scopeClosure(
  kinds: readonly KindDefinition[],
  desired: DesiredState,
  changed: Iterable<string>,
): Set<string> | undefined {
  if (kinds.some((k) => k.scope === undefined)) return undefined;
  const managed = managedScopes(desired);
  const byName = new Map(kinds.map((k) => [k.kind, k]));
  const entriesOf = entriesByScope(desired);
  const out = new Set<string>();
  const split = (key: string): [string, string] => {
    const i = key.indexOf('\u0000');
    return [key.slice(0, i), key.slice(i + 1)];
  };

  // 1 + 2: the changed scopes and, transitively, the kinds they affect. A removed scope (no documents left)
  // still affects others, though it is not reconciled itself.
  const affected: string[] = [...changed];
  const seen = new Set<string>(affected);
  while (affected.length > 0) {
    const key = affected.pop()!;
    const [kind, org] = split(key);
    if (managed.has(key)) out.add(key);
    for (const k of kinds) {
      const by = k.scope?.affectedBy ?? k.needs ?? [];
      const dependent = scopeKey(k.kind, org);
      if (by.includes(kind) && !seen.has(dependent)) {
        seen.add(dependent);
        affected.push(dependent);
      }
    }
  }

  // 3: what the reconciled scopes read.
  const reading = [...out];
  while (reading.length > 0) {
    const key = reading.pop()!;
    const [kind, org] = split(key);
    const def = byName.get(kind);
    if (!def) continue;
    const reads = def.scope?.reads ? def.scope.reads(entriesOf.get(key) ?? []) : (def.needs ?? []);
    for (const r of reads) {
      const k = scopeKey(r, org);
      if (managed.has(k) && !out.has(k)) {
        out.add(k);
        reading.push(k);
      }
    }
  }
  return out;
}

/** The desired entries of each scope (kind and organization, keyed as model/state.ts liveKey). */
export function entriesByScope(desired: DesiredState): Map<string, DesiredEntry[]> {
  const index = new Map<string, DesiredEntry[]>();
  for (const [kind, entries] of desired) {
    for (const e of entries) {
      const key = scopeKey(kind, e.org);
      const list = index.get(key);
      if (list) list.push(e);
      else index.set(key, [e]);
    }
  }
  return index;
}

/**
 * The diff context of a scoped run: looking up the live state or ids of a (kind, org) a full run would have
 * fetched but this run did not is a ScopeError — the answer would differ from a full run's.
 */
export function scopedDiffContext(ctx: DiffContext, managed: ReadonlySet<string>, scope: ScopeSet): DiffContext {
  const check = (kind: string, org: string, what: string): void => {
    const key = scopeKey(kind, org);
    if (managed.has(key) && !scope.has(key))
      throw new ScopeError(`a diff read ${what} of ${kind}/${org}, which this run did not fetch`);
  };
  return {
    ...ctx,
    resolve: (kind, org, key) => (check(kind, org, 'the ids'), ctx.resolve(kind, org, key)),
    live: (kind, org) => (check(kind, org, 'the live state'), ctx.live(kind, org)),
  };
}

/**
 * Every step the diff of scope (kind, org) emitted must stay in the scope set: its org is the scope's org, and a
 * step on objects of a registered kind (its own or another's) needs that kind's scope in the set. Steps on a
 * kind's sub-objects (a site's sections) belong to the kind that emitted them.
 */
export function checkScopedSteps(
  steps: readonly Step[],
  emitter: { kind: string; org: string },
  scope: ScopeSet,
  registered: ReadonlySet<string>,
): void {
  for (const s of steps) {
    const owner = registered.has(s.kind) ? s.kind : emitter.kind;
    if (
      s.org !== emitter.org ||
      !scope.has(scopeKey(owner, s.org)) ||
      !scope.has(scopeKey(emitter.kind, emitter.org))
    ) {
      throw new ScopeError(
        `the diff of ${emitter.kind}/${emitter.org} planned ${s.action} ${s.kind}/${s.org} "${s.key}" outside the run's scopes`,
      );
    }
  }
}
