/**
 * The daemon with the informer (docs/daemon.md, "The informer"): its first run reads everything; a quiet poll
 * costs one request and starts no run; a change behind its back starts a run that reads only what it names and
 * reverts it; POST /reconcile?full=1 reads everything on demand; where the audit log is unavailable it falls back
 * to full reads and says so on the status page, /api/status and the metrics.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pollOnce } from './poll.js';
import { orgs } from '@docops/sandbox';
import { CAROL, membersYaml } from '../../audit/fixtures.js';
import { SUPPORT, startTestDaemon, type TestDaemon } from '../helpers.js';

const POLL_MS = 5_000;
const SECRET = 'informer-test-secret-0123456789';
let t: TestDaemon | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

async function start(): Promise<TestDaemon> {
  t = await startTestDaemon({
    files: { 'team.yaml': SUPPORT, 'members.yaml': membersYaml() },
    config: { informer: { enabled: true, pollMs: POLL_MS, resyncMs: 0, overlapMs: 60_000 }, reconcileSecret: SECRET },
    sandbox: { actorTokens: [CAROL] },
  });
  return t;
}

const poll = (d: TestDaemon): Promise<void> => pollOnce(d, POLL_MS);

const carol = (d: TestDaemon, method: string, path: string, body?: unknown) =>
  fetch(`${d.sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${CAROL.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('daemon with the informer', () => {
  it('reads everything once; a quiet poll is one request and no run; drift is followed, reverted and read again', async () => {
    const d = await start();
    expect(d.daemon.runs[0]).toMatchObject({
      result: 'success',
      reads: [{ org: 'org-demo', read: 'full', why: 'start' }],
    });

    d.sandbox.resetStats();
    await poll(d);
    expect(d.sandbox.stats().total).toBe(1);
    expect(d.daemon.runs).toHaveLength(1);

    expect((await carol(d, 'PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' })).status).toBe(200);
    d.sandbox.resetStats();
    const next = d.nextRun();
    await poll(d);
    const run = await next;
    expect(run).toMatchObject({
      reasons: ['poll'],
      result: 'success',
      applied: 1,
      reads: [{ org: 'org-demo', read: 'informer', events: 1 }],
    });
    // The poll, the token's user (asked once per daemon: whose events are docops's own; the safety gate needs it
    // too), bob read again, the audit events for who did it, the revert, bob read after it.
    expect(d.sandbox.stats().requests.map((r) => `${r.method} ${r.route}`)).toEqual([
      'GET /v1/orgs/:organizationId/audit-events',
      'GET /v1/user',
      'GET /v1/orgs/:organizationId/members/:userId',
      'GET /v1/orgs/:organizationId/audit-events',
      'PATCH /v1/orgs/:organizationId/members/:userId',
      'GET /v1/orgs/:organizationId/members/:userId',
    ]);
    d.sandbox.resetStats();
    await poll(d); // its own write's event: skipped, no run
    expect(d.sandbox.stats().total).toBe(1);
    expect(d.daemon.runs).toHaveLength(2);

    const status = JSON.parse((await d.get('/api/status')).text);
    expect(status.informer).toMatchObject({ pollSeconds: 5, orgs: [{ org: 'org-demo', mode: 'informer', events: 1 }] });
    const metrics = (await d.get('/metrics')).text;
    expect(metrics).toMatch(/docops_informer_reads_total\{read="full",reason="start"\} 1/);
    expect(metrics).toMatch(/docops_informer_reads_total\{read="informer",reason=""\} 1/);
    expect(metrics).toMatch(/docops_informer_events_total 1/);
    expect(metrics).toMatch(/docops_informer_organizations\{mode="informer"\} 1/);
  });

  it('reads everything on demand (POST /reconcile?full=1) and falls back to full reads without audit events', async () => {
    const d = await start();
    const res = await fetch(`${d.daemon.url}/reconcile?wait=1&full=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { reads: unknown }).reads).toEqual([{ read: 'full', why: 'demand' }]);

    orgs(d.sandbox.store).put({ ...orgs(d.sandbox.store).get('org-demo')!, plan: 'pro_2024' });
    const next = d.nextRun();
    await poll(d);
    expect(await next).toMatchObject({
      reasons: ['poll'],
      result: 'success',
      reads: [{ org: 'org-demo', read: 'full', why: 'unavailable' }],
    });
    const status = JSON.parse((await d.get('/api/status')).text);
    expect(status.informer.orgs).toEqual([
      expect.objectContaining({ org: 'org-demo', mode: 'fallback', why: 'unavailable', status: 403 }),
    ]);
    expect((await d.get('/')).text).toContain('fallback: full reads');
    expect((await d.get('/metrics')).text).toMatch(/docops_informer_organizations\{mode="fallback"\} 1/);
    // In fallback nothing is polled between runs (the schedule reconciles it, as without the informer).
    d.sandbox.resetStats();
    await poll(d);
    expect(d.sandbox.stats().total).toBe(0);
  });
});
