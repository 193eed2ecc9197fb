/**
 * The order a daemon stops in (Daemon.stop): triggers refused and the apply stopped synchronously, before anything
 * is awaited (the step in flight finishes, no new step starts); the run waited for up to the grace period; the
 * lease released only once nothing is written any more; the rest closed.
 */
import type { Logger } from '../log.js';

interface Closable {
  close(): Promise<void>;
}

/** What a stopping daemon holds. The parts a start may still be setting up are read as the shutdown reaches them. */
export interface StoppingDaemon {
  logger: Logger;
  graceMs: number;
  runner: { stop(): Promise<void> };
  abort: AbortController;
  retrier: { cancel(): void };
  reconciler: { stop(): void };
  parts(): {
    informer?: { stop(): void } | undefined;
    cron?: { stop(): void | Promise<void> } | undefined;
    watcher?: Closable | undefined;
    /** The lease this daemon holds itself (a fleet's daemons leave theirs to the fleet). */
    lease: { stop(release: boolean): Promise<void> } | undefined;
    server: Closable | undefined;
    approvals: Closable | undefined;
    notifier: Closable | undefined;
    connection: Closable | undefined;
  };
}

const CLOSED_LAST = ['server', 'approvals', 'notifier', 'connection'] as const;

/**
 * Stop. `quiet`: the daemon never started (its start failed): what it closes is said at debug level, so the reason
 * it did not start is the one thing a user reads.
 */
export async function shutDown(d: StoppingDaemon, quiet = false): Promise<{ graceful: boolean }> {
  const say = quiet ? d.logger.debug.bind(d.logger) : d.logger.info.bind(d.logger);
  say('stopping: no new reconciles; the step in flight finishes');
  const drained = d.runner.stop();
  d.abort.abort();
  d.retrier.cancel();
  d.parts().informer?.stop();
  await d.parts().cron?.stop();
  await d.parts().watcher?.close();
  d.reconciler.stop();
  let timer: NodeJS.Timeout | undefined;
  const graceful = await Promise.race([
    drained.then(() => true),
    new Promise<boolean>((res) => (timer = setTimeout(() => res(false), d.graceMs))),
  ]);
  clearTimeout(timer);
  if (!graceful) d.logger.error({ graceMs: d.graceMs }, 'the running reconcile did not finish within the grace period');
  // After an ungraceful stop a write may still be in flight, so the lease is left to expire.
  await d.parts().lease?.stop(graceful);
  for (const last of CLOSED_LAST) await d.parts()[last]?.close();
  say({ graceful }, 'stopped');
  return { graceful };
}
