/**
 * The LeaseLock of `ha: {mode: kubernetes}`: a coordination.k8s.io/v1 Lease read and written through
 * @kubernetes/client-node, as client-go's resourcelock/leaselock.go does (GET; POST when it is missing; PUT
 * carrying the resourceVersion read, which the API server compares and answers 409 when it moved on).
 *
 * This module is the only one that imports @kubernetes/client-node, and the daemon imports it only when HA is
 * configured (a big package; every other command and a daemon without HA never load it).
 * Credentials: KUBECONFIG (or ~/.kube/config) when present, else the pod's service account (in-cluster).
 *
 * Redirects are not followed (docs/reliability.md, "Redirects"): client-node sends through node-fetch, which follows
 * them and keeps the Authorization header for any port of the same host (and its client certificate for any host),
 * so every request goes through `noRedirects`, client-node's own HTTP library with `redirect: 'manual'`; a 3xx
 * then fails the request with its status like any other unexpected answer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import {
  ApiException,
  CoordinationV1Api,
  KubeConfig,
  Observable,
  ResponseContext,
  V1MicroTime,
  type ConfigurationOptions,
  type HttpLibrary,
  type V1Lease,
} from '@kubernetes/client-node';
import fetch from 'node-fetch';
import { UsageError } from '../../model/errors.js';
import type { Env } from '../../manifests/interpolate.js';
import { LeaseConflictError, type LeaseLock, type LeaseRecord } from './election.js';

const SERVICE_ACCOUNT_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

/** A failed Lease request: its HTTP status when one arrived, never the server's message. */
export class LeaseRequestError extends Error {
  constructor(
    readonly code: number | undefined,
    options?: { cause?: unknown },
  ) {
    // Without an HTTP answer the cause is local (network, TLS, credentials): its message quotes no server content.
    super(
      code !== undefined
        ? `the Lease request was answered HTTP ${code}${isRedirect(code) ? REDIRECT_NOTE : ''}`
        : `the Lease request got no answer: ${causeMessage(options?.cause)}`,
      options,
    );
    this.name = 'LeaseRequestError';
  }
}

const REDIRECT_NOTE = ', a redirect: not followed (docops talks only to the configured API server)';
const isRedirect = (code: number): boolean => code >= 300 && code < 400;

/** client-node's HTTP library (gen/http/isomorphic-fetch.js) with one change: a redirect is answered, not followed. */
const noRedirects: HttpLibrary = {
  send(request) {
    const body = request.getBody();
    if (body !== undefined && typeof body !== 'string')
      throw new TypeError('the Lease client sends JSON text bodies only');
    const answer = fetch(request.getUrl(), {
      method: request.getHttpMethod().toString(),
      body,
      headers: request.getHeaders(),
      signal: request.getSignal(),
      agent: request.getAgent(),
      redirect: 'manual',
    }).then((res) => {
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => (headers[name] = value));
      return new ResponseContext(res.status, headers, { text: () => res.text(), binary: () => res.buffer() });
    });
    return new Observable(answer);
  },
};

