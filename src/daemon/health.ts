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

export interface SpaceHealth {
  org: string;
  /** Space id, and its title. */
  id: string;
  space: string;
  broken: number;
  inChangeRequests: number;
}

/** When the next run reads docs health: the first run, then once `everyMs` have passed; never with 0. */
export class HealthSchedule {
  private last: number | undefined;

  constructor(
    private readonly everyMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether a run ending now reads it; true marks it read (a read that then fails waits for the next turn). */
  take(): boolean {
    if (this.everyMs <= 0) return false;
    const now = this.now();
    if (this.last !== undefined && now - this.last < this.everyMs) return false;
    this.last = now;
    return true;
  }
}

export async function readHealth(
  client: ApiClient,
  desired: DesiredState,
  live: LiveState,
  log: Logger,
): Promise<SpaceHealth[] | undefined> {
  const spaces = managedSpaces(desired, live);
  if (spaces.length === 0) return undefined;
  try {
    const found = await readBrokenLinks(client.background?.() ?? client, spaces);
    return found.map((s) => ({
      org: s.org,
      id: s.id,
      space: s.title,
      broken: s.broken,
      inChangeRequests: s.inChangeRequests,
    }));
  } catch (err) {
    log.warn(
      { error: err instanceof Error ? err.message : String(err) },
      'cannot read the broken links of the managed spaces',
    );
    return undefined;
  }
}
