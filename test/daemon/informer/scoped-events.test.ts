/**
 * Issue 33 §1: an audit event is handled only by a run whose reads cover its object. A scoped run (a manifest
 * edit) that reads the audit log takes every new event with it; an event about an object outside its scope (a
 * member's role changed in the app while a translation is renamed in git) stays pending, and the next poll starts a run
 * that reverts it — within one poll, as docs/daemon.md promises, not at the next full resync hours later.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pollOnce } from './poll.js';
import { CAROL, membersYaml } from '../../audit/fixtures.js';
import { ORG, startTestDaemon, teamYaml, type TestDaemon } from '../helpers.js';

const POLL_MS = 5_000;
let t: TestDaemon | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

const SUPPORT_MEMBERS = ['frank@acme.test', 'ivan@acme.test'];
const translation = (title: string): string =>
  `apiVersion: docops/v1\nkind: Translation\nmetadata:\n  organization: ${ORG}\nspec:\n  title: ${title}\n  id: tr-fr\n`;

async function roleOf(d: TestDaemon, userId: string): Promise<string | null> {
  const res = await fetch(`${d.sandbox.url}/orgs/${ORG}/members/${userId}`, {
    headers: { authorization: `Bearer ${d.sandbox.token}` },
  });
  return ((await res.json()) as { role: string | null }).role;
}

const asCarol = (d: TestDaemon, method: string, path: string, body: unknown): Promise<Response> =>
  fetch(`${d.sandbox.url}/orgs/${ORG}${path}`, {
    method,
    headers: { authorization: `Bearer ${CAROL.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const poll = (d: TestDaemon): Promise<void> => pollOnce(d, POLL_MS);

describe('an event outside a scoped run', () => {
  it('stays pending: the next poll reverts the member the scoped translation run did not plan', async () => {
    const d = (t = await startTestDaemon({
      files: {
        'team.yaml': teamYaml('Support', SUPPORT_MEMBERS, 'team-support'),
        'members.yaml': membersYaml(),
        'translation.yaml': translation('French docs'),
      },
      config: { informer: { enabled: true, pollMs: POLL_MS, resyncMs: 0, overlapMs: 60_000 }, debounceMs: 50 },
      sandbox: { actorTokens: [CAROL] },
    }));
    expect(d.daemon.runs[0]).toMatchObject({ result: 'success', reads: [{ read: 'full', why: 'start' }] });
    const before = await roleOf(d, 'u-bob');

    // Someone changes bob's role in the app; a moment later a translation's rename lands in git.
    expect((await asCarol(d, 'PATCH', '/members/u-bob', { role: 'admin' })).status).toBe(200);
    const scoped = d.nextRun((r) => r.reasons.includes('watch'));
    d.write('translation.yaml', translation('French documentation'));
    const run = await scoped;
    expect(run).toMatchObject({ result: 'success', scope: 'scoped', reads: [{ read: 'informer', events: 1 }] });
    expect(run.scopes?.reconciled).toEqual(['Translation/org-demo']);
    expect(await roleOf(d, 'u-bob')).toBe('admin'); // not this run's to plan

    // The next poll finds no new event, but bob's change is still pending: its run reverts it.
    const runs = d.daemon.runs.length;
    await poll(d);
    await expect.poll(() => d.daemon.runs.length, { timeout: 5_000 }).toBe(runs + 1);
    expect(d.daemon.runs.at(-1)).toMatchObject({ reasons: ['poll'], result: 'success', applied: 1 });
    expect(await roleOf(d, 'u-bob')).toBe(before);
  });

  it('a scoped run that had to read the organization whole (the log expired) leaves what it read pending too', async () => {
    const d = (t = await startTestDaemon({
      files: { 'members.yaml': membersYaml(), 'translation.yaml': translation('French docs') },
      config: { informer: { enabled: true, pollMs: POLL_MS, resyncMs: 0, overlapMs: 60_000 }, debounceMs: 50 },
      sandbox: { actorTokens: [CAROL] },
    }));
    const before = await roleOf(d, 'u-bob');
    // A first change, followed: the informer's cursor now stands on an event of the log.
    expect((await asCarol(d, 'PATCH', '/members/u-dan', { role: 'admin' })).status).toBe(200);
    let runs = d.daemon.runs.length;
    await poll(d);
    await expect.poll(() => d.daemon.runs.length, { timeout: 5_000 }).toBe(runs + 1);
    expect((await asCarol(d, 'PATCH', '/members/u-bob', { role: 'admin' })).status).toBe(200);
    d.sandbox.audit.keepNewest(0); // the retention dropped everything since the cursor: a gap
    const scoped = d.nextRun((r) => r.reasons.includes('watch'));
    d.write('translation.yaml', translation('French documentation'));
    expect(await scoped).toMatchObject({ scope: 'scoped', reads: [{ read: 'full', why: 'expired' }] });
    expect(await roleOf(d, 'u-bob')).toBe('admin');

    runs = d.daemon.runs.length;
    await poll(d);
    await expect.poll(() => d.daemon.runs.length, { timeout: 5_000 }).toBe(runs + 1);
    expect(d.daemon.runs.at(-1)).toMatchObject({ reasons: ['poll'], result: 'success', applied: 1 });
    expect(await roleOf(d, 'u-bob')).toBe(before);
  });
});
