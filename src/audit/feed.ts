/**
 * Following an organization's audit log (`GET /orgs/{id}/audit-events`, newest first): the events since a cursor,
 * or why they cannot be trusted to be all of them. The daemon's informer (src/daemon/informer) re-reads only what
 * the events name, so a poll must never miss one silently:
 *
 * - **late events**: each poll reads from a window before the newest event it saw, and skips the ids it saw, so an
 *   event that becomes visible after newer ones (an audit pipeline that lags, out of order) is still found. The
 *   window is `overlapMs`, or twice the most an event was seen late (an event found older than the newest one the
 *   poll before had seen was that late at least), up to `maxOverlapMs`: a log that lags more than it once did is
 *   followed further back from then on;
 * - **expired**: the newest event of the last poll (the anchor) must be read again; when it is gone, the log no
 *   longer keeps what came after the cursor → a gap. A cursor taken on an empty log has no anchor: it starts
 *   at the server's time (the answer's `Date` header), and the events after it are all new (a log drops its
 *   oldest events first); without a `Date` either, the first events are a gap (nothing tells what expired);
 * - **out of order**: the log promises newest first; an answer that is not → a gap;
 * - **too many**: more than `maxPages` pages of events since the cursor → a gap (re-reading that many objects
 *   costs about as much as reading everything);
 * - **unavailable**: 401/403 (not an admin, no Enterprise plan) or 404 → no events at all for this organization.
 * Any other failure is thrown (the run fails and is retried: nothing is planned from a state it cannot vouch for).
 */
import type { ApiClient } from '../model/api-client.js';
import { ApiError } from '../model/errors.js';
import { isAuditEvent, type AuditEvent } from './match.js';

export const FEED_PAGE_SIZE = 100;

/** Where a poll starts: the newest event seen and the ids seen near it. Plain data. */
export interface FeedCursor {
  /** `occurredAt` (ms) of the newest event seen; undefined while the log was empty. */
  at?: number;
  /** That event's id: it must be found again by the next poll. */
  anchor?: string;
  /** The events seen from `at - window` on, with their times (never handed out twice). */
  seen: { id: string; at: number }[];
  /** The most an event was seen late (ms): it widens the window (see the file comment). */
  lateMs?: number;
}

export interface FeedEvent extends AuditEvent {
  id: string;
}

export type GapReason = 'expired' | 'out-of-order' | 'too-many' | 'unknown-action';

export type PollResult =
  /** The new events, oldest first. */
  | { type: 'events'; events: FeedEvent[]; cursor: FeedCursor; requests: number }
  | { type: 'gap'; reason: GapReason; requests: number }
  | { type: 'unavailable'; status: number; requests: number };

export interface FeedOptions {
  overlapMs: number;
  /** The widest the window grows for events seen late (default: overlapMs, no growth). */
  maxOverlapMs?: number;
  maxPages: number;
}

/** How far behind the newest event seen a poll reads again. */
export function windowOf(cursor: FeedCursor, options: FeedOptions): number {
  const cap = Math.max(options.overlapMs, options.maxOverlapMs ?? options.overlapMs);
  return Math.min(cap, Math.max(options.overlapMs, 2 * (cursor.lateMs ?? 0)));
}

interface Page {
  items?: unknown[];
  next?: { page: string };
}

const eventsPath = (org: string): string => `/orgs/${encodeURIComponent(org)}/audit-events`;

/** The cursor to follow the log from now on: its newest events (one request). */
export async function latestCursor(
  client: ApiClient,
  org: string,
  options: FeedOptions,
): Promise<{ type: 'cursor'; cursor: FeedCursor } | { type: 'unavailable'; status: number }> {
  try {
    const res = await client.request<Page>('GET', eventsPath(org), { query: { limit: FEED_PAGE_SIZE } });
    // The cursor starts after a full read: an item it cannot read is no change it has to follow.
    const items = (Array.isArray(res.body?.items) ? res.body.items : []).filter(isEvent);
    const serverTime = Date.parse(res.headers['date'] ?? '');
    const empty: FeedCursor = Number.isNaN(serverTime) ? { seen: [] } : { at: serverTime, seen: [] };
    return { type: 'cursor', cursor: items.length > 0 ? advance({ seen: [] }, items, options) : empty };
  } catch (err) {
    const status = unavailableStatus(err);
    if (status === undefined) throw err;
    return { type: 'unavailable', status };
  }
}

