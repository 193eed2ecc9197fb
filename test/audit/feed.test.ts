/**
 * Following the audit log (src/audit/feed.ts) against the sandbox: a poll hands out each new event once, oldest
 * first, and says so when it cannot vouch that it has all of them — the anchor expired, the answer out of order,
 * more pages than allowed — or when the log is not available (403).
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { latestCursor, poll, type FeedCursor } from '../../src/audit/feed.js';
import { sandbox } from '../sandbox/helpers.js';
import { CAROL } from './fixtures.js';

const OPTIONS = { overlapMs: 60_000, maxPages: 3 };

async function setup() {
  const { sb, call } = await sandbox({ actorTokens: [CAROL] });
  const client = createClient({ baseUrl: sb.url, token: sb.token, retry: { maxRetries: 0 } });
  await call('PATCH', '/orgs/org-demo/members/u-ivan', { role: 'comment' }); // the anchor
  const start = await latestCursor(client, 'org-demo', OPTIONS);
  if (start.type !== 'cursor') throw new Error('the demo organization has audit events');
  const role = (user: string, r: string) =>
    call('PATCH', `/orgs/org-demo/members/${user}`, { role: r }, { token: CAROL.token });
  return { sb, client, cursor: start.cursor, role };
}

describe('audit feed', () => {
  it('hands out each new event once, oldest first, across polls that overlap', async () => {
    const s = await setup();
    expect(s.cursor.anchor).toBeDefined();
    await s.role('u-bob', 'admin');
    await s.role('u-dan', 'edit');
    const first = await poll(s.client, 'org-demo', s.cursor, OPTIONS);
    expect(first.type).toBe('events');
    if (first.type !== 'events') return;
    expect(first.events.map((e) => `${e.action} ${e.target.id}`)).toEqual([
      'member.updated u-bob',
      'member.updated u-dan',
    ]);
    const again = await poll(s.client, 'org-demo', first.cursor, OPTIONS);
    expect(again).toMatchObject({ type: 'events', events: [], requests: 1 });
    await s.role('u-bob', 'edit');
    const third = await poll(s.client, 'org-demo', (again as { cursor: FeedCursor }).cursor, OPTIONS);
    expect(third.type === 'events' && third.events.map((e) => e.target.id)).toEqual(['u-bob']);
  });

  it('is a gap when the anchor expired, the log is out of order or too long; unavailable on 403', async () => {
    const s = await setup();
    await s.role('u-bob', 'admin');
    const first = await poll(s.client, 'org-demo', s.cursor, OPTIONS);
    if (first.type !== 'events') throw new Error('expected events');
    for (const r of ['edit', 'review', 'comment']) await s.role('u-dan', r);

    s.sb.audit.faults = { reorder: true };
    expect(await poll(s.client, 'org-demo', first.cursor, OPTIONS)).toMatchObject({
      type: 'gap',
      reason: 'out-of-order',
    });
    s.sb.audit.faults = { withheld: new Set(['org-demo']) };
    expect(await poll(s.client, 'org-demo', first.cursor, OPTIONS)).toMatchObject({ type: 'unavailable', status: 403 });
    expect(await latestCursor(s.client, 'org-demo', OPTIONS)).toEqual({ type: 'unavailable', status: 403 });
    s.sb.audit.faults = {};
    for (let i = 0; i < 100; i++) await s.role('u-erin', i % 2 === 0 ? 'edit' : 'comment');
    expect(await poll(s.client, 'org-demo', first.cursor, { ...OPTIONS, maxPages: 1 })).toMatchObject({
      type: 'gap',
      reason: 'too-many',
      requests: 1,
    });
    s.sb.audit.keepNewest(50); // bob's event, the anchor, is gone
    expect(await poll(s.client, 'org-demo', first.cursor, OPTIONS)).toMatchObject({ type: 'gap', reason: 'expired' });
    // A cursor on an empty log starts at the server's time (its Date header): what comes after it is new.
    s.sb.audit.keepNewest(0);
    const empty = await latestCursor(s.client, 'org-demo', OPTIONS);
    expect(empty).toEqual({ type: 'cursor', cursor: { at: expect.any(Number), seen: [] } });
    await s.role('u-bob', 'read');
    const after = await poll(s.client, 'org-demo', (empty as { cursor: FeedCursor }).cursor, OPTIONS);
    expect(after.type === 'events' && after.events.map((e) => e.target.id)).toEqual(['u-bob']);
    // Without a server time either, nothing tells what expired: the first events are a gap.
    expect(await poll(s.client, 'org-demo', { seen: [] }, OPTIONS)).toMatchObject({ type: 'gap', reason: 'expired' });
  });

  it("is a gap when an event is one it cannot read (a newer API's shape): never an event dropped unseen", async () => {
    const s = await setup();
    await s.role('u-bob', 'admin');
    // An event with an actor a newer API added (a system actor, without an id) on a member docops manages.
    s.sb.audit.add({
      id: 'evt-newer',
      orgId: 'org-demo',
      occurredAt: new Date().toISOString(),
      action: 'member.updated',
      actor: { type: 'system' },
      source: 'api',
      target: { type: 'member', id: 'u-dan' },
    } as never);
    expect(await poll(s.client, 'org-demo', s.cursor, OPTIONS)).toMatchObject({
      type: 'gap',
      reason: 'unknown-action',
    });
  });
});

describe('audit feed: events that arrive late (the sandbox auditDelay habit)', () => {
  /**
   * Each change becomes visible `lag` ms late, and meanwhile another change `ahead` ms newer is seen: a poll finds
   * the late one only when its window reaches `ahead` back. Each found one widens the window for the next.
   */
  async function lateChanges(options: { overlapMs: number; maxOverlapMs: number; maxPages: number }) {
    let now = Date.parse('2026-06-01T12:00:00.000Z');
    const { sb, call } = await sandbox({ actorTokens: [CAROL], now: () => new Date(now) });
    const client = createClient({ baseUrl: sb.url, token: sb.token, retry: { maxRetries: 0 } });
    const role = (user: string, r: string) =>
      call('PATCH', `/orgs/org-demo/members/${user}`, { role: r }, { token: CAROL.token });
    await call('PATCH', '/orgs/org-demo/members/u-ivan', { role: 'comment' });
    const start = await latestCursor(client, 'org-demo', options);
    if (start.type !== 'cursor') throw new Error('the demo organization has audit events');
    let cursor = start.cursor;
    const found: string[] = [];
    const follow = async (): Promise<void> => {
      const r = await poll(client, 'org-demo', cursor, options);
      if (r.type !== 'events') throw new Error(r.type);
      cursor = r.cursor;
      found.push(...r.events.map((e) => e.target.id));
    };
    const roles = ['read', 'comment', 'review', 'edit'];
    for (const [i, [user, ahead]] of (
      [
        ['u-dan', 8_000],
        ['u-frank', 14_000],
        ['u-heidi', 25_000],
        ['u-judy', 45_000],
      ] as const
    ).entries()) {
      sb.setFaults(`auditDelay=${ahead + 5_000}ms`);
      await role(user, 'admin');
      sb.setFaults(undefined);
      now += ahead;
      await role('u-grace', roles[i]!);
      now += 1_000;
      await follow(); // grace's change: the newest seen is now `ahead` newer than the late one
      now += 5_000;
      await follow();
    }
    await follow();
    return { found, lateMs: cursor.lateMs };
  }

  it('an event seen late widens the window, so one later again is still found, and none is handed out twice', async () => {
    const { found, lateMs } = await lateChanges({ overlapMs: 10_000, maxOverlapMs: 120_000, maxPages: 3 });
    expect(found).toEqual(['u-grace', 'u-dan', 'u-grace', 'u-frank', 'u-grace', 'u-heidi', 'u-grace', 'u-judy']);
    expect(lateMs).toBe(45_000);
  });

  it('without room to grow, an event later than the window is missed (what the window is for)', async () => {
    const { found } = await lateChanges({ overlapMs: 10_000, maxOverlapMs: 10_000, maxPages: 3 });
    expect(found).toContain('u-dan');
    expect(found).not.toContain('u-heidi');
  });
});
