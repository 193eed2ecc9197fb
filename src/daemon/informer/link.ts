/**
 * The informer in the daemon: built from the config (`informer:`), it is where a run's live state comes from
 * (LiveSource, used by run.ts), it polls between runs (every `pollSeconds`; a quiet poll starts no run), and it
 * reports to the metrics, the status page and /api/status.
 */
import type { ApiClient } from '../../model/api-client.js';
import type { ApplyReport } from '../../model/apply-report.js';
import type { KindDefinition } from '../../model/kind.js';
import type { Plan } from '../../model/plan.js';
import type { PlanOptions } from '../../engine/reconcile.js';
import type { DesiredState, LiveState } from '../../model/state.js';
import type { ScopeSet } from '../../engine/scope.js';
import type { Logger } from '../../log.js';
import type { Clock } from '../backoff.js';
import type { InformerSettings } from '../../config/config.js';
import type { DaemonMetrics } from '../metrics.js';
import { Informer, type OrgRead, type OrgStatus } from './informer.js';

/** Where a run's live state comes from, and what it is told after an apply. */
export interface LiveSource {
  read(
    desired: DesiredState,
    options: PlanOptions,
    request: { scope?: ScopeSet; full?: boolean },
  ): Promise<{ live: LiveState; orgs: OrgRead[] }>;
  wrote(plan: Plan, report: ApplyReport, desired: DesiredState, options: PlanOptions): Promise<void>;
  /** Organizations whose last poll between runs found something a run should plan (taken: asked once). */
  takePending(): Set<string>;
}

export interface InformerStatus {
  enabled: boolean;
  pollSeconds: number;
  resyncMinutes: number;
  orgs: OrgStatus[];
}

export interface InformerLink {
  source: LiveSource;
  /** Poll every `pollSeconds` while `mayPoll()`; `run()` when a poll found something. */
  start(mayPoll: () => boolean, run: () => void): void;
  stop(): void;
  status(): InformerStatus;
}

interface InformerLinkDeps {
  kinds: readonly KindDefinition[];
  client: ApiClient;
  metrics: DaemonMetrics;
  logger: Logger;
  clock: Clock;
  selfId: () => Promise<string | undefined>;
}

export function createInformerLink(settings: InformerSettings, deps: InformerLinkDeps): InformerLink | undefined {
  if (!settings.enabled || !Informer.usable(deps.kinds)) return undefined;
  const log = deps.logger.child({ component: 'informer' });
  const informer = informerOf(settings, deps, log);
  let pending = new Set<string>();
  let timer: unknown;
  let stopped = false;
  const publish = (): void => deps.metrics.setInformerOrgs(informer.status());

  const source: LiveSource = {
    async read(desired, options, request) {
      try {
        return await informer.read(desired, options, request);
      } finally {
        publish();
      }
    },
    wrote: (plan, report, desired, options) => informer.wrote(plan, report, desired, options),
    takePending() {
      const out = pending;
      pending = new Set();
      return out;
    },
  };

  return {
    source,
    start(mayPoll, run) {
      if (settings.pollMs <= 0) return;
      const tick = (): void => {
        if (stopped) return;
        const go = mayPoll()
          ? informer.peek().then(
              (orgs) => {
                for (const o of orgs) pending.add(o);
                publish();
                if (pending.size > 0) run();
              },
              (err: unknown) =>
                log.warn({ err }, 'informer: polling the audit events failed; the next poll tries again'),
            )
          : Promise.resolve();
        void go.finally(() => {
          if (!stopped) timer = deps.clock.setTimeout(tick, settings.pollMs);
        });
      };
      timer = deps.clock.setTimeout(tick, settings.pollMs);
    },
    stop() {
      stopped = true;
      if (timer !== undefined) deps.clock.clearTimeout(timer);
    },
    status: () => ({
      enabled: true,
      pollSeconds: settings.pollMs / 1000,
      resyncMinutes: settings.resyncMs / 60_000,
      orgs: informer.status(),
    }),
  };
}

/** The informer the settings describe, its reads counted in the metrics (and a full read logged). */
function informerOf(settings: InformerSettings, deps: InformerLinkDeps, log: Logger): Informer {
  return new Informer({
    kinds: deps.kinds,
    client: deps.client,
    ...(deps.client.background ? { background: deps.client.background() } : {}),
    config: {
      overlapMs: settings.overlapMs,
      ...(settings.maxOverlapMs !== undefined ? { maxOverlapMs: settings.maxOverlapMs } : {}),
      maxPages: 10,
      resyncMs: settings.resyncMs,
    },
    selfId: deps.selfId,
    logger: log,
    onRead: (r) => {
      deps.metrics.informerRead(r.read, r.why, r.events ?? 0);
      if (r.read === 'full') log.info({ org: r.org, why: r.why }, 'informer: full read');
    },
  });
}
