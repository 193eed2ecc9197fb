/**
 * The daemon's side of `ha`: an elector over the configured lease, turned into what the daemon asks —
 * may this replica reconcile now, the write gate of a run, what /readyz, the logs and `docops_leader` say.
 * The daemon imports this module only when `ha` is on; it imports the Kubernetes client only for
 * `mode: kubernetes` without an injected lock (tests inject one). The client is an optional dependency (a peer
 * in package.json, 54 MB, only for this): an installation without it gets a UsageError that says how to add it.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { WriteGate } from '../../engine/apply.js';
import { UsageError } from '../../model/errors.js';
import type { Logger } from '../../log.js';
import type { Env } from '../../manifests/interpolate.js';
import type { HaConfig } from '../../config/ha.js';
import type { DaemonMetrics } from '../metrics.js';
import { LeaderElector, type ElectionStatus, type LeaseLock } from './election.js';
import type * as KubernetesLease from './kubernetes.js';

type KubernetesModule = typeof KubernetesLease;

export type { ElectionStatus, LeaseLock } from './election.js';

export interface Leadership {
  /** Whether this replica holds the lease within its renew deadline. */
  readonly leading: boolean;
  /** The gate of a run starting now: it closes for good when this term ends, even if a later one begins. */
  writeGate(): WriteGate;
  status(): ElectionStatus;
  /** Stop electing; `release` gives the lease up (only once nothing is being written any more). */
  stop(release: boolean): Promise<void>;
}

export interface LeadershipDeps {
  env: Env;
  logger: Logger;
  metrics: Pick<DaemonMetrics, 'setLeader'>;
  /** Default: the Kubernetes Lease of the config. */
  lock?: LeaseLock;
  /** Default: the pod name (HOSTNAME) and a random suffix, so a restarted pod is a new holder. */
  identity?: string;
  /** Called each time this replica becomes the leader (the daemon runs a full reconcile). */
  onLeading(): void;
}

/** The package `ha: {mode: kubernetes}` loads, and its range in package.json peerDependencies (a test holds them equal). */
export const KUBERNETES_CLIENT = '@kubernetes/client-node';
export const KUBERNETES_CLIENT_RANGE = '~1.4.0';

/** Node's error for loading a package that is not installed, naming that package (not a file or package it loads). */
export function isMissingPackage(err: unknown, name: string): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return false;
  // require: "Cannot find module 'x'\nRequire stack: …"; import: "Cannot find package 'x' imported from …".
  return (
    typeof message === 'string' &&
    (message.startsWith(`Cannot find module '${name}'`) || message.startsWith(`Cannot find package '${name}'`))
  );
}

export function kubernetesClientMissing(cause: unknown): UsageError {
  const spec = `${KUBERNETES_CLIENT}@${KUBERNETES_CLIENT_RANGE}`;
  return new UsageError(
    `ha: {mode: kubernetes} needs ${KUBERNETES_CLIENT}, an optional dependency this installation of docops does not have. ` +
      `Install it beside docops (\`npm install -g ${spec}\` next to a global install, \`npm install ${spec}\` in a project), ` +
      'use the container image, which has it, or remove `ha` from the config (docs/install.md)',
    { cause },
  );
}

async function kubernetesModule(): Promise<KubernetesModule> {
  try {
    return await import('./kubernetes.js');
  } catch (err) {
    throw isMissingPackage(err, KUBERNETES_CLIENT) ? kubernetesClientMissing(err) : err;
  }
}

export async function startLeadership(config: HaConfig, deps: LeadershipDeps): Promise<Leadership> {
  const lock = deps.lock ?? (await kubernetesLock(config, config.leaseName, deps.env));
  const identity = deps.identity ?? replicaIdentity(deps.env);
  const log = deps.logger.child({ component: 'leader-election' });
  const elector = new LeaderElector(lock, identity, config, log);
  elector.on('started-leading', () => {
    deps.metrics.setLeader(true);
    deps.onLeading();
  });
  elector.on('stopped-leading', (reason: string) => {
    deps.metrics.setLeader(false);
    if (reason === 'stopping') log.info({ lease: lock.description }, 'no longer leading: stopping');
    else log.error({ lease: lock.description, reason }, 'lost the lease: writes stopped; standing by');
  });
  elector.on('holder', (holder: string) => {
    if (holder === identity) return;
    if (holder === '') log.info({ lease: lock.description }, 'the lease is free: taking it at the next try');
    else log.info({ lease: lock.description, holder }, 'standing by: another replica holds the lease');
  });
  deps.metrics.setLeader(false);
  log.info(
    { lease: lock.description, identity, ...config },
    'leader election started: reconciling only while holding the lease',
  );
  elector.start();
  return leadershipOf(elector);
}

/** What the daemon asks of an elector: may it write now, the write gate of a run, its status. */
export function leadershipOf(elector: LeaderElector): Leadership {
  return {
    get leading() {
      return elector.isLeader;
    },
    writeGate() {
      const term = elector.writeSignal;
      return { check: () => (term.aborted ? 'this replica lost the lease' : elector.writeBlocker()), signal: term };
    },
    status: () => elector.status(),
    stop: (release) => elector.stop({ release }),
  };
}

/** Default identity: the pod name (HOSTNAME) and a random suffix, so a restarted pod is a new holder. */
export function replicaIdentity(env: Env): string {
  return `${env.HOSTNAME || hostname()}-${randomBytes(4).toString('hex')}`;
}

/** The Kubernetes Lease of that name (the Kubernetes client loaded on first use). */
export async function kubernetesLock(
  config: Pick<HaConfig, 'namespace'>,
  leaseName: string,
  env: Env,
): Promise<LeaseLock> {
  return (await kubernetesModule()).kubernetesLeaseLock({
    ...(config.namespace !== undefined ? { namespace: config.namespace } : {}),
    leaseName,
    env,
  });
}
