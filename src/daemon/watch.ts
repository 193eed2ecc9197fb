/**
 * What starts a daemon's runs on its own (HTTP and retries aside): the manifests' file watch, with the preloads it
 * starts at each event, the cron schedule and the informer's polls. Started by the Daemon (daemon.ts), which
 * decides whether a trigger may run.
 */
import type { ApiClient } from '../model/api-client.js';
import type { KindDefinition } from '../model/kind.js';
import type { Logger } from '../log.js';
import { systemClock } from './backoff.js';
import type { DocopsConfig } from '../config/config.js';
import type { DaemonDeps } from './daemon-deps.js';
import { createInformerLink, type InformerLink } from './informer/link.js';
import type { DaemonMetrics } from './metrics.js';
import { nodeCronScheduler, watchManifests, type ManifestWatcher, type TriggerReason } from './triggers.js';

export interface Watching {
  watcher: ManifestWatcher;
  cron: { stop(): void | Promise<void> } | undefined;
  informer: InformerLink | undefined;
}

export interface WatchParts {
  kinds: readonly KindDefinition[];
  logger: Logger;
  metrics: DaemonMetrics;
  /** Told at every file event, before the quiet time: it starts loading the manifests (src/daemon/preload.ts). */
  preloader: { changed(): void };
  client: () => ApiClient;
  selfId: () => Promise<string | undefined>;
  fire: (reason: TriggerReason) => void;
  /** Whether a poll may run now: only where a run could follow it (never on a standby, during a run or when stopping). */
  mayPoll: () => boolean;
}

export async function startWatching(
  c: DocopsConfig,
  deps: Pick<DaemonDeps, 'scheduler' | 'clock'>,
  p: WatchParts,
): Promise<Watching> {
  const watcher = await watchManifests(
    c.manifestsDir,
    c.debounceMs,
    (paths) => {
      p.logger.debug({ paths }, 'manifests changed');
      p.fire('watch');
    },
    (err) => p.logger.error({ err }, 'watching the manifests failed'),
    () => p.preloader.changed(),
  );
  const cron =
    c.schedule !== undefined
      ? (deps.scheduler ?? nodeCronScheduler).schedule(c.schedule, () => p.fire('schedule'))
      : undefined;
  let informer: InformerLink | undefined;
  if (c.informer) {
    informer = createInformerLink(c.informer, {
      kinds: p.kinds,
      client: p.client(),
      metrics: p.metrics,
      logger: p.logger,
      clock: deps.clock ?? systemClock,
      selfId: p.selfId,
    });
    informer?.start(p.mayPoll, () => p.fire('poll'));
  }
  return { watcher, cron, informer };
}
