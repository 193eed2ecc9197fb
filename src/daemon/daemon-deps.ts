/**
 * What a Daemon is built with besides its config: the fakes tests inject, and — inside a fleet — what the fleet
 * gives each organization's daemon (EmbeddedIn).
 */
import type { KindDefinition } from '../model/kind.js';
import type { Logger } from '../log.js';
import type { Env } from '../manifests/interpolate.js';
import type { RetryPolicy } from './notify/sender.js';
import type { Clock } from './backoff.js';
import type { ClientFactory, SettingsResolver } from './connect.js';
import type { Leadership, LeaseLock } from './ha/leadership.js';
import type { DaemonMetrics } from './metrics.js';
import type { LoadManifests } from './run.js';
import type { Scheduler } from './triggers.js';

export interface DaemonDeps {
  env?: Env;
  logger?: Logger;
  kinds?: readonly KindDefinition[];
  loadManifests?: LoadManifests;
  createClient?: ClientFactory;
  resolveSettings?: SettingsResolver;
  scheduler?: Scheduler;
  /** Timers for retries (a fake in tests). */
  clock?: Clock;
  random?: () => number;
  /** Default true; tests turn process metrics off. */
  defaultMetrics?: boolean;
  /** The daemon's role on the status page: `single` by default; leader election says `leader` or `standby`. */
  role?: () => string;
  /** Backoff of failed notification deliveries (tests make it short). */
  notifyRetry?: RetryPolicy;
  /** With `ha`: the lease to elect a leader on (default: the configured Kubernetes Lease). */
  leaseLock?: LeaseLock;
  /** One organization of a fleet (src/daemon/fleet): the fleet serves HTTP and holds the leases; this reconciles. */
  embedded?: EmbeddedIn;
}

/** What a fleet gives each of its organizations' daemons. */
export interface EmbeddedIn {
  /** The organization's series of the fleet's metrics (`org` label). */
  metrics: DaemonMetrics;
  /** The lease (the fleet's, or the organization's shard's) this organization is written under; absent: always. */
  leadership?: Leadership;
  /** The status page's address, for notifications. */
  statusUrl(): string | undefined;
  /** Values no manifest variable may carry besides this organization's token (the other organizations' tokens). */
  secrets?: readonly string[];
}