function causeMessage(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

export interface KubernetesLeaseOptions {
  /** Default: the service account's namespace in a pod, else the kubeconfig context's, else `default`. */
  namespace?: string;
  leaseName: string;
  env: Env;
}

export function kubernetesLeaseLock(options: KubernetesLeaseOptions): LeaseLock {
  const kc = loadKubeConfig(options.env);
  const namespace = options.namespace ?? defaultNamespace(kc);
  const name = options.leaseName;
  const api = kc.makeApiClient(CoordinationV1Api);
  // client-node takes no AbortSignal per call: a middleware sets it on the request (node-fetch honours it).
  const withSignal = (signal: AbortSignal): ConfigurationOptions => ({
    httpApi: noRedirects,
    middleware: [
      {
        pre: (ctx) => {
          ctx.setSignal(signal);
          return new Observable(Promise.resolve(ctx));
        },
        post: (res) => new Observable(Promise.resolve(res)),
      },
    ],
    middlewareMergeStrategy: 'append',
  });
  const toLease = (record: LeaseRecord, resourceVersion?: string): V1Lease => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace, ...(resourceVersion !== undefined ? { resourceVersion } : {}) },
    spec: {
      holderIdentity: record.holderIdentity,
      leaseDurationSeconds: record.leaseDurationSeconds,
      // V1MicroTime serialises with microseconds, as the API server requires of MicroTime fields.
      acquireTime: new V1MicroTime(record.acquireTime),
      renewTime: new V1MicroTime(record.renewTime),
      leaseTransitions: record.leaseTransitions,
    },
  });
  const versionOf = (lease: V1Lease): string => {
    const v = lease.metadata?.resourceVersion;
    if (v === undefined || v === '')
      throw new LeaseRequestError(undefined, { cause: new Error('the Lease came back without a resourceVersion') });
    return v;
  };
  return {
    description: `${namespace}/${name}`,
    async get(signal) {
      let lease: V1Lease;
      try {
        lease = await api.readNamespacedLease({ name, namespace }, withSignal(signal));
      } catch (err) {
        if (statusOf(err) === 404) return undefined;
        throw asLeaseError(err);
      }
      return { record: recordOf(lease), version: versionOf(lease) };
    },
    async create(record, signal) {
      try {
        return versionOf(await api.createNamespacedLease({ namespace, body: toLease(record) }, withSignal(signal)));
      } catch (err) {
        throw asLeaseError(err);
      }
    },
    async update(record, version, signal) {
      try {
        return versionOf(
          await api.replaceNamespacedLease({ name, namespace, body: toLease(record, version) }, withSignal(signal)),
        );
      } catch (err) {
        throw asLeaseError(err);
      }
    },
  };
}

function loadKubeConfig(env: Env): KubeConfig {
  const kc = new KubeConfig();
  // As kubectl reads them: every file of KUBECONFIG (the first one's current context wins), else ~/.kube/config.
  const files = (env.KUBECONFIG ?? '').split(delimiter).filter((f) => f !== '');
  const home = join(env.HOME ?? homedir(), '.kube', 'config');
  if (files.length === 0 && existsSync(home)) files.push(home);
  if (files.length > 0) {
    kc.loadFromFile(files[0]!);
    for (const file of files.slice(1)) {
      const more = new KubeConfig();
      more.loadFromFile(file);
      kc.mergeConfig(more);
    }
  } else if ((env.KUBERNETES_SERVICE_HOST ?? '') !== '') {
    kc.loadFromCluster();
  } else {
    throw new UsageError(
      "ha: kubernetes needs the pod's service account (in a cluster) or a kubeconfig (KUBECONFIG or ~/.kube/config)",
    );
  }
  if (!kc.getCurrentCluster()) throw new UsageError('ha: kubernetes: the kubeconfig names no current cluster');
  return kc;
}

function defaultNamespace(kc: KubeConfig): string {
  if (existsSync(SERVICE_ACCOUNT_NAMESPACE)) {
    const ns = readFileSync(SERVICE_ACCOUNT_NAMESPACE, 'utf8').trim();
    if (ns !== '') return ns;
  }
  return kc.getContextObject(kc.getCurrentContext())?.namespace ?? 'default';
}

/** A Lease's spec as a record; MicroTime fields as the strings the server sent (they are compared, not parsed). */
function recordOf(lease: V1Lease): LeaseRecord {
  const spec = lease.spec ?? {};
  const time = (t: unknown): string => (t instanceof Date ? t.toISOString() : typeof t === 'string' ? t : '');
  return {
    holderIdentity: spec.holderIdentity ?? '',
    leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
    acquireTime: time(spec.acquireTime),
    renewTime: time(spec.renewTime),
    leaseTransitions: spec.leaseTransitions ?? 0,
  };
}

function statusOf(err: unknown): number | undefined {
  return err instanceof ApiException && typeof err.code === 'number' ? err.code : undefined;
}

function asLeaseError(err: unknown): Error {
  const status = statusOf(err);
  if (status === 409) return new LeaseConflictError('the Lease was written by someone else first (HTTP 409)');
  return new LeaseRequestError(status, { cause: err });
}
