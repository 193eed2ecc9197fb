/**
 * The sandbox's `race=P` habit (packages/sandbox/src/race.ts): docops's first read of an object since its last write
 * of it schedules, with probability P, another actor's change of that object (a field docops seldom writes, or an
 * item of its list), which lands just before docops's next request touching the object: a re-read sees it, a write
 * built from the earlier read does not — and the log says so.
 */
import { describe, expect, it } from 'vitest';
import { FaultInjector, parseFaults } from '../../packages/sandbox/src/faults.js';
import { sandbox, type Json } from './helpers.js';

const SPACE = '/spaces/sp-getting-started';

describe('race=P', () => {
  it('a read schedules; the change lands before the next request on the object, by another user, audited', async () => {
    const { sb, call } = await sandbox({ faults: 'race=1,seed=3' });
    const spaces = await call('GET', '/orgs/org-demo/spaces');
    const was = spaces.body.items.find((s: Json) => s.id === 'sp-getting-started');
    // Scheduled, not landed: a read of something else changes nothing.
    await call('GET', '/orgs/org-demo/teams');
    expect(sb.races().races).toEqual([]);
    expect((await call('PATCH', SPACE, { emoji: '🎉' })).status).toBe(200);
    const [race, ...more] = sb.races().races.filter((r) => r.object === `/v1${SPACE}`);
    expect(more).toEqual([]);
    expect(race).toMatchObject({
      n: expect.any(Number),
      target: 'space',
      actor: 'u-grace',
      field: 'language',
      readBy: 'GET /v1/orgs/org-demo/spaces',
      landedBefore: `PATCH /v1${SPACE}`,
      request: { method: 'PATCH', path: `/v1${SPACE}` },
      status: 200,
    });
    expect(race!.value).not.toEqual(was.language);
    const now = (await call('GET', SPACE)).body;
    expect(now).toMatchObject({ emoji: '🎉', language: race!.value });
    // The audit log names the other actor, before docops's own change.
    const events = sb.audit.of('org-demo').filter((e) => e.target.id === 'sp-getting-started');
    expect(events.map((e) => e.actor.id)).toEqual(['u-ada', 'u-grace']);
    expect(sb.races().undone).toEqual([]);
  });

  it('a write built from the earlier read is logged as undoing the change; a re-read sees it', async () => {
    const { sb, call } = await sandbox({ faults: 'race=1,seed=3' });
    const read = (await call('GET', '/orgs/org-demo/spaces')).body.items.find(
      (s: Json) => s.id === 'sp-getting-started',
    );
    const again = (await call('GET', SPACE)).body; // the change landed just before this re-read
    const [race] = sb.races().races;
    expect(race!.landedBefore).toBe(`GET /v1${SPACE}`);
    expect(again.language).toBe(race!.value);
    // A write that sends back what the first read said puts the old value back: that is undoing it.
    await call('PATCH', SPACE, { language: read.language ?? 'en', title: read.title });
    expect(sb.races().undone).toEqual([
      {
        race: race!.n,
        method: 'PATCH',
        path: `/v1${SPACE}`,
        field: 'language',
        value: race!.value,
        now: read.language ?? 'en',
      },
    ]);
    // The log over HTTP is the same.
    const res = await fetch(`${sb.origin}/_sandbox/races`);
    expect(await res.json()).toEqual(sb.races());
  });

  it('the first read since docops last wrote the object schedules; a GET of that one object after a write does not', async () => {
    const { sb, call } = await sandbox({ faults: 'race=1,seed=3' });
    const objects = (): string[] =>
      sb
        .races()
        .races.map((r) => r.object)
        .filter((o) => o === `/v1${SPACE}`);
    await call('GET', '/orgs/org-demo/spaces');
    await call('GET', '/orgs/org-demo/spaces'); // the list that held it: lands before it, schedules nothing more
    await call('GET', '/orgs/org-demo/spaces');
    expect(objects()).toEqual([`/v1${SPACE}`]);
    await call('PATCH', SPACE, { emoji: '🎉' });
    // A GET of the object right after docops wrote it is a read-modify-write's own read: no race in that window.
    await call('GET', SPACE);
    await call('PATCH', SPACE, { emoji: '🎈' });
    expect(objects()).toHaveLength(1);
    // A list read since the write (a new plan's) schedules again.
    await call('GET', '/orgs/org-demo/spaces');
    await call('PATCH', SPACE, { emoji: '🎊' });
    expect(objects()).toHaveLength(2);
    expect(sb.races().races.every((r) => r.status < 300)).toBe(true);
  });

  it('a list read in parts (team and user grants) is one read: the change lands after both parts', async () => {
    const { sb, call } = await sandbox({ faults: 'race=1,seed=3' });
    await call('GET', `${SPACE}/permissions/teams`);
    await call('GET', `${SPACE}/permissions/users`);
    expect(sb.races().races.filter((r) => r.object.endsWith('/permissions'))).toEqual([]);
    await call('GET', `${SPACE}/permissions/users`); // a re-read: it lands first
    const [race] = sb.races().races.filter((r) => r.object === `/v1${SPACE}/permissions`);
    expect(race).toMatchObject({ target: 'grants of a space or collection', key: expect.any(String), value: 'read' });
    const users = (await call('GET', `${SPACE}/permissions/users`)).body.items;
    expect(users.map((g: Json) => g.user.id)).toContain(race!.key);
  });

  it('is deterministic under the seed, and P=0 schedules nothing', async () => {
    const run = async (faults: string): Promise<unknown> => {
      const { sb, call } = await sandbox({ faults });
      for (const path of ['/orgs/org-demo/spaces', '/orgs/org-demo/collections', '/orgs/org-demo'])
        await call('GET', path);
      await call('GET', '/orgs/org-demo/spaces');
      await call('GET', '/orgs/org-demo/collections');
      await call('GET', '/orgs/org-demo/members');
      return sb.races().races.map(({ at: _at, ...r }) => r);
    };
    const once = await run('race=0.5,seed=9');
    expect(once).not.toEqual([]);
    expect(await run('race=0.5,seed=9')).toEqual(once);
    expect(await run('race=0,seed=9')).toEqual([]);
  });

  it("leaves the other faults' per-request outcomes unchanged", () => {
    const outcomes = (spec: string): string[] => {
      const f = new FaultInjector(parseFaults(spec));
      return Array.from({ length: 200 }, () => JSON.stringify(f.decide()));
    };
    expect(outcomes('429=0.2,5xx=0.1,reset=0.05,race=0.3,seed=4')).toEqual(
      outcomes('429=0.2,5xx=0.1,reset=0.05,seed=4'),
    );
  });

  it("another user's requests schedule nothing (only docops's token races)", async () => {
    const { sb, call } = await sandbox({ faults: 'race=1', actorTokens: [{ token: 'grace', userId: 'u-grace' }] });
    await call('GET', '/orgs/org-demo/spaces', undefined, { token: 'grace' });
    await call('PATCH', SPACE, { emoji: '🎉' }, { token: 'grace' });
    expect(sb.races().races).toEqual([]);
  });
});
