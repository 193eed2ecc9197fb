/**
 * The pipeline: desired state → fetch live (memoised, concurrent) → pure diff → ordered plan.
 * Dry-run is "stop after computePlan"; only src/engine/apply.ts writes.
 */
import type { ApiClient } from '../model/api-client.js';
import { liveKey, type DesiredState, type LiveState } from '../model/state.js';
import type {
  DesiredEntry,
  DiffContext,
  DiffOptions,
  FetchContext,
  KindDefinition,
  LiveObject,
} from '../model/kind.js';
import { DocopsError } from '../model/errors.js';
import { createFetchContext } from './fetch-context.js';
import { compareSteps, orderSteps } from './order.js';
import { dedupeCascades, withoutCascaded } from './cascades.js';
import { withNullMeanings } from './null-meanings.js';
import { emptyPlan, type Plan, type OwnershipMode } from '../model/plan.js';
import { sealStep } from '../model/refs.js';
import { ModeResolver, applyModes, blockWaitingOnDropped } from './modes.js';
import { blockedDocuments, orgIsUnknown, orgNotFoundState } from './unknown-org.js';
import { checkScopedSteps, entriesByScope, managedScopes, scopedDiffContext, type ScopeSet } from './scope.js';

export interface PlanOptions {
  /** Prune per manifest kind from the config (documents can also say `prune: true`). */
  prune?: Record<string, boolean>;
  /** Invite missing members by e-mail. */
  invite?: boolean;
  /** Ownership mode per manifest kind from the config (documents can also say `mode:`); src/engine/modes.ts. */
  modes?: Record<string, OwnershipMode>;
  /**
   * A scoped reconcile (src/engine/scope.ts): fetch and diff only these (kind, org)s (liveKey). Reading or planning
   * outside them is a ScopeError. Absent: every managed (kind, org), a full reconcile.
   */
  scope?: ScopeSet;
}

export interface PlanResult {
  plan: Plan;
  live: LiveState;
}

/** The (kind, org) pairs to reconcile: a kind is managed in an org only where a document of it exists. */
export function scopes(
  kinds: readonly KindDefinition[],
  desired: DesiredState,
): { kind: KindDefinition; org: string; entries: DesiredEntry[] }[] {
  const out: { kind: KindDefinition; org: string; entries: DesiredEntry[] }[] = [];
  // (kind, org)s of documents without entries: each is managed, with nothing desired in it.
  const emptyScopes = new Map<string, Set<string>>();
  for (const d of desired.documents ?? []) {
    let orgs = emptyScopes.get(d.kind);
    if (!orgs) emptyScopes.set(d.kind, (orgs = new Set()));
    orgs.add(d.metadata.organization);
  }
  for (const kind of diffOrder(kinds)) {
    const byOrg = new Map<string, DesiredEntry[]>();
    // Entries of one document share its org: look the list up only when the org changes.
    let org: string | undefined;
    let list: DesiredEntry[] = [];
    for (const e of desired.get(kind.kind) ?? []) {
      if (e.doc.metadata.organization !== org) {
        org = e.doc.metadata.organization;
        const known = byOrg.get(org);
        if (known) list = known;
        else byOrg.set(org, (list = []));
      }
      list.push(e);
    }
    for (const org of emptyScopes.get(kind.kind) ?? []) if (!byOrg.has(org)) byOrg.set(org, []);
    for (const org of [...byOrg.keys()].sort()) out.push({ kind, org, entries: byOrg.get(org)! });
  }
  return out;
}

/** Kinds by depth, except that a kind comes after every kind it `needs` (a cycle is a registration bug). */
export function diffOrder(kinds: readonly KindDefinition[]): KindDefinition[] {
  const pending = [...kinds].sort((a, b) => a.depth - b.depth || (a.kind < b.kind ? -1 : 1));
  const known = new Set(kinds.map((k) => k.kind));
  const placed = new Set<string>();
  const out: KindDefinition[] = [];
  while (pending.length > 0) {
    // The shallowest kind whose needs are all placed already.
    const i = pending.findIndex((k) => (k.needs ?? []).every((n) => placed.has(n) || !known.has(n)));
    if (i < 0)
      throw new DocopsError(`internal: kinds need each other in a cycle: ${pending.map((k) => k.kind).join(', ')}`);
    const [k] = pending.splice(i, 1);
    placed.add(k!.kind);
    out.push(k!);
  }
  return out;
}

