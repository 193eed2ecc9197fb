/**
 * The daemon's run as a list of stages (src/pipeline): its load (the preloaded manifests), its scope (full or
 * scoped, src/daemon/changes.ts), where its live state comes from (the informer, or a read made while the debounce
 * waited), what it adds to the plan (manifest edits told from drift, who made the drift, the drift it keeps), its
 * gates (safety, the policy's approvals) and what follows the apply (the informer's reads, gauges, docs health).
 * Each host feature is one stage here, or an option of a shared one.
 */
import type { WriteGate } from '../engine/apply.js';
import { managedScopes } from '../engine/scope.js';
import type { PlanOptions } from '../engine/reconcile.js';
import type { DesiredState, LiveState } from '../model/state.js';
import type { Plan } from '../model/plan.js';
import type { Logger } from '../log.js';
import {
  annotateStage,
  attributionStage,
  gateStage,
  got,
  planningStages,
  safetyStage,
  writes,
  writingStages,
  type Stage,
} from '../pipeline/index.js';
import type { SafetyConfig } from '../safety/index.js';
import type { Whoami } from '../safety/gate.js';
import { scopeNames, type ScopeTracker } from './changes.js';
import type { DriftKeeper } from './drift/propose.js';
import { CONFIG_DEFAULTS, type DocopsConfig } from '../config/config.js';
import { HealthSchedule, healthStage } from './health.js';
import type { LiveSource } from './informer/link.js';
import { pollDecision } from './informer/poll-run.js';
import type { DaemonMetrics } from './metrics.js';
import { manifestChangesStage } from './origin.js';
import { stepLogger } from './run-outcome.js';
import type { DaemonRun, LoadManifests } from './run.js';

type Stages = Stage<DaemonRun>[];

/** What the daemon's stages are built with: its config's settings and the parts it has started. */
export interface DaemonRunParts {
  metrics: DaemonMetrics;
  planOptions: PlanOptions;
  safety: SafetyConfig;
  journalDir: string;
  concurrency: number;
  signal: AbortSignal;
  /** With leader election: closes the moment this replica may no longer write (ApplyOptions.writeGate). */
  writeGate?: WriteGate;
  /** The manifests: the load a file event started, when still current; else a fresh one. */
  load(): ReturnType<LoadManifests>;
  scoping: Pick<ScopeTracker, 'decide' | 'peek' | 'reached'>;
  /** The token's user for the safety gate's guards (asked once). */
  whoami(): Promise<Whoami>;
  /** The live state of a scoped run's scopes over this very load, read while the debounce waited. */
  readAhead(desired: DesiredState, scopes: readonly string[]): Promise<LiveState> | undefined;
  /** The informer (src/daemon/informer): where the live state comes from; absent: read by every run. */
  informer?: LiveSource;
  /** Drift the config keeps (`drift: report | propose`); absent: all drift is reverted. */
  drift?: Pick<DriftKeeper, 'settle' | 'quiet'>;
  /** The policy's gate (src/policy/daemon-approvals.ts): throws PolicyError to refuse or wait for approval. */
  policy?: (plan: Plan, live: LiveState, run: number, log: Logger) => Promise<void>;
}

/** The daemon's stages, built for each run; what a stage keeps between runs (docs health's clock) is kept here. */
export class DaemonStages {
  /** When docs health is read: on its own clock, not by every run (src/daemon/health.ts). */
  private readonly health: HealthSchedule;

  constructor(config: Pick<DocopsConfig, 'healthEveryMs'>, now?: () => number) {
    this.health = new HealthSchedule(config.healthEveryMs ?? CONFIG_DEFAULTS.healthMinutes * 60_000, now);
  }

  /** load → scope → read → diff → annotate → gates → journal → apply → after, for one run. */
  for(p: DaemonRunParts, run: DaemonRun): Stages {
    return daemonStages(p, run, this.health);
  }
}

