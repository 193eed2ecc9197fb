/** What the informer keeps per organization, and how it shows it (status page, /api/status). */
import type { FeedCursor, PollResult } from '../../audit/feed.js';
import type { StaleRead } from '../../model/kind.js';
import type { ReadCache } from '../../engine/read-cache.js';
import type { LiveState } from '../../model/state.js';
import { OwnEvents } from './own-events.js';

/** Why an organization was read whole (also the `reason` label of docops_informer_full_reads_total). */
export type FullReason =
  | 'start'
  | 'resync'
  | 'demand'
  | 'unavailable'
  | 'expired'
  | 'out-of-order'
  | 'too-many'
  | 'unknown-action'
  | 'own-write';

/** How one organization's live state was read for a run. */
export interface OrgRead {
  org: string;
  read: 'informer' | 'full' | 'scoped';
  why?: FullReason;
  /** Events followed (informer), own events skipped. */
  events?: number;
  skipped?: number;
}

export interface OrgStatus {
  org: string;
  mode: 'informer' | 'fallback';
  /** Why it is in fallback, or why its last full read happened. */
  why?: FullReason;
  status?: number;
  lastPollAt?: string;
  lastFullReadAt?: string;
  resyncing: boolean;
  nextResyncAt?: string;
  /** Events followed since the daemon started; reads kept. */
  events: number;
  reads: number;
}

/** A background full read in flight: what went stale since it started is marked again on its reads. */
export interface Resync {
  started: number;
  stales: StaleRead[];
  cache?: ReadCache;
}

export interface OrgState {
  org: string;
  cache?: ReadCache;
  cursor?: FeedCursor;
  unavailable?: number;
  why?: FullReason;
  fullReadAt?: number;
  lastPollAt?: number;
  resync?: Resync;
  /** The live state of the last fetch over the cache, what it was fetched for, and prune as it saw it. */
  live?: LiveState;
  prune?: (kind: string, org: string) => boolean;
  liveFor?: string;
  dirty: boolean;
  /**
   * A run that did not plan the whole organization took events (or a full read) for it: the state they brought
   * is still to be planned, so the next poll starts a run for it whatever the log says.
   */
  unplanned?: boolean;
  /**
   * Lists docops wrote to, read again by every run until the API's list lag has passed since the write (a list
   * read right after it may not show it yet: src/api/expectations.ts).
   */
  lagging: { stale: StaleRead; until: number }[];
  events: number;
  own: OwnEvents;
  /** A poll between runs (Informer.peek) and the cursor it polled from, kept for the run it starts. */
  peeked?: { from: FeedCursor; result: PollResult };
}

export function newOrgState(org: string): OrgState {
  return { org, dirty: true, lagging: [], events: 0, own: new OwnEvents() };
}

export function orgStatus(st: OrgState, resyncMs: number): OrgStatus {
  const next = st.cache && st.fullReadAt !== undefined && resyncMs > 0 ? st.fullReadAt + resyncMs : undefined;
  const at = (name: string, t: number | undefined): Record<string, string> =>
    t === undefined ? {} : { [name]: new Date(t).toISOString() };
  return {
    org: st.org,
    mode: st.cache ? 'informer' : 'fallback',
    ...(st.why !== undefined ? { why: st.why } : {}),
    ...(st.unavailable !== undefined ? { status: st.unavailable } : {}),
    ...at('lastPollAt', st.lastPollAt),
    ...at('lastFullReadAt', st.fullReadAt),
    ...at('nextResyncAt', next),
    resyncing: st.resync !== undefined,
    events: st.events,
    reads: st.cache?.size ?? 0,
  };
}

/** The kept reads dropped: the organization is read whole (or fresh, without an audit log) at its next run. */
export function forgetReads(st: OrgState, why: FullReason): void {
  delete st.cache;
  delete st.cursor;
  delete st.live;
  delete st.resync;
  st.lagging = [];
  st.why = why;
  st.dirty = true;
}
