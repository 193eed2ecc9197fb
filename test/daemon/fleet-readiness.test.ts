/**
 * A fleet's /readyz (docs/daemon.md, "Many organizations"): 200 only while every organization of this replica is
 * ready as a single daemon would be — written ones with their manifests loaded and the API answering, ones whose
 * lease another replica holds while that lease can be read (a dynamic shard's replica stands by for the shards it
 * does not hold) — with each organization's state and reason in the body, and `?org=ID` for one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fleetReadiness } from '../../src/daemon/fleet/http.js';
import type { FleetOrg, FleetView } from '../../src/daemon/fleet/types.js';
import { standbyReadiness, leaderReadiness } from '../../src/daemon/readiness.js';
import type { Readiness } from '../../src/daemon/server.js';
import { SUPPORT, startTestDaemon, type TestDaemon } from './helpers.js';

const AT = '2030-01-02T03:04:05.000Z';
const leader = (manifestsOk: boolean): Readiness =>
  leaderReadiness({
    stopping: false,
    lastRun: null,
    manifests: { ok: manifestsOk, at: AT, ...(manifestsOk ? {} : { problems: 1, positions: ['team.yaml:4:9'] }) },
    api: { ok: true, at: AT },
    lastGood: undefined,
    retryAttempt: 0,
    ha: undefined,
  });
const standby = (leaseReachable: boolean): Readiness =>
  standbyReadiness({
    stopping: false,
    lastRun: null,
    ha: { role: 'follower', leaseReachable, ...(leaseReachable ? {} : { lastError: 'HTTP 503' }) },
  });

/** A fleet view over organizations whose daemons answer `readiness` as given. */
function fleetOf(orgs: Record<string, { readiness: Readiness; shard?: number }>, stopping = false): FleetView {
  const map = new Map<string, FleetOrg>();
  Object.entries(orgs).forEach(([id, o], index) =>
    map.set(id, {
      config: { id, manifestsDir: `/m/${id}` },
      index,
      ...(o.shard !== undefined ? { shard: o.shard } : {}),
      daemon: { readiness: () => o.readiness } as unknown as FleetOrg['daemon'],
    }),
  );
  return { orgs: map, isStopping: stopping, leaseView: undefined } as unknown as FleetView;
}

describe('a fleet is ready while every organization is', () => {
  it('organizations standing by (another replica holds their shard) count as ready while their lease can be read', () => {
    const r = fleetReadiness(
      fleetOf({
        'org-a': { readiness: leader(true), shard: 0 },
        'org-b': { readiness: standby(true), shard: 1 },
      }),
    )!;
    expect(r.ready).toBe(true);
    expect(r.body).toMatchObject({
      ready: true,
      notReady: [],
      organizations: { 'org-a': { ready: true, shard: 0 }, 'org-b': { ready: true, standby: true, shard: 1 } },
    });
    expect(r.body.reason).toBeUndefined();
  });

  it('one organization not ready (broken manifests, or its lease unreadable) makes the whole not ready, named with why', () => {
    const r = fleetReadiness(
      fleetOf({
        'org-a': { readiness: leader(true) },
        'org-b': { readiness: leader(false) },
        'org-c': { readiness: standby(false), shard: 2 },
      }),
    )!;
    expect(r.ready).toBe(false);
    expect(r.body).toMatchObject({
      ready: false,
      reason: "not ready: org-b, org-c (each organization's reason is under organizations)",
      notReady: ['org-b', 'org-c'],
      organizations: {
        'org-a': { ready: true },
        'org-b': { ready: false, reason: expect.stringContaining('the last manifest load failed: 1 problem(s)') },
        'org-c': { ready: false, reason: 'the lease cannot be read (HTTP 503)', shard: 2 },
      },
    });
    // One organization's own answer: its readiness alone.
    expect(
      fleetReadiness(fleetOf({ 'org-a': { readiness: leader(true) }, 'org-b': { readiness: leader(false) } }), 'org-a'),
    ).toMatchObject({
      ready: true,
      body: { org: 'org-a', ready: true },
    });
    expect(fleetReadiness(fleetOf({ 'org-a': { readiness: leader(true) } }), 'org-x')).toBeUndefined();
  });

  it('stopping is not ready; a replica with no organization in its share (a static shard left empty) is ready', () => {
    expect(fleetReadiness(fleetOf({ 'org-a': { readiness: leader(true) } }, true))).toMatchObject({
      ready: false,
      body: { reason: 'stopping' },
    });
    expect(fleetReadiness(fleetOf({}))).toMatchObject({ ready: true, body: { ready: true, organizations: {} } });
  });
});

let current: TestDaemon | undefined;
afterEach(async () => {
  await current?.stop();
  current = undefined;
});

describe('a daemon without organizations:', () => {
  it('answers /readyz for itself and 404 for ?org=', async () => {
    const t = (current = await startTestDaemon({ files: { 'support.yaml': SUPPORT } }));
    expect((await t.get('/readyz')).status).toBe(200);
    const one = await t.get('/readyz?org=org-demo');
    expect(one.status).toBe(404);
    expect(JSON.parse(one.text)).toMatchObject({ error: expect.stringContaining('no such organization') });
  });
});