function daemonStages(p: DaemonRunParts, run: DaemonRun, health: HealthSchedule): Stages {
  return [
    ...planningStages<DaemonRun>({
      load: [loadStage(p)],
      scope: [scopeStage(p)],
      read: [p.informer ? informerStage(p.informer, p.planOptions) : readAheadStage(p)],
      annotate: [manifestChangesStage(p.scoping), attributionStage, ...(p.drift ? [driftStage(p.drift)] : [])],
    }),
    ...writingStages<DaemonRun>({
      gates: [
        driftGauges(p.metrics, 'gate'),
        safetyStage({ config: p.safety, force: false, whoami: () => p.whoami() }),
        ...(p.policy ? [policyStage(p.policy)] : []),
      ],
      journalDir: p.journalDir,
      apply: {
        concurrency: p.concurrency,
        signal: p.signal,
        ...(p.writeGate ? { writeGate: p.writeGate } : {}),
        onStep: stepLogger(run.log, p.metrics, run.api),
      },
      after: [
        ...(p.drift ? [driftQuietStage(p.drift)] : []),
        ...(p.informer ? [informerWroteStage(p.informer, p.planOptions)] : []),
        driftGauges(p.metrics, 'after'),
        healthStage(health, p.metrics),
      ],
    }),
  ];
}

/** load: the manifests (a failure becomes the record's `invalid_manifests`: src/daemon/run.ts). */
function loadStage(p: DaemonRunParts): Stage<DaemonRun> {
  return {
    name: 'manifests',
    phase: 'load',
    reads: [],
    writes: ['desired', 'documents'],
    async run(run) {
      const loaded = await p.load();
      p.metrics.manifestLoad(0);
      run.desired = loaded.desired;
      run.documents = loaded.documents.length;
    },
  };
}

/** scope: full or scoped (src/daemon/changes.ts; a run only the informer's poll started: what it found changed). */
function scopeStage(p: DaemonRunParts): Stage<DaemonRun> {
  return {
    name: 'scope',
    phase: 'scope',
    reads: ['desired'],
    writes: ['decision', 'options', 'whole', 'recordFields'],
    run(run) {
      const desired = got(run, 'desired');
      const decided = p.scoping.decide(run.id, run.reasons, desired);
      // What a poll found waits for a run the poll started (another run may not plan it).
      const pending = run.reasons.includes('poll') ? p.informer?.takePending() : undefined;
      const decision =
        pending && run.reasons.every((r) => r === 'poll') ? pollDecision(p.scoping, desired, pending) : decided;
      run.decision = decision;
      run.recordFields =
        decision.type === 'full'
          ? { scope: 'full', fullBecause: decision.why }
          : {
              scope: 'scoped',
              scopes: { changed: scopeNames(decision.changed), reconciled: scopeNames(decision.scopes) },
            };
      run.log.info(run.recordFields, decision.type === 'full' ? 'full reconcile' : 'scoped reconcile');
      const options =
        decision.type === 'scoped' ? { ...p.planOptions, scope: new Set(decision.scopes) } : p.planOptions;
      run.options = options;
      // A run that plans every managed scope may speak for the whole organization (close a drift proposal, read docs
      // health); a scoped run speaks only for its scopes.
      run.whole = decision.type === 'full' || [...managedScopes(desired)].every((k) => options.scope?.has(k));
    },
  };
}

/** read: the informer's kept reads (a read that fails fails the run: never a silent full read instead). */
function informerStage(informer: LiveSource, planOptions: PlanOptions): Stage<DaemonRun> {
  return {
    name: 'informer',
    phase: 'read',
    reads: ['desired', 'decision'],
    writes: ['ahead', 'recordFields'],
    async run(run) {
      const decision = got(run, 'decision');
      const read = await informer.read(got(run, 'desired'), planOptions, {
        ...(decision.type === 'scoped' ? { scope: new Set(decision.scopes) } : {}),
        ...(run.reasons.includes('full') ? { full: true } : {}),
      });
      run.ahead = Promise.resolve(read.live);
      run.recordFields = { ...run.recordFields, reads: read.orgs };
    },
  };
}

