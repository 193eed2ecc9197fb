/**
 * The daemon's Prometheus metrics, in their own Registry (several daemons can live in one process, e.g. in
 * tests). Names are part of the public interface: docs/daemon.md lists them.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Action, Plan } from '../model/plan.js';

export type RunResult = 'success' | 'failed' | 'invalid_manifests' | 'refused' | 'interrupted';
export const RUN_RESULTS: readonly RunResult[] = ['success', 'failed', 'invalid_manifests', 'refused', 'interrupted'];
export type RunScopeLabel = 'full' | 'scoped';

export interface DaemonMetrics {
  registry: Registry;
  /** A run finished. */
  observeRun(result: RunResult, durationMs: number, scope?: RunScopeLabel): void;
  /**
   * Steps the plan holds before apply (plan mode: the drift left in place), per kind. `only`: set just these
   * kinds' gauges and keep the others (a scoped plan says nothing about kinds it did not diff).
   */
  setDrift(kinds: readonly string[], plan: Plan, only?: boolean): void;
  stepApplied(kind: string, action: Action): void;
  stepFailed(kind: string, action: Action): void;
  apiResponse(method: string, status: number): void;
  manifestLoad(errorCount: number): void;
  setReady(ready: boolean): void;
  setBackoff(delayMs: number): void;
  /** 1 while this replica may write (the leader, or the only daemon without `ha`), else 0. */
  setLeader(leader: boolean): void;
  /** An organization's live state read for a run (src/daemon/informer): how, why it was read whole, events followed. */
  informerRead(read: 'informer' | 'full' | 'scoped', reason: string | undefined, events: number): void;
  /** The organizations the informer follows, and those in fallback (full reads: no audit events). */
  setInformerOrgs(orgs: readonly { mode: 'informer' | 'fallback' }[]): void;
  /** Broken links per managed space; `only`: keep the other spaces' values (a scoped run read some of them). */
  setBrokenLinks(spaces: readonly { org: string; id: string; space: string; broken: number }[], only?: boolean): void;
}

/** A metric family: its name and help (docs/daemon.md lists them) and its labels besides a fleet's `org`. */
interface FamilySpec {
  name: string;
  help: string;
  labels: string[];
}

/** The families, in the order they are registered (and exposed). */
const FAMILIES = {
  duration: {
    name: 'docops_reconcile_duration_seconds',
    help: 'Duration of reconcile runs (load, fetch, diff and, in apply mode, apply).',
    labels: ['result'],
  },
  runs: {
    name: 'docops_reconcile_runs_total',
    help: 'Reconcile runs by result.',
    labels: ['result'],
  },
  applied: {
    name: 'docops_changes_applied_total',
    help: 'Changes applied, by kind and action: each object once per run and action (the steps of a team create, its members included, are one).',
    labels: ['kind', 'action'],
  },
  failedSteps: {
    name: 'docops_changes_failed_total',
    help: 'Changes that failed, by kind and action: each object once per run and action.',
    labels: ['kind', 'action'],
  },
  drift: {
    name: 'docops_drift',
    help: 'Changes pending by kind in the last plan (in plan mode: drift left in place; in apply mode: before apply).',
    labels: ['kind'],
  },
  byScope: {
    name: 'docops_reconcile_scope_runs_total',
    help: 'Reconcile runs by scope (full: every managed kind and organization; scoped: those a file change touched) and result.',
    labels: ['scope', 'result'],
  },
  lastSuccess: {
    name: 'docops_last_success_timestamp_seconds',
    help: 'Unix time of the last successful reconcile.',
    labels: [],
  },
  api: {
    name: 'docops_api_requests_total',
    help: 'API responses by method and status (0 = no response).',
    labels: ['method', 'status'],
  },
  loadErrors: {
    name: 'docops_manifest_load_errors',
    help: 'Problems found by the last manifest load (0 when it succeeded).',
    labels: [],
  },
  loadFailures: {
    name: 'docops_manifest_load_failures_total',
    help: 'Manifest loads that failed validation.',
    labels: [],
  },
  ready: {
    name: 'docops_ready',
    help: '1 when the last manifest load and the last API contact succeeded.',
    labels: [],
  },
  backoff: {
    name: 'docops_retry_backoff_seconds',
    help: 'Delay before the scheduled retry of a failed reconcile (0 when none).',
    labels: [],
  },
  leader: {
    name: 'docops_leader',
    help: '1 while this replica holds the lease and reconciles (always 1 without ha), 0 while it stands by.',
    labels: [],
  },
  informerReads: {
    name: 'docops_informer_reads_total',
    help: 'Live state reads per organization: informer (audit events since the last poll), full (reason: why), scoped (a file change, no informer).',
    labels: ['read', 'reason'],
  },
  informerEvents: {
    name: 'docops_informer_events_total',
    help: "Audit events the informer followed (docops's own writes not counted).",
    labels: [],
  },
  informerOrgs: {
    name: 'docops_informer_organizations',
    help: 'Organizations by how their live state is read: informer (audit events) or fallback (a full read every run).',
    labels: ['mode'],
  },
  brokenLinks: {
    name: 'docops_broken_links',
    help: 'Broken links the API reports in each managed space (a space a Space manifest describes), read at most every healthMinutes.',
    labels: ['org', 'space', 'title'],
  },
} satisfies Record<string, FamilySpec>;

/**
 * The metric families of one registry. Without `org` (one organization) they carry the labels listed in
 * docs/daemon.md; a fleet's (src/daemon/fleet) carry an `org` label besides, one family for every organization.
 */
