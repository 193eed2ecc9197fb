/**
 * Docs health in the daemon: after each run's plan, the broken links of every managed space its live state holds
 * (a scoped run: those of the organizations it read), one list request per space (src/health/broken-links.ts).
 * What it finds goes on the status page and into `docops_broken_links`; a read that fails is a warning, never a
 * failed run (the plan and the apply do not depend on it).
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

export async function readHealth(
  client: ApiClient,
  desired: DesiredState,
  live: LiveState,
  log: Logger,
): Promise<SpaceHealth[] | undefined> {
  const spaces = managedSpaces(desired, live);
  if (spaces.length === 0) return undefined;
  try {
    const found = await readBrokenLinks(client, spaces);
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
