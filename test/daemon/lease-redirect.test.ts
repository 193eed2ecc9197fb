/**
 * The Kubernetes Lease client follows no redirect: an API server (or what stands at its address) answering 3xx
 * fails the Lease request with its status, and the origin the redirect names never gets a request — with the
 * service account's bearer token, a client certificate or the Lease body. (client-node's node-fetch follows
 * redirects, and keeps the Authorization header when the host is the same, whatever the port.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LeaseRequestError, kubernetesLeaseLock } from '../../src/daemon/ha/kubernetes.js';
import type { LeaseRecord } from '../../src/daemon/ha/election.js';
import { redirect, startElsewhere, type Elsewhere } from '../helpers/elsewhere.js';

const TOKEN = 'k8s-service-account-token-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'docops-lease-redirect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let elsewhere: Elsewhere;
let server: Server;
afterEach(async () => {
  await elsewhere.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** An "API server" answering every request with `status` pointing at the same path on another origin. */
async function redirectingApiServer(status: number): Promise<string> {
  elsewhere = await startElsewhere({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'docops', namespace: 'docops', resourceVersion: '7' },
    spec: {},
  });
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => redirect(res, status, `${elsewhere.origin}${req.url ?? '/'}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const file = join(dir, `config-${status}`);
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{ name: c, cluster: { server: "${url}", insecure-skip-tls-verify: true } }]`,
      `users: [{ name: u, user: { token: "${TOKEN}" } }]`,
      'contexts: [{ name: c, context: { cluster: c, user: u, namespace: docops } }]',
      'current-context: c',
      '',
    ].join('\n'),
  );
  return file;
}

const RECORD: LeaseRecord = {
  holderIdentity: 'pod-a',
  leaseDurationSeconds: 15,
  acquireTime: '2030-01-01T00:00:00.000000Z',
  renewTime: '2030-01-01T00:00:00.000000Z',
  leaseTransitions: 0,
};

describe('the Lease client and redirects', () => {
  for (const status of [307, 302, 308]) {
    it(`read, create and update answered ${status}: each fails with the status, nothing reaches the other origin`, async () => {
      const lock = kubernetesLeaseLock({
        leaseName: 'docops',
        env: { KUBECONFIG: await redirectingApiServer(status) },
      });
      const signal = new AbortController().signal;
      for (const attempt of [
        () => lock.get(signal),
        () => lock.create(RECORD, signal),
        () => lock.update(RECORD, '6', signal),
      ]) {
        const err = await attempt().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(LeaseRequestError);
        expect((err as LeaseRequestError).code).toBe(status);
        expect((err as Error).message).toBe(
          `the Lease request was answered HTTP ${status}, a redirect: not followed (docops talks only to the configured API server)`,
        );
      }
      expect(elsewhere.received).toEqual([]);
    });
  }
});
