/**
 * The informer (src/daemon/informer): a full read first, then one request per quiet run (the poll); a change made
 * behind docops's back re-reads only what it names; a gap (expired, out of order, unknown action) reads everything
 * again; an organization without audit events falls back to full reads; docops's own writes are read again after
 * the apply and their events skipped. Its live state equals a fresh read after every step.
 */
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import { diffAll, fetchLive } from '../../../src/engine/reconcile.js';
import type { DesiredState, LiveState } from '../../../src/model/state.js';
import { Informer, type OrgRead } from '../../../src/daemon/informer/informer.js';
import { KINDS } from '../../../src/kinds/index.js';
import { orgs } from '@docops/sandbox';
import { fastClient, loadDesired, planAndApply } from '../../helpers/pipeline.js';
import { sandbox } from '../../sandbox/helpers.js';
import { CAROL } from '../../audit/fixtures.js';

const EXAMPLE = new URL('../../../config.example/manifests', import.meta.url).pathname;
const CONFIG = { overlapMs: 60_000, maxPages: 10, resyncMs: 0 };

async function setup() {
  const { sb, call } = await sandbox({ actorTokens: [CAROL] });
  const client = fastClient(sb);
  const desired = await loadDesired(EXAMPLE);
  await planAndApply(client, desired);
  const reads: OrgRead[] = [];
  const informer = new Informer({
    kinds: KINDS,
    client,
    config: CONFIG,
    selfId: async () => 'u-ada',
    onRead: (r) => reads.push(r),
  });
  const carol = (method: string, path: string, body?: unknown) => call(method, path, body, { token: CAROL.token });
  /** The informer's live state, the requests it cost, and a fresh full read to compare it with. */
  const step = async (d: DesiredState = desired) => {
    sb.resetStats();
    const got = await informer.read(d, {});
    const requests = sb.stats().total;
    const fresh = await fetchLive(client, KINDS, d);
    return { got, requests, fresh };
  };
  return { sb, client, desired, informer, reads, carol, step };
}

const plain = (live: LiveState): unknown => Object.fromEntries([...live].sort(([a], [b]) => (a < b ? -1 : 1)));

describe('informer', () => {
  it('reads everything once, then one request per quiet run; a change behind its back costs only what it names', async () => {
    const s = await setup();
    const first = await s.step();
    expect(first.got.orgs).toEqual([{ org: 'org-demo', read: 'full', why: 'start' }]);
    expect(plain(first.got.live)).toEqual(plain(first.fresh));

    const quiet = await s.step();
    expect(quiet.requests).toBe(1);
    expect(quiet.got.orgs[0]).toMatchObject({ read: 'informer', events: 0 });

    expect((await s.carol('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' })).status).toBe(200);
    expect((await s.carol('PATCH', '/orgs/org-demo/teams/team-support', { title: 'Helpdesk' })).status).toBe(200);
    const drift = await s.step();
    expect(drift.got.orgs[0]).toMatchObject({ read: 'informer', events: 2 });
    expect(plain(drift.got.live)).toEqual(plain(drift.fresh));
    // The poll, bob alone, the team alone (nothing else here names it).
    expect(drift.requests).toBe(3);
    expect(
      diffAll(KINDS, s.desired, drift.got.live)
        .steps.map((x) => `${x.kind} ${x.action}`)
        .sort(),
    ).toEqual(['Members update', 'Team update']);
  });

  it('reads its own writes again after the apply and skips their events', async () => {
    const s = await setup();
    await s.step();
    await s.carol('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' });
    const drift = await s.step();
    const plan = diffAll(KINDS, s.desired, drift.got.live);
    const report = await applyPlan(s.client, plan);
    expect(report.applied).toHaveLength(1);
    s.sb.resetStats();
    await s.informer.wrote(plan, report, s.desired, {});
    expect(s.sb.stats().total).toBe(1); // bob, read again
    const after = await s.step();
    expect(after.requests).toBe(1); // the poll: its event is docops's own
    expect(after.got.orgs[0]).toMatchObject({ events: 0, skipped: 1 });
    expect(plain(after.got.live)).toEqual(plain(after.fresh));
    expect(diffAll(KINDS, s.desired, after.got.live).steps).toEqual([]);
  });

  it('resyncs in the background and keeps following meanwhile; what changed during it is read again on the new reads', async () => {
    const { sb, call } = await sandbox({ actorTokens: [CAROL] });
    const client = fastClient(sb);
    const desired = await loadDesired(EXAMPLE);
    await planAndApply(client, desired);
    let now = 1_000_000;
    const resynced: OrgRead[] = [];
    const informer = new Informer({
      kinds: KINDS,
      client,
      background: client.background!(),
      config: { ...CONFIG, resyncMs: 60_000 },
      now: () => now,
      selfId: async () => 'u-ada',
      onRead: (r) => r.why === 'resync' && resynced.push(r),
    });
    const carol = (method: string, path: string, body?: unknown) => call(method, path, body, { token: CAROL.token });
    await informer.read(desired, {});
    now += 61_000;
    await carol('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' });
    await informer.read(desired, {}); // follows bob, and starts the resync
    expect(informer.status()[0]).toMatchObject({ mode: 'informer', resyncing: true });
    await carol('PATCH', '/orgs/org-demo/teams/team-support', { title: 'Helpdesk' }); // during the resync
    await informer.read(desired, {});
    await expect.poll(() => resynced.length).toBe(1);
    await carol('PATCH', '/orgs/org-demo/members/u-dan', { role: 'admin' });
    const adopted = await informer.read(desired, {});
    expect(informer.status()[0]).toMatchObject({ resyncing: false, lastFullReadAt: new Date(1_061_000).toISOString() });
    expect(plain(adopted.live)).toEqual(plain(await fetchLive(client, KINDS, desired)));
  });

  it('reads everything again after a gap, and falls back to full reads where the audit log is unavailable', async () => {
    const s = await setup();
    await s.step();
    await s.carol('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' });
    s.sb.audit.keepNewest(0);
    await s.carol('PATCH', '/orgs/org-demo/members/u-dan', { role: 'admin' });
    const expired = await s.step();
    expect(expired.got.orgs[0]).toMatchObject({ read: 'full', why: 'expired' });
    expect(plain(expired.got.live)).toEqual(plain(expired.fresh));

    orgs(s.sb.store).put({ ...orgs(s.sb.store).get('org-demo')!, plan: 'pro_2024' });
    await s.carol('PATCH', '/orgs/org-demo/members/u-erin', { role: 'admin' });
    const fallback = await s.step();
    expect(fallback.got.orgs[0]).toMatchObject({ read: 'full', why: 'unavailable' });
    expect(plain(fallback.got.live)).toEqual(plain(fallback.fresh));
    expect(s.informer.status()[0]).toMatchObject({
      org: 'org-demo',
      mode: 'fallback',
      why: 'unavailable',
      status: 403,
    });
    const again = await s.step();
    expect(again.got.orgs[0]).toMatchObject({ read: 'full', why: 'unavailable' });
  });
});
