/**
 * Who hears of a daemon's runs besides its book (run-book.ts): the status page's tracker, and the notifier when
 * the config has `notify:` targets. Built with the Daemon (daemon.ts); what they show of it is read when asked.
 */
import type { Logger } from '../log.js';
import type { DocopsConfig } from '../config/config.js';
import type { DaemonDeps } from './daemon-deps.js';
import type { ProposalView } from './drift/propose.js';
import { Notifier } from './notify/index.js';
import type { Readiness } from './server.js';
import type { ApprovalStatus, InformerView } from './status/model.js';
import { StatusTracker } from './status/tracker.js';

/** What the observers read of the daemon. */
export interface ObservedDaemon {
  /** The daemon's role on the status page (DaemonDeps.role replaces it). */
  role(): string;
  readiness(): Readiness;
  approval(): ApprovalStatus | null;
  proposal(): ProposalView | null;
  informer(): InformerView | undefined;
  /** The status page's address, for the notifications' links. */
  statusUrl(): string | undefined;
}

export function runObservers(
  config: DocopsConfig,
  deps: Pick<DaemonDeps, 'role' | 'notifyRetry'>,
  logger: Logger,
  d: ObservedDaemon,
): { status: StatusTracker; notifier: Notifier | undefined } {
  const status = new StatusTracker({
    mode: config.mode,
    manifestsDir: config.manifestsDir,
    demo: config.sandbox,
    ...(config.schedule !== undefined ? { schedule: config.schedule } : {}),
    role: deps.role ?? (() => d.role()),
    readiness: () => {
      const r = d.readiness().body;
      return { ready: r.ready === true, ...(typeof r.reason === 'string' ? { reason: r.reason } : {}) };
    },
    approval: () => d.approval(),
    proposal: () => d.proposal(),
    informer: () => d.informer(),
  });
  const targets = config.notify ?? [];
  const notifier =
    targets.length > 0
      ? new Notifier(targets, {
          logger: logger.child({ component: 'notify' }),
          ...(deps.notifyRetry ? { retry: deps.notifyRetry } : {}),
          statusUrl: () => d.statusUrl(),
        })
      : undefined;
  return { status, notifier };
}