/** read: a scoped run plans from the live state read while the save's debounce waited, when there is one. */
function readAheadStage(p: DaemonRunParts): Stage<DaemonRun> {
  return {
    name: 'read-ahead',
    phase: 'read',
    reads: ['desired', 'decision'],
    writes: ['ahead', 'recordFields'],
    skip: (run) => got(run, 'decision').type !== 'scoped',
    run(run) {
      const decision = got(run, 'decision');
      const ahead = decision.type === 'scoped' ? p.readAhead(got(run, 'desired'), decision.scopes) : undefined;
      if (ahead) run.ahead = ahead;
      run.recordFields = { ...run.recordFields, readAhead: ahead !== undefined };
    },
  };
}

/** What the drift keeper is told of a run. */
const driftInput = (run: DaemonRun, plan: Plan) => ({
  plan,
  desired: got(run, 'desired'),
  live: got(run, 'live'),
  options: got(run, 'options'),
  writes: run.mode === 'apply',
  whole: run.whole === true,
  log: run.log,
});

/** annotate: the drift the config keeps (`drift: report | propose`) is held out of the writes. Must not throw. */
function driftStage(drift: Pick<DriftKeeper, 'settle'>): Stage<DaemonRun> {
  return annotateStage<DaemonRun>('drift', async (plan, run) => {
    run.settled = true;
    return drift.settle(driftInput(run, plan));
  });
}

/** after: a whole run whose plan had no step leaves no drift: a proposal still open is for drift that is gone. */
function driftQuietStage(drift: Pick<DriftKeeper, 'quiet'>): Stage<DaemonRun> {
  return {
    name: 'drift-quiet',
    phase: 'after',
    reads: ['plan', 'desired', 'live', 'options'],
    writes: [],
    skip: (run) => run.settled === true || run.whole !== true,
    async run(run) {
      await drift.quiet(driftInput(run, got(run, 'plan')));
    },
  };
}

/** gate: the policy's (its approvals: src/policy/daemon-approvals.ts), after the safety gate. */
function policyStage(policy: NonNullable<DaemonRunParts['policy']>): Stage<DaemonRun> {
  return gateStage<DaemonRun>('policy', (plan, live, run) => policy(plan, live, run.id, run.log));
}

/** after: what the apply wrote is read again now, so the next run plans from reads the informer can vouch for. */
function informerWroteStage(informer: LiveSource, planOptions: PlanOptions): Stage<DaemonRun> {
  return {
    name: 'informer-wrote',
    phase: 'after',
    reads: ['plan', 'desired'],
    writes: [],
    skip: (run) => run.report === undefined,
    async run(run) {
      await informer.wrote(got(run, 'plan'), got(run, 'report'), got(run, 'desired'), planOptions);
    },
  };
}

/**
 * The drift gauges, from the plan: as a write starts (a plan a gate refuses still counts) and as the run ends. A
 * scoped plan says nothing of the kinds it did not diff: their gauges keep their values.
 */
function driftGauges(metrics: DaemonMetrics, phase: 'gate' | 'after'): Stage<DaemonRun> {
  return {
    name: 'drift-gauges',
    phase,
    reads: ['plan', 'decision'],
    writes: [],
    ...(phase === 'gate' ? { skip: (run: DaemonRun) => !writes(run) } : {}),
    run(run) {
      const decision = got(run, 'decision');
      const kinds =
        decision.type === 'scoped'
          ? [...new Set(decision.scopes.map((k) => k.slice(0, k.indexOf('\u0000'))))]
          : run.kinds.map((k) => k.kind);
      metrics.setDrift(kinds, got(run, 'plan'), decision.type === 'scoped');
    },
  };
}