/** The events since `cursor` (see the file comment). */
export async function poll(
  client: ApiClient,
  org: string,
  cursor: FeedCursor,
  options: FeedOptions,
): Promise<PollResult> {
  const from = cursor.at === undefined ? undefined : new Date(cursor.at - windowOf(cursor, options)).toISOString();
  const items: FeedEvent[] = [];
  let requests = 0;
  let page: string | undefined;
  try {
    do {
      if (requests >= options.maxPages) return { type: 'gap', reason: 'too-many', requests };
      const body = await client.get<Page>(eventsPath(org), {
        limit: FEED_PAGE_SIZE,
        ...(from !== undefined ? { from } : {}),
        ...(page !== undefined ? { page } : {}),
      });
      requests++;
      const events = eventsOf(body);
      // An item docops cannot read as an event (a newer API's shape) may be a change: never dropped unseen.
      if (!events) return { type: 'gap', reason: 'unknown-action', requests };
      items.push(...events);
      page = body?.next?.page;
    } while (page !== undefined);
  } catch (err) {
    const status = unavailableStatus(err);
    if (status === undefined) throw err;
    return { type: 'unavailable', status, requests: requests + 1 };
  }
  for (let i = 1; i < items.length; i++)
    if (time(items[i]!) > time(items[i - 1]!)) return { type: 'gap', reason: 'out-of-order', requests };
  const anchored =
    cursor.anchor !== undefined
      ? items.some((e) => e.id === cursor.anchor)
      : cursor.at !== undefined || items.length === 0;
  if (!anchored) return { type: 'gap', reason: 'expired', requests };
  const seen = new Set(cursor.seen.map((e) => e.id));
  const fresh = items.filter((e) => !seen.has(e.id)).reverse();
  // An event older than the newest the last poll had seen became visible after it: it was at least that late.
  let lateMs = cursor.lateMs ?? 0;
  if (cursor.at !== undefined) for (const e of fresh) lateMs = Math.max(lateMs, cursor.at - time(e));
  const next = advance({ ...cursor, ...(lateMs > 0 ? { lateMs } : {}) }, items, options);
  return { type: 'events', events: fresh, cursor: next, requests };
}

/**
 * The cursor after reading `items` (newest first): the events seen, this poll's and the earlier ones', that a
 * later poll's window may still reach.
 */
function advance(cursor: FeedCursor, items: readonly FeedEvent[], options: FeedOptions): FeedCursor {
  const newest = items[0];
  const at = newest ? Math.max(time(newest), cursor.at ?? Number.NEGATIVE_INFINITY) : cursor.at;
  const late = cursor.lateMs !== undefined ? { lateMs: cursor.lateMs } : {};
  if (at === undefined) return { seen: [], ...late };
  const anchor = newest?.id ?? cursor.anchor;
  // Kept for the widest window a poll may come to read (it grows with events seen late): none is handed out twice.
  const window = Math.max(options.overlapMs, options.maxOverlapMs ?? options.overlapMs);
  const byId = new Map(cursor.seen.map((e) => [e.id, e.at]));
  for (const e of items) byId.set(e.id, time(e));
  const seen = [...byId].filter(([, t]) => t >= at - window).map(([id, t]) => ({ id, at: t }));
  return { at, ...(anchor !== undefined ? { anchor } : {}), seen, ...late };
}

const time = (e: FeedEvent): number => Date.parse(e.occurredAt);

/** The page's events; undefined when one of its items is not an event docops can read. */
function eventsOf(page: Page | undefined): FeedEvent[] | undefined {
  const items: unknown[] = Array.isArray(page?.items) ? page.items : [];
  return items.every(isEvent) ? items : undefined;
}

function unavailableStatus(err: unknown): number | undefined {
  return err instanceof ApiError && err.status !== undefined && [401, 403, 404].includes(err.status)
    ? err.status
    : undefined;
}

/** An audit event of the feed: one with an id, and a time that reads as one. */
function isEvent(v: unknown): v is FeedEvent {
  return isAuditEvent(v) && typeof (v as { id?: unknown }).id === 'string' && !Number.isNaN(Date.parse(v.occurredAt));
}
