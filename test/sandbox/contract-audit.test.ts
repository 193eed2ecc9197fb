/**
 * CONTRACT CHECK for GET /orgs/{organizationId}/audit-events against the official spec: the sandbox records an
 * event for every write it accepts (actor = the token's user, including a second, non-docops token), answers in
 * the spec's `AuditEvent` list shape, pages with `limit` 1..100 (default 20) and `next.page`, filters by `from`,
 * `to`, `action`, `actor` and `target`, refuses bad parameters with 400, non-admins with 403 and unknown
 * organizations with 404 — each error in the spec's error shape.
 */
import { describe, expect, it } from 'vitest';
import { responseValidator } from './contract-spec.js';
import { manualClock, sandbox, type Json } from './helpers.js';
import { orgs } from '@docops/sandbox';

const SPEC = '/orgs/{organizationId}/audit-events';
const PATH = '/orgs/org-demo/audit-events';
const CAROL = { token: 'carol-token-behind-docops', userId: 'u-carol' };

function expectValid(validate: ReturnType<typeof responseValidator>, body: unknown): void {
  const valid = validate(body);
  expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
  expect(valid).toBe(true);
}

describe('contract: audit events', () => {
  it('records each accepted write with its actor and target, newest first, in the spec shape', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const { call } = await sandbox({ actorTokens: [CAROL], readToken: 'read-token-0123456789', now: clock.now });
    expect(
      (await call('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' }, { token: CAROL.token })).status,
    ).toBe(200);
    clock.advance(60_000);
    const team = await call('PUT', '/orgs/org-demo/teams', { title: 'Docs <b>crew</b>' });
    expect(team.status).toBe(201);
    clock.advance(60_000);
    expect((await call('DELETE', '/orgs/org-demo/teams/team-support', undefined, { token: CAROL.token })).status).toBe(
      204,
    );
    expect((await call('DELETE', '/orgs/org-demo/teams/team-gone')).status).toBe(204); // not there: no event
    // Refused writes are not events.
    expect((await call('PATCH', '/orgs/org-demo/members/u-nobody', { role: 'admin' })).status).toBe(404);
    expect(
      (await call('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' }, { token: 'read-token-0123456789' }))
        .status,
    ).toBe(403);

    const res = await call('GET', PATH);
    expect(res.status).toBe(200);
    expectValid(responseValidator('GET', SPEC, 200), res.body);
    const events = res.body.items as Json[];
    expect(
      events.map((e) => [
        e.action,
        e.actor.id,
        e.actor.label,
        e.target.type,
        e.target.id,
        e.target.label,
        e.occurredAt,
      ]),
    ).toEqual([
      ['team.deleted', 'u-carol', 'carol@acme.test', 'team', 'team-support', 'Support', '2026-03-01T10:02:00.000Z'],
      ['team.created', 'u-ada', 'ada@acme.test', 'team', team.body.id, 'Docs <b>crew</b>', '2026-03-01T10:01:00.000Z'],
      ['member.updated', 'u-carol', 'carol@acme.test', 'member', 'u-bob', 'bob@acme.test', '2026-03-01T10:00:00.000Z'],
    ]);
    expect(events.every((e) => e.object === 'audit-event' && e.source === 'api' && e.actor.type === 'user')).toBe(true);
  });

  it('records every change a write makes, its cascades included, each on the object it belongs to', async () => {
    const { call } = await sandbox();
    // A grant for frank on a space, then frank leaves: the membership, his team seat and his grant go.
    expect(
      (await call('POST', '/spaces/sp-api/permissions', { role: 'edit', users: ['u-frank'] })).status,
    ).toBeLessThan(300);
    expect((await call('DELETE', '/orgs/org-demo/members/u-frank')).status).toBe(204);
    // A collection deleted takes its spaces along (into the bin).
    expect((await call('DELETE', '/collections/col-internal')).status).toBeLessThan(300);
    // A team's member added: an event on the team, part member.
    expect((await call('PUT', '/orgs/org-demo/teams/team-writers/members/u-bob', { role: 'member' })).status).toBe(204);
    const events = (await call('GET', `${PATH}?limit=100`)).body.items as Json[];
    const seen = events.map((e) => `${e.action} ${e.target.type}:${e.target.id}`);
    expect(seen.slice(0, 7).sort()).toEqual(
      [
        'team.member.created team:team-writers',
        'collection.deleted collection:col-internal',
        'space.deleted space:sp-runbooks',
        'space.permission.deleted space:sp-api',
        'team.member.deleted team:team-support',
        'member.deleted member:u-frank',
        'space.permission.created space:sp-api',
      ].sort(),
    );
    // Newest first: the last write's event leads.
    expect(seen[0]).toBe('team.member.created team:team-writers');
  });

  it('serves events only on an Enterprise plan, as the organization says (auditLogs), and 403 otherwise', async () => {
    const { sb, call } = await sandbox();
    expect((await call('GET', '/orgs/org-demo')).body.auditLogs).toBe(true);
    orgs(sb.store).put({ ...orgs(sb.store).get('org-demo')!, plan: 'pro_2024' });
    expect((await call('GET', '/orgs/org-demo')).body.auditLogs).toBe(false);
    const res = await call('GET', PATH);
    expect(res.status).toBe(403);
    expectValid(responseValidator('GET', SPEC, 403), res.body);
  });

  it('misbehaves on request: withheld (403), out of order, old events expired', async () => {
    const { sb, call } = await sandbox();
    for (const role of ['edit', 'review', 'comment']) await call('PATCH', '/orgs/org-demo/members/u-dan', { role });
    const times = (items: Json[]) => items.map((e) => e.occurredAt as string);
    sb.audit.faults = { withheld: new Set(['org-demo']) };
    expect((await call('GET', PATH)).status).toBe(403);
    sb.audit.faults = { reorder: true };
    const reordered = (await call('GET', PATH)).body.items as Json[];
    expect(reordered).toHaveLength(3);
    sb.audit.faults = {};
    const ordered = (await call('GET', PATH)).body.items as Json[];
    expect(reordered.map((e) => e.id)).not.toEqual(ordered.map((e) => e.id));
    expect(times(ordered)).toEqual([...times(ordered)].sort().reverse());
    sb.audit.keepNewest(1);
    expect((await call('GET', PATH)).body.items.map((e: Json) => e.id)).toEqual([ordered[0].id]);
  });

  it('pages with limit 1..100 (default 20) and filters by from, to, action, actor and target', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const { call } = await sandbox({ actorTokens: [CAROL], now: clock.now });
    for (let i = 0; i < 25; i++) {
      clock.advance(1000);
      const who = i % 5 === 0 ? { token: CAROL.token } : {};
      expect(
        (await call('PATCH', '/orgs/org-demo/members/u-dan', { role: i % 2 === 0 ? 'edit' : 'review' }, who)).status,
      ).toBe(200);
    }
    const validate = responseValidator('GET', SPEC, 200);
    const first = await call('GET', PATH);
    expectValid(validate, first.body);
    expect(first.body.items).toHaveLength(20);
    const second = await call('GET', `${PATH}?page=${encodeURIComponent(first.body.next.page)}`);
    expectValid(validate, second.body);
    expect(second.body.items).toHaveLength(5);
    expect(second.body.next).toBeUndefined();
    const all = [...first.body.items, ...second.body.items].map((e: Json) => e.occurredAt);
    expect(all).toEqual([...all].sort().reverse());

    const small = await call('GET', `${PATH}?limit=2`);
    expect(small.body.items).toHaveLength(2);
    expect(small.body.next).toBeDefined();
    expect((await call('GET', `${PATH}?limit=100`)).body.items).toHaveLength(25);
    expect((await call('GET', `${PATH}?actor=u-carol`)).body.items).toHaveLength(5);
    expect((await call('GET', `${PATH}?limit=100&target=u-dan&action=member.updated`)).body.items).toHaveLength(25);
    expect((await call('GET', `${PATH}?target=u-bob`)).body.items).toHaveLength(0);
    expect((await call('GET', `${PATH}?action=team.deleted`)).body.items).toHaveLength(0);
    const window = await call('GET', `${PATH}?limit=100&from=2026-03-01T10:00:05.000Z&to=2026-03-01T10:00:09Z`);
    expect(window.body.items.map((e: Json) => e.occurredAt)).toEqual(
      ['09', '08', '07', '06', '05'].map((s) => `2026-03-01T10:00:${s}.000Z`),
    );
  });

  it('refuses bad parameters (400), non-admins (403) and unknown organizations (404) in the spec error shape', async () => {
    const { call } = await sandbox({ readToken: 'read-token-0123456789' });
    for (const q of [
      'limit=0',
      'limit=101',
      'limit=ten',
      'from=yesterday',
      'to=2026-13-45T00:00:00Z',
      'page=garbage',
    ]) {
      const res = await call('GET', `${PATH}?${q}`);
      expect(res.status, q).toBe(400);
      expectValid(responseValidator('GET', SPEC, 400), res.body);
    }
    const forbidden = await call('GET', PATH, undefined, { token: 'read-token-0123456789' });
    expect(forbidden.status).toBe(403);
    expectValid(responseValidator('GET', SPEC, 403), forbidden.body);
    const missing = await call('GET', '/orgs/org-nope/audit-events');
    expect(missing.status).toBe(404);
    expectValid(responseValidator('GET', SPEC, 404), missing.body);
  });

  it('refuses an actor token that repeats another token', async () => {
    await expect(sandbox({ actorTokens: [{ token: 'sandbox-token', userId: 'u-carol' }] })).rejects.toThrow(
      /actorTokens/,
    );
  });
});