function families(registry: Registry, byOrg: boolean) {
  const registers = [registry];
  /** `byOrg`: the family's labels and `org`; a family labelled by organization already (`withOrg` false) keeps its own. */
  const options = (spec: FamilySpec, withOrg = true) => ({
    name: spec.name,
    help: spec.help,
    labelNames: byOrg && withOrg ? [...spec.labels, 'org'] : spec.labels,
    registers,
  });
  return {
    duration: new Histogram({
      ...options(FAMILIES.duration),
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    }),
    runs: new Counter(options(FAMILIES.runs)),
    applied: new Counter(options(FAMILIES.applied)),
    failedSteps: new Counter(options(FAMILIES.failedSteps)),
    drift: new Gauge(options(FAMILIES.drift)),
    byScope: new Counter(options(FAMILIES.byScope)),
    lastSuccess: new Gauge(options(FAMILIES.lastSuccess)),
    api: new Counter(options(FAMILIES.api)),
    loadErrors: new Gauge(options(FAMILIES.loadErrors)),
    loadFailures: new Counter(options(FAMILIES.loadFailures)),
    ready: new Gauge(options(FAMILIES.ready)),
    backoff: new Gauge(options(FAMILIES.backoff)),
    leader: new Gauge(options(FAMILIES.leader)),
    informerReads: new Counter(options(FAMILIES.informerReads)),
    informerEvents: new Counter(options(FAMILIES.informerEvents)),
    informerOrgs: new Gauge(options(FAMILIES.informerOrgs)),
    // Labelled by organization already (a space's).
    brokenLinks: new Gauge(options(FAMILIES.brokenLinks, false)),
  };
}

type Families = ReturnType<typeof families>;

/** A fleet's families, one set per registry (every organization's metrics are series of the same families). */
const shared = new WeakMap<Registry, Families>();

/** One organization's families: its own; a fleet's organization's, those its registry shares with the others. */
function familiesOf(registry: Registry, org: string | undefined): Families {
  if (org === undefined) return families(registry, false);
  const f = shared.get(registry) ?? families(registry, true);
  shared.set(registry, f);
  return f;
}

export interface DaemonMetricsOptions {
  defaultMetrics?: boolean;
  /** The registry to register in (a fleet's, shared by its organizations); default: a new one. */
  registry?: Registry;
  /** The organization whose series these are: every series carries `org` (a fleet); absent: no `org` label. */
  org?: string;
}

export function createDaemonMetrics(options: DaemonMetricsOptions = {}): DaemonMetrics {
  const registry = options.registry ?? new Registry();
  if (options.registry === undefined && options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const org = options.org;
  const f = familiesOf(registry, org);
  const L = <T extends Record<string, string>>(labels: T): T & { org?: string } =>
    org === undefined ? labels : { ...labels, org };
  const {
    duration,
    runs,
    applied,
    failedSteps,
    drift,
    byScope,
    lastSuccess,
    api,
    loadErrors,
    loadFailures,
    ready,
    backoff,
    leader,
    informerReads,
    informerEvents,
    informerOrgs,
    brokenLinks,
  } = f;
  for (const mode of ['informer', 'fallback']) informerOrgs.set(L({ mode }), 0);
  for (const r of RUN_RESULTS) runs.inc(L({ result: r }), 0);
  for (const scope of ['full', 'scoped'] as const) for (const r of RUN_RESULTS) byScope.inc(L({ scope, result: r }), 0);
  ready.set(L({}), 0);
  leader.set(L({}), 0);
  const ownLinks: Record<string, string>[] = [];

  return {
    registry,
    observeRun(result, durationMs, scope = 'full') {
      runs.inc(L({ result }));
      byScope.inc(L({ scope, result }));
      duration.observe(L({ result }), durationMs / 1000);
      if (result === 'success') lastSuccess.set(L({}), Date.now() / 1000);
    },
    setDrift(kinds, plan, only = false) {
      const counts = new Map<string, number>(kinds.map((k) => [k, 0]));
      for (const s of plan.steps) counts.set(s.kind, (counts.get(s.kind) ?? 0) + 1);
      // Another organization's series are not this one's to clear: theirs are set by their own runs.
      if (!only && org === undefined) drift.reset();
      for (const [kind, n] of counts) drift.set(L({ kind }), n);
    },
    stepApplied: (kind, action) => applied.inc(L({ kind, action })),
    stepFailed: (kind, action) => failedSteps.inc(L({ kind, action })),
    apiResponse: (method, status) => api.inc(L({ method, status: String(status) })),
    manifestLoad(errorCount) {
      loadErrors.set(L({}), errorCount);
      if (errorCount > 0) loadFailures.inc(L({}));
    },
    setReady: (value) => ready.set(L({}), value ? 1 : 0),
    setBackoff: (delayMs) => backoff.set(L({}), delayMs / 1000),
    setLeader: (value) => leader.set(L({}), value ? 1 : 0),
    informerRead(read, reason, events) {
      informerReads.inc(L({ read, reason: reason ?? '' }));
      if (events > 0) informerEvents.inc(L({}), events);
    },
    setInformerOrgs(orgs) {
      for (const mode of ['informer', 'fallback'] as const)
        informerOrgs.set(L({ mode }), orgs.filter((o) => o.mode === mode).length);
    },
    setBrokenLinks(spaces, only = false) {
      // A fleet's organization clears only the series it set itself: the others' are theirs.
      if (!only && org === undefined) brokenLinks.reset();
      else if (!only) for (const l of ownLinks.splice(0)) brokenLinks.remove(l);
      for (const s of spaces) {
        const l = { org: s.org, space: s.id, title: s.space };
        brokenLinks.set(l, s.broken);
        if (org !== undefined) ownLinks.push(l);
      }
    },
  };
}
