/**
 * Whether a daemon run is a full or a scoped reconcile, and which scopes (docs/daemon.md, "Scoped and full
 * reconciles"). The tracker keeps the per-(kind, org) digests of the documents of the last run that succeeded
 * (the baseline); a run triggered only by file changes compares its load with it:
 * - full: the start-up run, the schedule, POST /reconcile, a retry (any reason other than `watch`); no baseline
 *   (first run, or the last run did not succeed: invalid manifests, refused, failed, interrupted, or anything
 *   else that ended it); a config different from the baseline's; plan mode (it reports drift everywhere); a kind
 *   that declares no scope;
 * - scoped: the changed scopes and their closure (src/engine/scope.ts). Coalesced triggers need no merging here:
 *   the baseline is the last successful load, so one comparison covers every change since, and any full reason
 *   among a run's reasons makes it full.
 */
import type { KindDefinition } from '../model/kind.js';
import type { DesiredState } from '../model/state.js';
import { changedScopes, documentFingerprints, scopeClosure, scopeName } from '../engine/scope.js';
import type { DocopsConfig } from '../config/config.js';
import type { TriggerReason } from './triggers.js';

export type RunScope =
  | { type: 'full'; why: string }
  | {
      type: 'scoped';
      /** Scopes whose documents changed (liveKey), sorted. */
      changed: string[];
      /** What the run fetches and diffs: the changed scopes and their closure (liveKey), sorted. */
      scopes: string[];
    };

/** `Kind/org` names of a scoped run's scopes, for run records and logs. */
export const scopeNames = (keys: readonly string[]): string[] => keys.map(scopeName);

/** Reasons that always mean a full reconcile: everything but a file change. */
export const isFullReason = (r: TriggerReason): boolean => r !== 'watch';

/** What else decides a plan besides the documents, as ScopeTracker's `config`: a different value makes the next run full. */
export const planConfigOf = (
  c: Pick<DocopsConfig, 'manifestsDir' | 'prune' | 'invite' | 'allowEnv' | 'kinds'>,
): string => JSON.stringify([c.manifestsDir, c.prune, c.invite, c.allowEnv ?? [], c.kinds ?? {}]);

interface Baseline {
  fingerprints: Map<string, string>;
  config: string;
  /** The desired state the run reached (src/daemon/origin.ts tells manifest edits from drift with it). */
  desired: DesiredState;
}

export class ScopeTracker {
  private baseline: Baseline | undefined;
  /** The digests of the run that decided last, promoted to the baseline if it succeeds. */
  private pending: { runId: number; baseline: Baseline | undefined } | undefined;

  /** `config`: what else decides a plan (prune, invite, mode …), serialised; a change makes the next run full. */
  constructor(
    private readonly kinds: readonly KindDefinition[],
    private readonly config: string,
    private readonly mode: 'plan' | 'apply',
  ) {}

  /** Full or scoped, for run `runId` of these reasons over this load. Call once per run, after its load. */
  decide(runId: number, reasons: readonly TriggerReason[], desired: DesiredState): RunScope {
    const fingerprints = documentFingerprints(desired);
    this.pending = { runId, baseline: fingerprints ? { fingerprints, config: this.config, desired } : undefined };
    return this.peek(reasons, desired);
  }

  /** What `decide` would say now, recording nothing (the daemon reads a scoped run's live state ahead with it). */
  peek(reasons: readonly TriggerReason[], desired: DesiredState): RunScope {
    const fingerprints = documentFingerprints(desired);
    const full = (why: string): RunScope => ({ type: 'full', why });
    if (reasons.some(isFullReason)) return full(`triggered by ${reasons.filter(isFullReason).join(', ')}`);
    if (this.mode === 'plan') return full('plan mode reports drift everywhere');
    const base = this.baseline;
    if (!base) return full('no successful run to compare with (first run, or the last run did not succeed)');
    if (!fingerprints) return full('the load carries no documents to compare');
    if (base.config !== this.config) return full('the configuration changed');
    const changed = changedScopes(base.fingerprints, fingerprints);
    const scopes = scopeClosure(this.kinds, desired, changed);
    if (!scopes) return full('a registered kind declares no scope');
    return { type: 'scoped', changed, scopes: [...scopes].sort() };
  }

  /** The desired state of the last successful run, which the organization then matched; undefined after a failure. */
  reached(): DesiredState | undefined {
    return this.baseline?.desired;
  }

  /** A run ended: a success makes its load the baseline; anything else (or a run that never decided) drops it. */
  settle(runId: number, succeeded: boolean): void {
    const p = this.pending;
    this.pending = undefined;
    this.baseline = succeeded && p?.runId === runId ? p.baseline : undefined;
  }

  /** Whether a baseline is held (the next file change can be scoped). */
  get hasBaseline(): boolean {
    return this.baseline !== undefined;
  }
}
