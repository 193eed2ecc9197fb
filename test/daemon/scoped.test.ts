/**
 * Scoped reconciles in the daemon, against the sandbox: a file change reconciles only the scopes whose documents
 * changed (and their closure), the schedule and POST /reconcile stay full, and a run after a failure is full.
 * Every assertion about what was read comes from the sandbox's own request stats.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunRecord } from '../../src/daemon/run.js';
import { parsePrometheus } from './prometheus.js';
import { ORG, startTestDaemon, type TestDaemon } from './helpers.js';

const EXAMPLE = join(import.meta.dirname, '../../config.example/manifests');
const example = (name: string): string => readFileSync(join(EXAMPLE, name), 'utf8');
const FILES = ['members.yaml', 'organization.yaml', 'site.yaml', 'spaces.yaml', 'teams.yaml', 'translations.yaml'];

const SECRET = 'a-reconcile-secret-for-tests';
let current: TestDaemon | undefined;
afterEach(async () => {
  await current?.stop();
  current = undefined;
});

async function start(): Promise<TestDaemon> {
  const files = Object.fromEntries(FILES.map((f) => [f, example(f)]));
  const t = (current = await startTestDaemon({
    files,
    config: { debounceMs: 100, schedule: '0 0 * * *', reconcileSecret: SECRET },
  }));
  expect(t.daemon.runs[0]).toMatchObject({ result: 'success', scope: 'full' });
  return t;
}

/** Routes the sandbox served since the last reset, e.g. `GET /v1/orgs/:organizationId/teams`. */
const routes = (t: TestDaemon): string[] => Object.keys(t.sandbox.stats().byRoute).sort();

/** bob (edit in the example) becomes a reviewer. */
const bobReviews = (text: string): string => {
  const out = text.replace('{ email: bob@acme.test, role: edit }', '{ email: bob@acme.test, role: review }');
  expect(out).not.toBe(text);
  return out;
};

/** A member's role as the sandbox answers it. */
async function roleOf(t: TestDaemon, email: string): Promise<string | undefined> {
  const res = await fetch(`${t.sandbox.url}/orgs/${ORG}/members?limit=1000`, {
    headers: { authorization: `Bearer ${t.sandbox.token}` },
  });
  const body = (await res.json()) as { items: { role: string; user: { email: string } }[] };
  return body.items.find((m) => m.user.email === email)?.role;
}

const isWatch = (r: RunRecord): boolean => r.reasons.includes('watch');