/**
 * Prune is on for (kind, org) when the config says so or any document of it says `prune: true`, and only while its
 * ownership mode is authoritative: additive and observe never delete what no manifest writes (src/engine/modes.ts).
 */
export function pruneResolver(
  desired: DesiredState,
  options: Pick<PlanOptions, 'prune' | 'modes'> = {},
  modes: ModeResolver = new ModeResolver(desired, options.modes),
) {
  const configPrune = options.prune ?? {};
  const docPrune = new Set<string>();
  if (desired.documents) {
    // Every document counts, also one that yields no entry (an empty list written with `prune: true`).
    for (const d of desired.documents) if (d.prune === true) docPrune.add(liveKey(d.kind, d.metadata.organization));
  } else {
    for (const [kind, entries] of desired) {
      for (const e of entries) if (e.doc.prune === true) docPrune.add(liveKey(kind, e.doc.metadata.organization));
    }
  }
  return (kind: string, org: string): boolean =>
    (docPrune.has(liveKey(kind, org)) || configPrune[kind] === true) && modes.ofScope(kind, org) === 'authoritative';
}

/**
 * Fetch the live state of every managed (kind, org), all concurrently within the client's bound. `context` reads
 * through kept reads instead of a fresh memo (the daemon's informer, src/engine/read-cache.ts).
 */
export async function fetchLive(
  client: ApiClient,
  kinds: readonly KindDefinition[],
  desired: DesiredState,
  options: PlanOptions = {},
  context?: (prune: (kind: string, org: string) => boolean) => FetchContext,
): Promise<LiveState> {
  const prune = pruneResolver(desired, options);
  const ctx = context ? context(prune) : createFetchContext(client, prune);
  const work = inScope(scopes(kinds, desired), options.scope);
  // An organization the API does not know blocks its documents, not the plan (src/engine/unknown-org.ts).
  const unknown = new Set<string>();
  const results = await Promise.all(
    work.map((w) =>
      w.kind.fetch(ctx, w.org, w.entries).catch(async (err: unknown) => {
        if (!(await orgIsUnknown(ctx, w.org, err))) throw err;
        unknown.add(w.org);
        return orgNotFoundState();
      }),
    ),
  );
  const live: LiveState = new Map();
  work.forEach((w, i) => live.set(liveKey(w.kind.kind, w.org), unknown.has(w.org) ? orgNotFoundState() : results[i]!));
  return live;
}

/** Pure: desired + live → ordered plan. Kinds are diffed parent-first so children can resolve new ids. */
export function diffAll(
  kinds: readonly KindDefinition[],
  desired: DesiredState,
  live: LiveState,
  options: PlanOptions = {},
): Plan {
  const modes = new ModeResolver(desired, options.modes);
  const prune = pruneResolver(desired, options, modes);
  const ids = new IdIndex(live);
  const diffOptions: DiffOptions = { invite: options.invite === true };
  const base: DiffContext = {
    prune,
    options: diffOptions,
    resolve: (kind, org, key) => ids.seeded(kind, org).get(key),
    register: (kind, org, key, idOrRef) => void ids.keys(kind, org).set(key, idOrRef),
    live: (kind, org) => live.get(liveKey(kind, org)),
    desired: (kind, org) => desiredOf(desired, kind, org),
  };
  const scope = options.scope;
  const ctx = scope ? scopedDiffContext(base, managedScopes(desired), scope) : base;
  const registered = new Set(kinds.map((k) => k.kind));
  const plan = emptyPlan();
  const dropped = new Map<string, string>();
  for (const { kind, org, entries } of inScope(scopes(kinds, desired), scope)) {
    const state = live.get(liveKey(kind.kind, org)) ?? { objects: [] };
    if (state.orgNotFound) {
      plan.blocked.push(...blockedDocuments(desired, kind, org, entries));
      continue;
    }
    const result = kind.diff(ctx, org, entries, state);
    if (scope) checkScopedSteps(result.steps, { kind: kind.kind, org }, scope, registered);
    const sealed = result.steps.map((step) => sealStep(withNullMeanings(step, kind.nullMeanings?.[step.kind])));
    const moded = applyModes({ ...result, steps: sealed }, kind, org, modes);
    plan.steps.push(...moded.steps);
    plan.unmanaged.push(...result.unmanaged, ...moded.unmanaged);
    plan.warnings.push(...result.warnings);
    plan.blocked.push(...result.blocked, ...moded.blocked);
    if (moded.reported.length > 0) (plan.reported ??= []).push(...moded.reported);
    if (result.owned && result.owned.length > 0) (plan.owned ??= []).push(...result.owned);
    for (const [id, why] of moded.dropped) dropped.set(id, why);
  }
  blockWaitingOnDropped(plan, dropped);
  plan.steps = dedupeCascades(orderSteps(plan.steps));
  plan.reported?.sort(compareSteps);
  plan.unmanaged = withoutCascaded(plan.unmanaged, plan.steps);
  return plan;
}

