/**
 * The elector (src/daemon/ha/election.ts) through the real Kubernetes lease lock (@kubernetes/client-node)
 * against Lease endpoints that answer as the API server does (lease-server.ts): one leader at a time,
 * compare-and-swap on resourceVersion, release on stop, and a partitioned leader that closes its write gate
 * before the others may take over. Short timings; every wait is on an observable condition.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LeaderElector, type ElectionTimings } from '../../src/daemon/ha/election.js';
import { kubernetesLeaseLock } from '../../src/daemon/ha/kubernetes.js';
import { createLogger } from '../../src/log.js';
import { startLeaseServer, type FakeLeaseServer } from './lease-server.js';
import { waitFor } from './wait.js';

const TIMINGS: ElectionTimings = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 500 };
const logger = createLogger({ level: 'silent', format: 'json', stream: { write: () => {} } });

let server: FakeLeaseServer;
const electors: LeaderElector[] = [];

afterEach(async () => {
  await Promise.all(electors.splice(0).map((e) => e.stop({ release: false })));
  await server?.close();
});

function elector(client: string): LeaderElector {
  const dir = mkdtempSync(join(tmpdir(), 'docops-kubeconfig-'));
  writeFileSync(join(dir, 'config'), server.kubeconfig(client));
  const lock = kubernetesLeaseLock({ leaseName: 'docops', env: { KUBECONFIG: join(dir, 'config') } });
  const e = new LeaderElector(lock, client, TIMINGS, logger);
  electors.push(e);
  return e;
}

const successfulWrites = (client: string) =>
  server.events.filter((e) => e.client === client && (e.method === 'PUT' || e.method === 'POST') && e.status < 300);

describe('leader election over a Lease', () => {
  it('two replicas started together: exactly one leads, the lease names it, the other follows', async () => {
    server = await startLeaseServer();
    const a = elector('a');
    const b = elector('b');
    a.start();
    b.start();
    await waitFor(() => a.isLeader || b.isLeader, 10_000, 'a leader');
    const [leader, follower] = a.isLeader ? [a, b] : [b, a];
    await waitFor(() => follower.status().holder === leader.identity, 10_000, 'the follower to see the leader');
    expect(server.lease('docops', 'docops')!.spec).toMatchObject({
      holderIdentity: leader.identity,
      leaseDurationSeconds: 3,
      leaseTransitions: 0,
    });
    expect(follower.status()).toMatchObject({ role: 'follower', holder: leader.identity, leaseReachable: true });
    expect(follower.writeBlocker()).toBe('this replica does not hold the lease');
    expect(leader.writeBlocker()).toBeUndefined();
    // Only one create was accepted (the other got 409 or found the lease), every update carried the version it read.
    expect(server.events.filter((e) => e.method === 'POST' && e.status === 201)).toHaveLength(1);
    expect(server.events.filter((e) => e.status === 422)).toEqual([]);
    // The leader keeps renewing; the follower never writes while the lease is valid.
    const renewed = successfulWrites(leader.identity).length;
    await waitFor(() => successfulWrites(leader.identity).length >= renewed + 2, 10_000, 'two renewals');
    expect(successfulWrites(follower.identity)).toEqual([]);
    expect(a.isLeader && b.isLeader).toBe(false);
  });

  it('a stopping leader releases the lease; the follower takes it at its next read, within one retry period', async () => {
    server = await startLeaseServer();
    const a = elector('a');
    a.start();
    await waitFor(() => a.isLeader, 10_000, 'a to lead');
    const b = elector('b');
    b.start();
    await waitFor(() => b.status().holder === 'a', 10_000, 'b to see a');
    await a.stop({ release: true });
    expect(a.writeBlocker()).toBeDefined();
    await waitFor(() => b.isLeader, 10_000, 'b to take over');
    const released = server.events.find((e) => e.client === 'a' && e.holder === '')!;
    const taken = successfulWrites('b')[0]!;
    expect(server.lease('docops', 'docops')!.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    // One retry period, plus the time a read and a write take on a loaded machine.
    expect(taken.at - released.at).toBeLessThan(TIMINGS.retryPeriodMs + 1000);
  });

  it.each(['error', 'hang'] as const)(
    'a leader cut off from the lease (%s) closes its write gate before the lease can expire; the other takes over only after',
    async (mode) => {
      server = await startLeaseServer();
      const a = elector('a');
      a.start();
      await waitFor(() => a.isLeader, 10_000, 'a to lead');
      const b = elector('b');
      b.start();
      await waitFor(() => b.status().holder === 'a', 10_000, 'b to see a');
      let gateClosedAt: number | undefined;
      a.on('stopped-leading', () => (gateClosedAt ??= performance.now()));
      server.partition('a', mode);
      // The gate is a clock comparison: poll it as apply would before each write.
      await waitFor(
        () => (a.writeBlocker() !== undefined ? ((gateClosedAt ??= performance.now()), true) : false),
        10_000,
        'a to stop writing',
      );
      await waitFor(() => b.isLeader, 10_000, 'b to take over');
      const lastRenew = successfulWrites('a').at(-1)!.at;
      const takeover = successfulWrites('b')[0]!.at;
      expect(gateClosedAt!).toBeLessThan(lastRenew + TIMINGS.leaseDurationMs);
      expect(takeover).toBeGreaterThanOrEqual(lastRenew + TIMINGS.leaseDurationMs);
      expect(a.status()).toMatchObject({ role: 'follower', leaseReachable: false });
      // Healed, the former leader follows the new one.
      server.heal('a');
      await waitFor(() => a.status().holder === 'b' && a.status().leaseReachable === true, 10_000, 'a to follow b');
      expect(a.isLeader).toBe(false);
    },
  );
});
