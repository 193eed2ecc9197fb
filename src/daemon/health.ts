/**
 * Docs health in the daemon: at the end of a run, when due, the broken links of every managed space its live
 * state holds (a scoped run: those of the organizations it read), one list request per space
 * (src/health/broken-links.ts). What it finds goes on the status page and into `docops_broken_links`; a read that
 * fails is a warning, never a failed run (the plan and the apply do not depend on it).
 *
 * Its cost is the number of managed spaces, not the size of a change: read by every run, it made each save and
 * each of the informer's reverts cost 500 requests in a 500-space organization (and a rate-limited token minutes
 * of its budget). So it is read on its own clock (HealthSchedule: the first run, then at most every
 * `healthMinutes`), through the client's background lane, which yields to every other request.
 */
import type { ApiClient } from '../model/api-client.js';
import type { LiveState } from '../model/state.js';
import type { DesiredState } from '../model/state.js';
import { managedSpaces, readBrokenLinks } from '../health/broken-links.js';
import type { Logger } from '../log.js';
import { got, type Stage } from '../pipeline/index.js';
import type { DaemonMetrics } from './metrics.js';
import type { DaemonRun } from './run.js';
import type { SpaceHealth } from './run-record.js';

/** A failed read is tried again this soon (or at the interval, when shorter), not a whole interval later. */
export const HEALTH_RETRY_MS = 5 * 60 * 1000;

/**
 * When the next run reads docs health: the first run, then once `everyMs` have passed; never with 0. Only a read
 * that happened moves the clock: a run that did not read (a scoped run, which sees only part of the spaces) leaves
 * it due, and a read that failed is tried again after HEALTH_RETRY_MS.
 */
export class HealthSchedule {
  private next: number | undefined;

  constructor(
    private readonly everyMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether a run ending now should read it (asks only: `done` says it was read). */
  due(): boolean {
    return this.everyMs > 0 && (this.next === undefined || this.now() >= this.next);
  }

  /** A read ended: read (the next after the interval) or failed (tried again sooner). */
  done(read: boolean): void {
    this.next = this.now() + (read ? this.everyMs : Math.min(this.everyMs, HEALTH_RETRY_MS));
  }
}

export async function readHealth(
  client: ApiClient,
  desired: DesiredState,
  live: LiveState,
  log: Logger,
): Promise<{ health: SpaceHealth[] | undefined; read: boolean }> {
  const spaces = managedSpaces(desired, live);
  if (spaces.length === 0) return { health: undefined, read: true };
  try {
    const found = await readBrokenLinks(client.background?.() ?? client, spaces);
    const health = found.map((s) => ({
      org: s.org,
      id: s.id,
      space: s.title,
      broken: s.broken,
      inChangeRequests: s.inChangeRequests,
    }));
    return { health, read: true };
  } catch (err) {
    log.warn(
      { error: err instanceof Error ? err.message : String(err) },
      'cannot read the broken links of the managed spaces',
    );
    return { health: undefined, read: false };
  }
}

/** after: docs health, when due and the run planned every managed scope; its spaces go on the record and the gauge. */
export function healthStage(
  schedule: HealthSchedule,
  metrics: Pick<DaemonMetrics, 'setBrokenLinks'>,
): Stage<DaemonRun> {
  return {
    name: 'health',
    phase: 'after',
    reads: ['desired', 'live', 'client', 'decision'],
    writes: ['recordFields'],
    skip: (run) => run.whole !== true || !schedule.due(),
    async run(run) {
      const read = await readHealth(got(run, 'client'), got(run, 'desired'), got(run, 'live'), run.log);
      schedule.done(read.read);
      if (!read.health) return;
      run.recordFields = { ...run.recordFields, health: read.health };
      metrics.setBrokenLinks(read.health, got(run, 'decision').type === 'scoped');
    },
  };
}
