/**
 * Issue 33, `stale`: the daemon on an API whose lists show a change 10 s after it is made (a GET of one object is
 * current) does not flap. A manifest edit creates a team, renames one and changes a member's role; the runs that
 * follow while the lists still show the organization as it was create nothing again, delete nothing and revert no
 * write of docops's own — with and without the informer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { teams } from '@docops/sandbox';
import { CAROL, membersYaml } from '../audit/fixtures.js';
import { startTestDaemon, teamYaml, writes, type TestDaemon } from './helpers.js';

let t: TestDaemon | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const POLL_MS = 5_000;
const FILES = {
  'support.yaml': teamYaml('Support', ['frank@acme.test', 'ivan@acme.test'], 'team-support'),
  'members.yaml': membersYaml(),
};

async function start(informer: boolean): Promise<{ d: TestDaemon; clock: { advance(ms: number): void } }> {
  let now = Date.now();
  const d = (t = await startTestDaemon({
    files: FILES,
    config: {
      schedule: '* * * * *',
      ...(informer ? { informer: { enabled: true, pollMs: POLL_MS, resyncMs: 0, overlapMs: 60_000 } } : {}),
    },
    sandbox: { now: () => new Date(now), faults: 'stale=10s', actorTokens: [CAROL] },
  }));
  expect(d.daemon.runs[0]).toMatchObject({ result: 'success' });
  return { d, clock: { advance: (ms) => void (now += ms) } };
}

const duplicateTeams = (d: TestDaemon): string[] => {
  const all = titles(d);
  return all.filter((x, i) => all.indexOf(x) !== i);
};

const titles = (d: TestDaemon): string[] =>
  teams(d.sandbox.store)
    .where((x) => x.orgId === 'org-demo')
    .map((x) => x.title)
    .sort();

describe.each([false, true])('the daemon on lists that answer 10 s late (informer: %s)', (informer) => {
  it('applies an edit once; while the lists lag, no run creates, deletes or reverts anything', async () => {
    const { d, clock } = await start(informer);
    const teamsBefore = titles(d);
    const edited = d.nextRun((r) => r.reasons.includes('watch'));
    d.write('support.yaml', teamYaml('Support desk', ['frank@acme.test', 'ivan@acme.test'], 'team-support'));
    d.write('night.yaml', teamYaml('Night shift', ['bob@acme.test']));
    d.write(
      'members.yaml',
      membersYaml().replace('{ email: bob@acme.test, role: edit }', '{ email: bob@acme.test, role: review }'),
    );
    const run = await edited;
    expect(run, JSON.stringify(run)).toMatchObject({ result: 'success' });
    expect(run.applied).toBeGreaterThanOrEqual(3);
    const expected = [...teamsBefore.filter((x) => x !== 'Support'), 'Night shift', 'Support desk'].sort();
    expect(titles(d)).toEqual(expected);

    // The lists still show the organization as it was. The runs that follow create nothing again, delete nothing,
    // revert no write of docops's own; the one thing they may send again is what the API answers without the
    // object — the new team's memberships (an idempotent add, docs/reliability.md).
    d.sandbox.resetStats();
    for (let i = 0; i < 3; i++) {
      clock.advance(2_000);
      const next = d.nextRun();
      d.scheduler.tick();
      expect((await next).result).toBe('success');
    }
    const sent = d.sandbox.stats().requests.filter((r) => r.method !== 'GET');
    expect(sent.filter((r) => r.method !== 'PUT' || !/\/teams\/[^/]+\/members$/.test(r.path))).toEqual([]);
    expect(sent.length).toBeLessThanOrEqual(3); // at most the one membership add, once a run
    expect(titles(d)).toEqual(expected);
    expect(duplicateTeams(d)).toEqual([]);
    clock.advance(10_000); // the lists caught up
    d.sandbox.resetStats();
    const last = d.nextRun();
    d.scheduler.tick();
    expect(await last).toMatchObject({ result: 'success', planned: 0 });
    expect(writes(d.sandbox)).toBe(0);
  });
});