/** The scopes of a scoped run (all of them without one). */
function inScope<T extends { kind: KindDefinition; org: string }>(work: T[], scope: ScopeSet | undefined): T[] {
  return scope ? work.filter((w) => scope.has(liveKey(w.kind.kind, w.org))) : work;
}

/** Entries of one kind and org, the list per (kind, org) built once per desired state. */
const byOrgCache = new WeakMap<DesiredState, Map<string, DesiredEntry[]>>();
function desiredOf(desired: DesiredState, kind: string, org: string): readonly DesiredEntry[] {
  let index = byOrgCache.get(desired);
  if (!index) {
    index = entriesByScope(desired);
    byOrgCache.set(desired, index);
  }
  return index.get(liveKey(kind, org)) ?? [];
}

/**
 * Ids by kind, then org, then key: what kinds registered, then the live objects' ids. Nested maps rather than
 * one map keyed by joined strings: on 100,000 live objects building the joined keys (and hashing them) cost
 * ~150 ms of a plan's diff. The live ids of a (kind, org) are added only when someone resolves in it, and
 * never over a registered key (registered ids and refs win, as if registered after the live ones): most
 * (kind, org)s are only registered, and indexing their live objects up front was ~50 ms on 100,000 objects.
 */
class IdIndex {
  private readonly byKind = new Map<string, Map<string, Map<string, string>>>();
  private readonly seededKeys = new Set<Map<string, string>>();
  // The (kind, org) asked for last: kinds register or resolve thousands of keys of one (kind, org) in a row.
  private last: { kind: string; org: string; keys: Map<string, string> } | undefined;
  /** `${kind}\u0000${org}` → the live object lists holding objects of that kind and org; built on first seed. */
  private sources: Map<string, (readonly LiveObject[])[]> | undefined;

  constructor(private readonly live: LiveState) {}

  /** The registered keys of (kind, org), created empty when absent. */
  keys(kind: string, org: string): Map<string, string> {
    const last = this.last;
    if (last && last.kind === kind && last.org === org) return last.keys;
    let byOrg = this.byKind.get(kind);
    if (!byOrg) this.byKind.set(kind, (byOrg = new Map()));
    let keys = byOrg.get(org);
    if (!keys) byOrg.set(org, (keys = new Map()));
    this.last = { kind, org, keys };
    return keys;
  }

  /** The keys of (kind, org) including its live objects' ids (the first live object of a key wins). */
  seeded(kind: string, org: string): Map<string, string> {
    const keys = this.keys(kind, org);
    if (this.seededKeys.has(keys)) return keys;
    this.seededKeys.add(keys);
    for (const objects of this.liveLists().get(liveKey(kind, org)) ?? []) {
      for (const o of objects) if (o.kind === kind && o.org === org && !keys.has(o.key)) keys.set(o.key, o.id);
    }
    return keys;
  }

  /** Which live lists hold objects of which (kind, org): a kind's state may hold objects of child kinds. */
  private liveLists(): Map<string, (readonly LiveObject[])[]> {
    if (this.sources) return this.sources;
    const sources = new Map<string, (readonly LiveObject[])[]>();
    for (const state of this.live.values()) {
      let kind: string | undefined;
      let org: string | undefined;
      for (const o of state.objects) {
        if (o.kind === kind && o.org === org) continue;
        kind = o.kind;
        org = o.org;
        const k = liveKey(kind, org);
        const lists = sources.get(k);
        if (!lists) sources.set(k, [state.objects]);
        else if (!lists.includes(state.objects)) lists.push(state.objects);
      }
    }
    return (this.sources = sources);
  }
}

export async function computePlan(
  client: ApiClient,
  kinds: readonly KindDefinition[],
  desired: DesiredState,
  options: PlanOptions = {},
): Promise<PlanResult> {
  const live = await fetchLive(client, kinds, desired, options);
  return { plan: diffAll(kinds, desired, live, options), live };
}
