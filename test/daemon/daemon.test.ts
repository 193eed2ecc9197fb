import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import type { RunRecord } from '../../src/daemon/run.js';
import { parsePrometheus } from './prometheus.js';
import {
  ORG,
  SUPPORT,
  startTestDaemon,
  teamTitles,
  teamYaml,
  testClientFactory,
  writes,
  type TestDaemon,
} from './helpers.js';

let current: TestDaemon | undefined;
afterEach(async () => {
  await current?.stop();
  current = undefined;
});

async function start(options: Parameters<typeof startTestDaemon>[0]): Promise<TestDaemon> {
  current = await startTestDaemon(options);
  return current;
}

describe('docops daemon (in-process, against the sandbox)', () => {
  it('applies a manifest edit without a restart, logging one line per applied step', async () => {
    const t = await start({ files: { 'support.yaml': SUPPORT } });
    expect(t.daemon.runs[0]).toMatchObject({ result: 'success', reasons: ['start'], planned: 0 });
    expect((await t.get('/readyz')).status).toBe(200);
    // The start-up line says where the status page is.
    expect(t.logs.map((l) => l.msg)).toContain(`docops daemon started; status page ${t.daemon.url}/`);

    const next = t.nextRun();
    t.write('security.yaml', teamYaml('Security', ['grace@acme.test', 'ada@acme.test']));
    const run = await next;
    expect(run).toMatchObject({ result: 'success', reasons: ['watch'], failed: 0 });
    expect(run.applied).toBeGreaterThan(0);
    expect(await teamTitles(t.sandbox)).toContain('Security');
    const appliedLines = t.logs.filter((l) => l.msg === 'applied' && l.run === run.id);
    expect(appliedLines).toHaveLength(run.applied!);
    expect(appliedLines.every((l) => typeof l.step === 'string' && l.kind === 'Team')).toBe(true);
    // Each line says what it changed, in the plan's words.
    expect(appliedLines.map((l) => l.change)).toEqual([
      expect.stringMatching(/^\+ Team org-demo\/Security {2}title: "Security", members: .*grace@acme.test/),
    ]);
    expect(JSON.stringify(t.logs)).not.toContain(t.sandbox.token);

    const edit = t.nextRun();
    t.write('security.yaml', teamYaml('Security', ['grace@acme.test']));
    const edited = await edit;
    expect(t.logs.filter((l) => l.msg === 'applied' && l.run === edited.id).map((l) => l.change)).toEqual([
      '~ Team org-demo/Security  members.ada@acme.test: "member" → (unset)',
    ]);
  });

  it('turns twenty files written at once into one reconcile', async () => {
    const t = await start({ files: { 'support.yaml': SUPPORT }, config: { debounceMs: 400 } });
    const seen: RunRecord[] = [];
    t.daemon.on('run', (r: RunRecord) => seen.push(r));
    const burst = t.nextRun();
    for (let i = 1; i <= 20; i++) t.write(`team-${i}.yaml`, teamYaml(`Squad ${i}`));
    const run = await burst;
    expect(run.documents).toBe(21);
    expect(run.result).toBe('success');
    await new Promise((r) => setImmediate(r)); // let the runner settle after the run's event
    // No follow-up queued or running: the burst of file events was one trigger, not one per file.
    expect(t.daemon.busy).toEqual({ running: false, pending: false });
    expect(seen.map((r) => r.reasons)).toEqual([['watch']]);
    expect((await teamTitles(t.sandbox)).filter((x) => x.startsWith('Squad '))).toHaveLength(20);
  });

  it('never reads its own config as data: a manifest naming it with {file} is an invalid run that publishes nothing', async () => {
    const config = 'manifests: .\nreconcileSecret: s3cr3t-reconcile-value\n';
    const t = await start({
      files: { 'support.yaml': SUPPORT, 'docops.yaml': config },
      config: (dir) => ({ configFile: join(dir, 'docops.yaml') }),
    });
    t.sandbox.resetStats();
    const next = t.nextRun();
    t.write(
      'openapi.yaml',
      `apiVersion: docops/v1\nkind: OpenAPISpec\nmetadata: { organization: ${ORG} }\nspec:\n  slug: leak\n  source: { file: docops.yaml }\n`,
    );
    const run = await next;
    expect(run.result).toBe('invalid_manifests');
    expect(run.issues!.map((i) => `${i.file.slice(t.dir.length + 1)}:${i.line}: ${i.message}`)).toContain(
      `openapi.yaml:6: source.file "docops.yaml": is the daemon's config file, not data: name the file that holds an OpenAPI spec`,
    );
    expect(writes(t.sandbox)).toBe(0);
    expect(JSON.stringify(t.logs)).not.toContain('s3cr3t-reconcile-value');
  });

  it('keeps the last good state on an invalid edit, reports it, and recovers on the next good edit', async () => {
    const t = await start({ files: { 'support.yaml': SUPPORT } });
    const before = await teamTitles(t.sandbox);
    t.sandbox.resetStats();

    const bad = t.nextRun();
    t.write('new.yaml', teamYaml('Broken', ['nobody-at-all']).replace('title: Broken', 'title: [not, a, string]'));
    const failed = await bad;
    expect(failed.result).toBe('invalid_manifests');
    expect(failed.issues!.length).toBeGreaterThan(0);
    expect(failed.issues!.every((i) => i.file.endsWith('new.yaml') && i.line > 0)).toBe(true);
    expect(t.sandbox.stats().total).toBe(0); // never reached the API
    expect(await teamTitles(t.sandbox)).toEqual(before);
    expect(t.logs.some((l) => l.level === 50 && /new\.yaml:\d+:\d+: /.test(String(l.msg)))).toBe(true);

    const ready = await t.get('/readyz');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toMatchObject({ ready: false, manifests: { ok: false }, api: { ok: true } });
    expect(JSON.parse(ready.text).reason).toMatch(/manifest load failed/);
    const metrics = parsePrometheus((await t.get('/metrics')).text);
    expect(metrics.value('docops_manifest_load_errors')).toBeGreaterThan(0);
    expect(metrics.value('docops_reconcile_runs_total', { result: 'invalid_manifests' })).toBe(1);

    const good = t.nextRun();
    t.write('new.yaml', teamYaml('Fixed'));
    expect((await good).result).toBe('success');
    expect(await teamTitles(t.sandbox)).toContain('Fixed');
    expect((await t.get('/readyz')).status).toBe(200);
    expect(parsePrometheus((await t.get('/metrics')).text).value('docops_manifest_load_errors')).toBe(0);
  });

  it('in plan mode, a cron tick reports drift made behind its back and writes nothing', async () => {
    const t = await start({ files: { 'support.yaml': SUPPORT }, config: { mode: 'plan', schedule: '*/5 * * * *' } });
    expect(t.scheduler.expressions).toEqual(['*/5 * * * *']);
    await renameBehindTheBack(t, 'Helpdesk');
    t.sandbox.resetStats();

    const tick = t.nextRun();
    t.scheduler.tick();
    const run = await tick;
    expect(run).toMatchObject({ result: 'success', reasons: ['schedule'], mode: 'plan', planned: 1 });
    expect(writes(t.sandbox)).toBe(0);
    expect(await teamTitles(t.sandbox)).toContain('Helpdesk');
    const metrics = parsePrometheus((await t.get('/metrics')).text);
    expect(metrics.value('docops_drift', { kind: 'Team' })).toBe(1);
    expect(metrics.value('docops_drift', { kind: 'Members' })).toBe(0);
    // The log says what drifted, field by field.
    const drift = t.logs.filter((l) => l.msg === 'drift');
    expect(drift).toHaveLength(1);
    expect(drift[0]).toMatchObject({
      kind: 'Team',
      action: 'update',
      before: { title: 'Helpdesk' },
      after: { title: 'Support' },
    });
  });

  it('in apply mode, a cron tick reverts the drift', async () => {
    const t = await start({ files: { 'support.yaml': SUPPORT }, config: { schedule: '0 * * * *' } });
    await renameBehindTheBack(t, 'Helpdesk');
    const tick = t.nextRun();
    t.scheduler.tick();
    expect(await tick).toMatchObject({ result: 'success', planned: 1, applied: 1 });
    const titles = await teamTitles(t.sandbox);
    expect(titles).toContain('Support');
    expect(titles).not.toContain('Helpdesk');
    const metrics = parsePrometheus((await t.get('/metrics')).text);
    expect(metrics.value('docops_changes_applied_total', { kind: 'Team', action: 'update' })).toBe(1);
  });

  it('counts changes, not steps: a team created with its members (two steps) is one create (issue 34 §9)', async () => {
    const t = await start({ files: { 'support.yaml': SUPPORT } });
    const next = t.nextRun((r) => r.reasons.includes('watch'));
    // An owner makes it two steps: the create with the members, then their roles.
    t.write(
      'night.yaml',
      `${teamYaml('Night shift')}  members:\n    - { email: bob@acme.test, role: owner }\n    - { email: dan@acme.test }\n`,
    );
    const run = await next;
    expect(run, JSON.stringify(run)).toMatchObject({ result: 'success', applied: 2 });
    const metrics = parsePrometheus((await t.get('/metrics')).text);
    expect(metrics.value('docops_changes_applied_total', { kind: 'Team', action: 'create' })).toBe(1);
  });

  it('journals deletes before pruning, and the safety gate refuses pruning everything', async () => {
    const writers = teamYaml('Writers', [], 'team-writers'); // members not written: not managed
    const t = await start({ files: { 'teams.yaml': `${SUPPORT}---\n${writers}` }, config: { prune: { Team: true } } });
    expect(t.daemon.runs[0]).toMatchObject({ result: 'success', applied: 1 }); // Platform pruned
    expect(await teamTitles(t.sandbox)).toEqual(['Support', 'Writers']);
    const journals = readdirSync(t.daemon.config.journalDir);
    expect(journals).toHaveLength(1);
    const lines = readFileSync(join(t.daemon.config.journalDir, journals[0]!), 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { key: string }).key)).toEqual(['Platform']);

    t.sandbox.resetStats();
    const refused = t.nextRun();
    t.write('teams.yaml', teamYaml('Somebody Else')); // would prune every live team
    expect(await refused).toMatchObject({ result: 'refused' });
    expect(writes(t.sandbox)).toBe(0);
    expect(await teamTitles(t.sandbox)).toEqual(['Support', 'Writers']);
    expect(
      parsePrometheus((await t.get('/metrics')).text).value('docops_reconcile_runs_total', { result: 'refused' }),
    ).toBe(1);
    expect(t.clock.timers.filter((x) => !x.cleared)).toHaveLength(0); // a refusal is not retried
  });

  it('serves Prometheus text with every documented metric', async () => {
    const t = await start({ files: { 'support.yaml': SUPPORT } });
    const res = await fetch(t.daemon.url + '/metrics');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const metrics = parsePrometheus(await res.text()); // throws on any line that is not exposition format
    for (const name of [
      'docops_reconcile_duration_seconds',
      'docops_reconcile_runs_total',
      'docops_changes_applied_total',
      'docops_drift',
      'docops_last_success_timestamp_seconds',
      'docops_api_requests_total',
      'docops_manifest_load_errors',
      'docops_ready',
    ]) {
      expect(metrics.types.has(name), name).toBe(true);
    }
    expect(metrics.value('docops_reconcile_runs_total', { result: 'success' })).toBe(1);
    expect(metrics.value('docops_reconcile_duration_seconds_count', { result: 'success' })).toBe(1);
    expect(metrics.value('docops_api_requests_total', { method: 'GET', status: '200' })).toBeGreaterThan(0);
    expect(metrics.value('docops_last_success_timestamp_seconds')).toBeGreaterThan(1_600_000_000);
    expect(metrics.value('docops_ready')).toBe(1);
  });

  it('guards POST /reconcile with the bearer secret and can wait for the outcome', async () => {
    const secret = 'a-secret-of-enough-length';
    const t = await start({ files: { 'support.yaml': SUPPORT }, config: { reconcileSecret: secret } });
    const post = (path: string, auth?: string) =>
      fetch(t.daemon.url + path, { method: 'POST', headers: auth ? { authorization: auth } : {} });
    expect((await post('/reconcile')).status).toBe(401);
    expect((await post('/reconcile', 'Bearer wrong-secret-wrong-secret')).status).toBe(401);
    expect((await fetch(t.daemon.url + '/reconcile')).status).toBe(405);

    const waited = await post('/reconcile?wait=1', `Bearer ${secret}`);
    expect(waited.status).toBe(200);
    expect(await waited.json()).toMatchObject({ result: 'success', reasons: ['http'] });

    const next = t.nextRun();
    const accepted = await post('/reconcile', `Bearer ${secret}`);
    expect(accepted.status).toBe(202);
    expect((await next).reasons).toEqual(['http']);
    expect((await t.get('/healthz')).status).toBe(200);
  });

  it('disables POST /reconcile without a secret', async () => {
    const t = await start({ files: { 'support.yaml': SUPPORT } });
    const res = await fetch(t.daemon.url + '/reconcile', {
      method: 'POST',
      headers: { authorization: 'Bearer anything-at-all-here' },
    });
    expect(res.status).toBe(404);
  });

  it('coalesces triggers that arrive during a run into exactly one follow-up run', async () => {
    let hold: Promise<void> | undefined;
    let release = (): void => {};
    let entered = (): void => {};
    const { loadManifests } = await import('../../src/manifests/index.js');
    const t = await start({
      files: { 'support.yaml': SUPPORT },
      deps: {
        loadManifests: async (dir, kinds, opts) => {
          entered();
          await hold;
          return loadManifests(dir, kinds, opts);
        },
      },
    });
    const seen: RunRecord[] = [];
    t.daemon.on('run', (r: RunRecord) => seen.push(r));
    hold = new Promise((r) => (release = r));
    const inside = new Promise<void>((r) => (entered = r));
    const first = t.daemon.trigger('http');
    await inside; // the run is going
    const followUps = [
      t.daemon.trigger('schedule'),
      t.daemon.trigger('http'),
      t.daemon.trigger('schedule'),
      t.daemon.trigger('watch'),
    ];
    expect(t.daemon.busy).toEqual({ running: true, pending: true });
    hold = undefined;
    release();
    const [a, ...rest] = await Promise.all([first, ...followUps]);
    expect(a!.reasons).toEqual(['http']);
    expect(new Set(rest.map((r) => r.id)).size).toBe(1);
    expect(rest[0]!.id).toBe(a!.id + 1);
    expect(rest[0]!.reasons).toEqual(['schedule', 'http', 'watch']);
    expect(seen).toHaveLength(2);
    expect(t.daemon.busy).toEqual({ running: false, pending: false });
  });

  it('retries a failed reconcile with growing backoff, stays alive, and reports not ready', async () => {
    const t = await start({
      files: { 'support.yaml': SUPPORT },
      faults: '5xx=1',
      config: { retry: { initialMs: 1000, maxMs: 5000 } },
    });
    expect(t.daemon.runs[0]!.result).toBe('failed');
    const delays = [t.clock.timers.at(-1)!.ms];
    for (let i = 0; i < 3; i++) {
      const scheduled = once(t.daemon, 'retry-scheduled');
      const run = t.nextRun();
      t.clock.fireLast();
      expect((await run).reasons).toEqual(['retry']);
      delays.push(((await scheduled)[0] as { delayMs: number }).delayMs);
    }
    expect(delays).toEqual([1000, 2000, 4000, 5000]); // doubling (random() = 1 → the ceiling), capped at maxMs
    expect((await t.get('/healthz')).status).toBe(200);
    const ready = await t.get('/readyz');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toMatchObject({ api: { ok: false }, manifests: { ok: true } });
    const metrics = parsePrometheus((await t.get('/metrics')).text);
    expect(metrics.value('docops_reconcile_runs_total', { result: 'failed' })).toBe(4);
    expect(metrics.value('docops_retry_backoff_seconds')).toBe(5);

    t.sandbox.setFaults(undefined);
    const recovered = t.nextRun();
    t.clock.fireLast();
    expect((await recovered).result).toBe('success');
    expect((await t.get('/readyz')).status).toBe(200);
    expect(t.clock.timers.every((x) => x.cleared)).toBe(true); // no retry pending after a success
  });

  it('on stop, lets the step in flight finish and starts no new one', async () => {
    let stopOnFirstWrite: ((client: ApiClient) => void) | undefined;
    const real = await testClientFactory();
    const files: Record<string, string> = { 'support.yaml': SUPPORT };
    const t = await start({
      files,
      config: { concurrency: 1 },
      deps: {
        createClient: async (o) => {
          const client = await real(o);
          const request: ApiClient['request'] = async (method, path, options) => {
            if (method !== 'GET') stopOnFirstWrite?.(client);
            return client.request(method, path, options);
          };
          return {
            ...client,
            request,
            get: client.get.bind(client),
            paginate: client.paginate.bind(client),
            listAll: client.listAll.bind(client),
            close: client.close.bind(client),
          };
        },
      },
    });
    let stopping: Promise<{ graceful: boolean }> | undefined;
    stopOnFirstWrite = () => {
      stopOnFirstWrite = undefined;
      stopping = t.daemon.stop();
    };
    t.sandbox.resetStats();
    const run = t.nextRun();
    for (let i = 1; i <= 6; i++) t.write(`team-${i}.yaml`, teamYaml(`Crew ${i}`));
    const record = await run;
    expect(await stopping).toEqual({ graceful: true });
    expect(record).toMatchObject({
      result: 'interrupted',
      interrupted: true,
      interruptedBy: 'shutdown',
      applied: 1,
      failed: 0,
    });
    expect(record.skipped).toBe(record.planned! - 1);
    const stats = t.sandbox.stats();
    expect(writes(t.sandbox)).toBe(1); // the one step in flight, answered
    expect(stats.byStatus['0']).toBeUndefined();
    expect(t.clock.timers.filter((x) => !x.cleared)).toHaveLength(0); // no retry after a shutdown
    expect((await teamTitles(t.sandbox)).filter((x) => x.startsWith('Crew '))).toHaveLength(1);
  });
});

async function renameBehindTheBack(t: TestDaemon, title: string): Promise<void> {
  const res = await fetch(`${t.sandbox.url}/orgs/${ORG}/teams/team-support`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${t.sandbox.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title }),
  });
  expect(res.status).toBe(200);
}
