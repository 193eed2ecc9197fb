/**
 * One daemon, many organizations (issue 26): each organization has its own token, run queue, pacer and backoff,
 * so one's invalid manifests, rate limit or failure never holds another's run. Every organization runs against
 * a sandbox of its own behind one API address that routes by token (as the real API serves every organization).
 * Isolation is shown by order of events, never by time: an organization's run ends while another's is still
 * stuck behind its rate limit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { Fleet } from '../../src/daemon/fleet/fleet.js';
import type { RunRecord } from '../../src/daemon/run.js';
import { createLogger } from '../../src/log.js';
import { fleetDir, fleetTeamYaml, orgTeams, startOrgs, startTokenRouter, type TestOrg } from './fleet-helpers.js';
import { FakeScheduler } from './fakes.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function startFleet(orgs: TestOrg[], extra: string[] = [], team?: (o: TestOrg) => string) {
  const router = await startTokenRouter(orgs);
  const { root, config } = fleetDir(
    orgs,
    [`apiUrl: ${router.url}`, 'shutdownGraceMs: 2000', 'debounceMs: 100', ...extra],
    team,
  );
  const env = Object.fromEntries(orgs.map((o) => [o.env, o.token]));
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: 'debug',
    format: 'json',
    stream: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const fleet = new Fleet(await loadConfig(config, { env }), {
    env,
    logger,
    defaultMetrics: false,
    scheduler: new FakeScheduler(),
  });
  const runs: { org: string; record: RunRecord; busy: Record<string, boolean> }[] = [];
  // What every organization was doing when each run ended: the order of events, not their times.
  fleet.on('run', (e: { org: string; record: RunRecord }) =>
    runs.push({ ...e, busy: Object.fromEntries([...fleet.orgs].map(([id, o]) => [id, o.daemon.busy.running])) }),
  );
  cleanup.push(async () => {
    await fleet.stop();
    await router.close();
    for (const o of orgs) await o.sandbox.close();
  });
  await fleet.start();
  return { fleet, runs, logs, root, router };
}

const until = async (cond: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 2000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never happened: ${what}`);
};

describe('one daemon, many organizations', () => {
  it('reconciles each organization with its own token; one stuck at its rate limit and one with invalid manifests hold no other', async () => {
    // org-slow's token may send two requests an hour: its run waits at its pacer for the rest.
    const orgs = await startOrgs(['org-ok', 'org-slow', 'org-bad', 'org-ok2'], (id) =>
      id === 'org-slow' ? { rateLimit: '2/h' } : {},
    );
    const { fleet, runs, router } = await startFleet(orgs, [], (o) =>
      o.id === 'org-bad'
        ? 'apiVersion: docops/v1\nkind: Team\nmetadata: { organization: org-bad }\nspec: { titel: x }\n'
        : fleetTeamYaml(o.id, `Fleet ${o.id}`),
    );
    await until(() => ['org-ok', 'org-ok2', 'org-bad'].every((id) => runs.some((r) => r.org === id)), 'the three runs');

    const of = (id: string) => runs.find((r) => r.org === id)!;
    expect(of('org-ok').record.result).toBe('success');
    expect(of('org-ok2').record.result).toBe('success');
    expect(of('org-bad').record.result).toBe('invalid_manifests');
    // They ended while org-slow's run was still going (waiting for its budget): nobody waited for it.
    for (const id of ['org-ok', 'org-ok2', 'org-bad']) expect(of(id).busy['org-slow'], id).toBe(true);
    expect(runs.some((r) => r.org === 'org-slow')).toBe(false);
    expect(await orgTeams(orgs[0]!)).toContain('Fleet org-ok');
    expect(await orgTeams(orgs[3]!)).toContain('Fleet org-ok2');
    // Each organization's requests carried its own token (the router refused none).
    expect(router.unknownTokens()).toBe(0);
    expect(orgs[0]!.sandbox.stats().total).toBeGreaterThan(0);
    expect(fleet.orgs.get('org-bad')!.daemon.busy.running).toBe(false);
  }, 60_000);

  it('metrics carry the org label; the status page groups by organization; POST /reconcile?org= runs one', async () => {
    const orgs = await startOrgs(['org-a', 'org-b']);
    const { fleet, runs } = await startFleet(orgs, ['reconcileSecret: "0123456789abcdef-secret"']);
    await until(() => runs.length >= 2, 'both first runs');

    const metrics = await (await fetch(`${fleet.url}/metrics`)).text();
    expect(metrics).toMatch(/^docops_reconcile_runs_total\{result="success",org="org-a"\} 1$/m);
    expect(metrics).toMatch(/^docops_reconcile_runs_total\{result="success",org="org-b"\} 1$/m);
    expect(metrics).toMatch(/^docops_leader\{org="org-a"\} 1$/m);
    expect(metrics).toMatch(/^docops_changes_applied_total\{kind="Team",action="create",org="org-b"\} 1$/m);

    const status = (await (await fetch(`${fleet.url}/api/status`)).json()) as {
      organizations: { org: string; runs: unknown[]; daemon: { role: string } }[];
    };
    expect(status.organizations.map((o) => o.org)).toEqual(['org-a', 'org-b']);
    expect(status.organizations[0]!.runs).toHaveLength(1);
    const html = await (await fetch(`${fleet.url}/`)).text();
    expect(html).toMatch(/data-org="org-a"[\s\S]*data-org="org-b"/);
    const page = await fetch(`${fleet.url}/orgs/org-b/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/api/orgs/org-b/runs/1');
    expect((await fetch(`${fleet.url}/api/orgs/org-b/runs/1`)).status).toBe(200);
    expect((await fetch(`${fleet.url}/orgs/org-nope/`)).status).toBe(404);

    const answer = await fetch(`${fleet.url}/reconcile?org=org-b&wait=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer 0123456789abcdef-secret' },
    });
    expect(answer.status).toBe(200);
    expect(runs.filter((r) => r.org === 'org-b').map((r) => r.record.reasons)).toEqual([['start'], ['http']]);
    expect(runs.filter((r) => r.org === 'org-a')).toHaveLength(1);
    const ready = (await (await fetch(`${fleet.url}/readyz`)).json()) as {
      ready: boolean;
      organizations: Record<string, { ready: boolean }>;
    };
    expect(ready).toMatchObject({ ready: true, organizations: { 'org-a': { ready: true }, 'org-b': { ready: true } } });
  }, 60_000);

  it('/readyz is 200 only while every organization is ready, says per organization what is and why, and answers for one with ?org=', async () => {
    const orgs = await startOrgs(['org-ok', 'org-bad']);
    const bad = 'apiVersion: docops/v1\nkind: Team\nmetadata: { organization: org-bad }\nspec: { titel: x }\n';
    const { runs, root, fleet } = await startFleet(orgs, [], (o) =>
      o.id === 'org-bad' ? bad : fleetTeamYaml(o.id, `Fleet ${o.id}`),
    );
    await until(() => runs.length >= 2, 'both first runs');
    const readyz = async (query = '') => {
      const res = await fetch(`${fleet.url}/readyz${query}`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };

    // One organization's broken manifests: this replica does not do all its work, so it is not ready.
    const whole = await readyz();
    expect(whole.status).toBe(503);
    expect(whole.body).toMatchObject({
      ready: false,
      reason: expect.stringContaining('org-bad'),
      notReady: ['org-bad'],
      organizations: {
        'org-ok': { ready: true },
        'org-bad': {
          ready: false,
          reason: expect.stringContaining('the last manifest load failed'),
          manifests: { ok: false, positions: ['team.yaml:4:7', 'team.yaml:4:9'] },
        },
      },
    });
    expect(whole.body.reason).not.toContain('org-ok');
    // One organization's own answer.
    expect(await readyz('?org=org-ok')).toMatchObject({ status: 200, body: { org: 'org-ok', ready: true } });
    expect(await readyz('?org=org-bad')).toMatchObject({ status: 503, body: { org: 'org-bad', ready: false } });
    expect((await readyz('?org=org-nope')).status).toBe(404);

    // Fixed: every organization is ready again.
    const fixed = new Promise<void>((resolve) =>
      fleet.on('run', (e: { org: string; record: RunRecord }) => {
        if (e.org === 'org-bad' && e.record.result === 'success') resolve();
      }),
    );
    writeFileSync(`${root}/orgs/org-bad/team.yaml`, fleetTeamYaml('org-bad', 'Fleet org-bad'));
    await fixed;
    expect(await readyz()).toMatchObject({
      status: 200,
      body: { ready: true, notReady: [], organizations: { 'org-ok': { ready: true }, 'org-bad': { ready: true } } },
    });
  }, 60_000);

  it("a document naming another organization fails that organization's load only, and is never sent with its token", async () => {
    const orgs = await startOrgs(['org-x', 'org-y']);
    const { runs } = await startFleet(orgs, [], (o) =>
      fleetTeamYaml(o.id === 'org-x' ? 'org-y' : o.id, `Fleet ${o.id}`),
    );
    await until(() => runs.length >= 2, 'both first runs');
    const x = runs.find((r) => r.org === 'org-x')!.record;
    expect(x.result).toBe('invalid_manifests');
    expect(x.issues?.[0]?.message).toMatch(
      /metadata\.organization: org-y is not the organization of this directory \(org-x/,
    );
    expect(runs.find((r) => r.org === 'org-y')!.record.result).toBe('success');
    expect(orgs[0]!.sandbox.stats().total).toBe(0); // org-x's sandbox was never asked anything
  }, 60_000);

  it('a static shard reconciles exactly the organizations whose id hashes to it', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `org-${i}`);
    const orgs = ids.map((id) => ({ id, token: 't', env: 'T', sandbox: undefined as never }));
    const { config } = fleetDir(orgs, ['shard: { index: 0, count: 3 }']);
    const shares: string[][] = [];
    for (const index of [0, 1, 2]) {
      writeFileSync(config, readFileSync(config, 'utf8').replace(/index: \d/, `index: ${index}`));
      shares.push(
        new Fleet(await loadConfig(config, { env: {} }), { defaultMetrics: false }).share().map((s) => s.org.id),
      );
    }
    expect(shares.flat().sort()).toEqual([...ids].sort()); // each organization in exactly one shard
    expect(shares.every((s) => s.length > 0)).toBe(true);
    // Stable: the same hash on every replica and release (moving an organization between shards is not free).
    expect(shares[0]).toEqual(['org-1', 'org-3', 'org-10']); // SHA-256's first 32 bits mod 3, as any implementation computes them
  });
});