describe('scoped reconciles', () => {
  it("editing one member's role reconciles Members only: no team, site or space list is read, and the write happens", async () => {
    const t = await start();
    t.sandbox.resetStats();
    const next = t.nextRun(isWatch);
    t.write('members.yaml', bobReviews(example('members.yaml')));
    const r = await next;
    expect(r).toMatchObject({
      result: 'success',
      scope: 'scoped',
      applied: 1,
      scopes: { changed: ['Members/org-demo'], reconciled: ['Members/org-demo'] },
    });
    const served = routes(t);
    // The member list only (the token's user was asked for by the start-up run's gate and is kept). No audit
    // events: the step is the manifest edit itself, which has no live author to name (src/daemon/origin.ts).
    expect(served.filter((x) => x.startsWith('GET'))).toEqual(['GET /v1/orgs/:organizationId/members']);
    expect(served.some((x) => /teams|sites|spaces|collections|translations/.test(x))).toBe(false);
    expect(await roleOf(t, 'bob@acme.test')).toBe('review');
  });

  it('a file rewritten with the same documents is no scope at all: nothing is fetched', async () => {
    const t = await start();
    t.sandbox.resetStats();
    const next = t.nextRun(isWatch);
    // Another layout of the same documents: a comment added, the file written anew.
    t.write('teams.yaml', `# touched\n${example('teams.yaml')}`);
    const r = await next;
    expect(r).toMatchObject({
      result: 'success',
      scope: 'scoped',
      planned: 0,
      scopes: { changed: [], reconciled: [] },
    });
    expect(t.sandbox.stats().total).toBe(0);
  });

  it("a Team's change takes the Members it lists along (ids), and not the sites", async () => {
    const t = await start();
    t.sandbox.resetStats();
    const next = t.nextRun(isWatch);
    t.write('teams.yaml', example('teams.yaml').replace('    - { email: carol@acme.test }\n', ''));
    const r = await next;
    expect(r).toMatchObject({
      result: 'success',
      scope: 'scoped',
      scopes: { changed: ['Team/org-demo'], reconciled: ['Members/org-demo', 'Team/org-demo'] },
    });
    expect(routes(t).some((x) => /sites|spaces/.test(x))).toBe(false);
    expect(routes(t).filter((x) => !x.startsWith('GET') && x.includes('/teams/'))).not.toEqual([]);
  });

  it('the schedule and POST /reconcile run full reconciles', async () => {
    const t = await start();
    const tick = t.nextRun((r) => r.reasons.includes('schedule'));
    t.scheduler.tick();
    expect(await tick).toMatchObject({ scope: 'full', fullBecause: 'triggered by schedule' });
    const res = await fetch(`${t.daemon.url}/reconcile?wait=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}` },
    });
    expect(await res.json()).toMatchObject({ result: 'success', scope: 'full' });
  });

  it('after a failed run the next file change is full; then scoped again; /metrics counts both', async () => {
    const t = await start();
    // The next run fails: the API answers 503 to everything.
    t.sandbox.setFaults('5xx=1');
    const failed = t.nextRun(isWatch);
    t.write('members.yaml', bobReviews(example('members.yaml')));
    expect(await failed).toMatchObject({ result: 'failed', scope: 'scoped' });
    t.sandbox.setFaults(undefined);
    const full = t.nextRun(isWatch);
    t.write('translations.yaml', `# again\n${example('translations.yaml')}`);
    expect(await full).toMatchObject({
      result: 'success',
      scope: 'full',
      fullBecause: expect.stringMatching(/no successful run/),
    });
    const scoped = t.nextRun(isWatch);
    t.write('members.yaml', example('members.yaml'));
    expect(await scoped).toMatchObject({
      result: 'success',
      scope: 'scoped',
      scopes: { changed: ['Members/org-demo'] },
    });
    const metrics = parsePrometheus((await t.get('/metrics')).text);
    expect(metrics.value('docops_reconcile_scope_runs_total', { scope: 'scoped', result: 'success' })).toBe(1);
    expect(metrics.value('docops_reconcile_scope_runs_total', { scope: 'scoped', result: 'failed' })).toBe(1);
    expect(metrics.value('docops_reconcile_scope_runs_total', { scope: 'full', result: 'success' })).toBe(2);
  });

  describe('reading ahead while the debounce waits', () => {
    const MEMBERS = 'GET /v1/orgs/:organizationId/members';
    const memberReads = (t: TestDaemon): number => t.sandbox.stats().byRoute[MEMBERS] ?? 0;
    async function startSlow(): Promise<TestDaemon> {
      const files = Object.fromEntries(FILES.map((f) => [f, example(f)]));
      // A long quiet time, so the load and the read ahead finish well before it ends.
      const t = (current = await startTestDaemon({
        files,
        config: { debounceMs: 2000, schedule: '0 0 * * *', reconcileSecret: SECRET },
      }));
      expect(t.daemon.runs[0]).toMatchObject({ result: 'success', scope: 'full' });
      return t;
    }

    it("a save's scoped run plans from the member list read during the debounce, read once", async () => {
      const t = await startSlow();
      t.sandbox.resetStats();
      const next = t.nextRun(isWatch);
      t.write('members.yaml', bobReviews(example('members.yaml')));
      // The read happens before the run: the quiet time has not ended yet.
      await vi.waitFor(() => expect(memberReads(t)).toBe(1), { timeout: 10_000, interval: 20 });
      expect(t.daemon.runs.filter(isWatch)).toEqual([]);
      const r = await next;
      expect(r).toMatchObject({ result: 'success', scope: 'scoped', readAhead: true, applied: 1 });
      expect(memberReads(t)).toBe(1);
      expect(await roleOf(t, 'bob@acme.test')).toBe('review');
    });

    it('a run that starts after the read ahead makes it stale: it is never used', async () => {
      const t = await startSlow();
      t.sandbox.resetStats();
      const next = t.nextRun(isWatch);
      t.write('members.yaml', bobReviews(example('members.yaml')));
      await vi.waitFor(() => expect(memberReads(t)).toBe(1), { timeout: 10_000, interval: 20 });
      // A full run in between (it writes: it applies the save itself, from its own read).
      const res = await fetch(`${t.daemon.url}/reconcile?wait=1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ result: 'success', scope: 'full', applied: 1 });
      expect(memberReads(t)).toBe(2);
      // The save's own run comes after it: the read ahead predates a run's writes, so it plans without it.
      const r = await next;
      expect(r).toMatchObject({ result: 'success', scope: 'scoped' });
      expect(r.readAhead).not.toBe(true);
      expect(r.planned ?? 0).toBe(0);
      expect(await roleOf(t, 'bob@acme.test')).toBe('review');
    });
  });
});
