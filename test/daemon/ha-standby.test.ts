/**
 * A daemon with `ha` standing by while another replica holds the lease (an in-memory lease held by "other"):
 * ready and saying so, no run on file changes or POST /reconcile, nothing sent to the API; when the lease is
 * released it takes over and its first run is a full reconcile (reason `leader`).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPolicyPath } from '../../src/policy/load.js';
import { CONFIG_DEFAULTS, type DocopsConfig } from '../../src/config/config.js';
import { Daemon } from '../../src/daemon/daemon.js';
import { microTime } from '../../src/daemon/ha/election.js';
import { memoryLease } from './memory-lease.js';
import type { RunRecord } from '../../src/daemon/run.js';
import { createLogger } from '../../src/log.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { FakeScheduler, SUPPORT, teamYaml, testClientFactory } from './helpers.js';
import { parsePrometheus } from './prometheus.js';
import { waitFor } from './wait.js';

/** A policy file beside (not inside) the manifests directory. */
function writePolicy(dir: string): string {
  const file = `${dir}-policy.yaml`;
  writeFileSync(file, 'rules:\n  - { name: crew, when: \'change.key == "Crew"\', outcome: warn, message: m }\n');
  return file;
}

let daemon: Daemon | undefined;
let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await daemon?.stop();
  await sandbox?.close();
});

describe('a daemon standing by', () => {
  it('is ready, says so, runs nothing and writes nothing; takes over when the lease is released', async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    const dir = mkdtempSync(join(tmpdir(), 'docops-standby-'));
    writeFileSync(join(dir, 'support.yaml'), SUPPORT);
    const now = microTime(new Date());
    const lease = memoryLease({
      holderIdentity: 'other',
      leaseDurationSeconds: 60,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    });
    const config: DocopsConfig = {
      configFile: '',
      manifestsDir: dir,
      apiUrl: sandbox.url,
      concurrency: 2,
      mode: 'apply',
      prune: {},
      invite: false,
      listen: { host: '127.0.0.1', port: 0 },
      debounceMs: 50,
      retry: { ...CONFIG_DEFAULTS.retry },
      shutdownGraceMs: 10_000,
      logLevel: 'debug',
      journalDir: mkdtempSync(join(tmpdir(), 'docops-journal-')),
      sandbox: false,
      reconcileSecret: 'a-reconcile-secret-for-tests',
      // A policy with an approver token: POST /approve goes to the leader too (approvals are in its memory).
      policy: await loadPolicyPath(writePolicy(dir)),
      approvals: { token: 'an-approver-token-for-tests' },
      ha: {
        mode: 'kubernetes',
        leaseName: 'docops',
        leaseDurationMs: 60_000,
        renewDeadlineMs: 40_000,
        retryPeriodMs: 50,
      },
    };
    const logs: Record<string, unknown>[] = [];
    const logger = createLogger({
      level: 'debug',
      format: 'json',
      stream: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
    });
    const s = sandbox;
    daemon = new Daemon(config, {
      env: { DOCOPS_TOKEN: s.token },
      logger,
      scheduler: new FakeScheduler(),
      defaultMetrics: false,
      createClient: await testClientFactory(),
      resolveSettings: async () => ({ baseUrl: s.url, token: s.token }),
      leaseLock: lease,
    });
    const runs: RunRecord[] = [];
    daemon.on('run', (r: RunRecord) => runs.push(r));
    s.resetStats();
    await daemon.start();
    const d = daemon;
    const get = async (path: string, init?: RequestInit) => {
      const res = await fetch(d.url + path, init);
      return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
    };
    await waitFor(async () => (await get('/readyz')).status === 200, 10_000, 'standing by, ready');
    expect((await get('/readyz')).body).toMatchObject({
      ready: true,
      standby: true,
      ha: { role: 'follower', holder: 'other', lease: 'test/docops' },
    });
    expect(parsePrometheus(await (await fetch(d.url + '/metrics')).text()).value('docops_leader')).toBe(0);

    // A file change and POST /reconcile: no run.
    writeFileSync(join(dir, 'crew.yaml'), teamYaml('Crew'));
    await waitFor(
      () => logs.some((l) => l.msg === 'standing by: no reconcile (another replica holds the lease)'),
      10_000,
      'the change to be seen',
    );
    const post = await get('/reconcile?wait=1', {
      method: 'POST',
      headers: { authorization: 'Bearer a-reconcile-secret-for-tests' },
    });
    expect(post.status).toBe(503);
    expect(post.body).toMatchObject({ standby: true });
    const approve = await get('/approve', {
      method: 'POST',
      headers: { authorization: 'Bearer an-approver-token-for-tests' },
      body: JSON.stringify({ checksum: `sha256:${'a'.repeat(64)}` }),
    });
    expect(approve).toMatchObject({ status: 503, body: { standby: true } });
    expect(runs).toEqual([]);
    expect(s.stats().total).toBe(0); // not even a read

    // Released: it takes over; its first run reconciles everything (the new team included).
    const released = microTime(new Date());
    await lease.update(
      { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: released, renewTime: released, leaseTransitions: 0 },
      String(lease.version),
      new AbortController().signal,
    );
    await waitFor(() => runs.length > 0, 10_000, 'the first run as leader');
    expect(runs[0]).toMatchObject({ reasons: ['leader'], result: 'success', applied: 1 }); // the Crew team, created
    expect(lease.record).toMatchObject({ holderIdentity: expect.stringMatching(/-[0-9a-f]{8}$/), leaseTransitions: 1 });
    expect((await get('/readyz')).body).toMatchObject({ ready: true, ha: { role: 'leader' } });
    expect(parsePrometheus(await (await fetch(d.url + '/metrics')).text()).value('docops_leader')).toBe(1);

    // Stopping releases it.
    await d.stop();
    daemon = undefined;
    expect(lease.record).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
  });
});
