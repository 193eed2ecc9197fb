/**
 * Leader election over a lease with compare-and-swap updates, as client-go's tools/leaderelection does it
 * (leaderelection.go, resourcelock/leaselock.go), over any `LeaseLock` (kubernetes.ts: a coordination.k8s.io/v1
 * Lease; tests: the same Lease endpoints served on 127.0.0.1).
 *
 * - Every `retryPeriod` a replica reads the lease. A record held by another identity is valid until
 *   `leaseDuration` after this replica last SAW it change (its own monotonic clock, never the record's
 *   timestamps: clocks of different nodes need not agree). An expired, released (empty holder) or missing
 *   lease is taken by an update that carries the version read (409 when someone else wrote first).
 * - The leader renews every `retryPeriod`. It leads while its last successful renew STARTED less than
 *   `renewDeadline` ago: the write gate (`writeBlocker`) closes at that instant even if no timer ran, and the
 *   other replicas cannot take over before `leaseDuration` after they saw that renew, which is later. A replica
 *   that sees another holder in a valid record stops leading at once.
 * - `stop({release: true})` (SIGTERM, once the run drained) writes an empty holder with a 1-second duration,
 *   so a follower takes over at its next read, within one retry period.
 * - With `wants` (dynamic shards, src/daemon/fleet/shards.ts) a replica that does not hold the lease only takes it
 *   while `wants()` says so, and otherwise only watches it; `handOver()` stops leading and releases the lease
 *   while the loop goes on watching.
 * Nothing here fences the writes themselves (see docs/daemon.md, "High availability").
 */
import { EventEmitter } from 'node:events';
import type { Logger } from '../../log.js';

export interface LeaseRecord {
  /** '' when released. */
  holderIdentity: string;
  leaseDurationSeconds: number;
  /** RFC 3339 with microseconds, as the Lease's MicroTime fields. */
  acquireTime: string;
  renewTime: string;
  leaseTransitions: number;
}

export interface LeaseLock {
  /** `namespace/name`, for logs and /readyz. */
  readonly description: string;
  /** The record and the version it was read at; undefined when the lease does not exist (404). */
  get(signal: AbortSignal): Promise<{ record: LeaseRecord; version: string } | undefined>;
  /** Creates the lease; throws `LeaseConflictError` when it exists already. Resolves with the new version. */
  create(record: LeaseRecord, signal: AbortSignal): Promise<string>;
  /** Replaces the record if the lease is still at `version`; throws `LeaseConflictError` otherwise. */
  update(record: LeaseRecord, version: string, signal: AbortSignal): Promise<string>;
}

/** Someone else wrote the lease first (HTTP 409): not a failure to reach it. */
export class LeaseConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LeaseConflictError';
  }
}

export interface ElectionTimings {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

export type Role = 'starting' | 'leader' | 'follower';

export interface ElectionStatus {
  role: Role;
  identity: string;
  lease: string;
  /** The holder of the lease as last read ('' when released, absent before the first read). */
  holder?: string;
  /** Whether the last request to the lease endpoint got an answer (a 409 counts: the lease was reached). */
  leaseReachable?: boolean;
  /** Why the last request failed (the error's class and HTTP status; never a message). */
  lastError?: string;
}

/**
 * Events: 'started-leading' (), 'stopped-leading' (reason: string), 'holder' (identity: string) when the
 * observed holder changes.
 */
export class LeaderElector extends EventEmitter {
  private leading = false;
  /** Monotonic start of the last successful acquire or renew. */
  private renewedAt = 0;
  private observed: { record: LeaseRecord; version: string; raw: string; at: number } | undefined;
  private reachable: boolean | undefined;
  private lastError: string | undefined;
  private writes = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private attempt: Promise<void> | undefined;
  private attemptAbort: AbortController | undefined;
  private stopped = false;
  /** Set while handOver() gives the lease up: nothing is taken meanwhile. */
  private yielding = false;

  constructor(
    private readonly lock: LeaseLock,
    readonly identity: string,
    private readonly timings: ElectionTimings,
    private readonly logger: Logger,
    private readonly now: () => number = () => performance.now(),
    /** Whether to take the lease when it is free (default: always, as a plain election does). */
    private readonly wants: () => boolean = () => true,
  ) {
    super();
    this.writes.abort(); // nothing may be written before the lease is held
  }

  /** Start reading (and trying to take) the lease every retry period. */
  start(): void {
    this.tick();
  }

  get isLeader(): boolean {
    return this.leading && this.writeBlocker() === undefined;
  }

  /** undefined while this replica holds the lease within its renew deadline; else why it may not write. */
  writeBlocker(): string | undefined {
    if (!this.leading) return 'this replica does not hold the lease';
    if (this.now() >= this.renewedAt + this.timings.renewDeadlineMs) {
      queueMicrotask(() => this.lose('the lease was not renewed within renewDeadline'));
      return 'the lease was not renewed within renewDeadline';
    }
    return undefined;
  }

  /** Aborted the moment leadership ends (one signal per term). */
  get writeSignal(): AbortSignal {
    return this.writes.signal;
  }

  status(): ElectionStatus {
    const role: Role = this.isLeader
      ? 'leader'
      : this.observed === undefined && this.reachable !== true
        ? 'starting'
        : 'follower';
    return {
      role,
      identity: this.identity,
      lease: this.lock.description,
      ...(this.observed ? { holder: this.observed.record.holderIdentity } : {}),
      ...(this.reachable !== undefined ? { leaseReachable: this.reachable } : {}),
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
    };
  }

  /**
   * The holder as this replica sees it: itself while it leads, another identity while that one's record is
   * valid (changed less than leaseDuration ago by this replica's clock), else undefined (free, expired, unread).
   */
  holder(): string | undefined {
    if (this.isLeader) return this.identity;
    const o = this.observed;
    if (!o || o.record.holderIdentity === '' || o.record.holderIdentity === this.identity) return undefined;
    return this.now() < o.at + this.timings.leaseDurationMs ? o.record.holderIdentity : undefined;
  }

  /** Since when (this replica's monotonic clock) the lease has been free or expired as seen here; undefined while held or unread. */
  vacantSince(): number | undefined {
    if (this.isLeader) return undefined;
    const o = this.observed;
    if (!o) return undefined;
    if (o.record.holderIdentity === '') return o.at;
    const expiry = o.at + this.timings.leaseDurationMs;
    return this.now() >= expiry ? expiry : undefined;
  }

  /**
   * Give the lease to whoever takes it next, and go on watching it: leading (and the write gate) ends at once;
   * once `drained` resolves true (nothing is written under it any more) the lease is released; false leaves it
   * to expire. Resolves true when it was released.
   */
  async handOver(drained: () => Promise<boolean>): Promise<boolean> {
    if (!this.leading || this.stopped) return false;
    this.yielding = true;
    try {
      this.lose('handing the lease over');
      await this.attempt;
      if (!(await drained()) || this.stopped) return false;
      return await this.release();
    } finally {
      this.yielding = false;
    }
  }

  /**
   * Stop the loop. With `release` (the daemon stopped writing: its run drained), a leader gives the lease up
   * (empty holder, 1-second duration) so a follower takes over at its next read; without it the lease is left
   * to expire (a write may still be in flight).
   */
  async stop(options: { release: boolean }): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.attempt;
    const was = this.leading && this.observed?.record.holderIdentity === this.identity;
    this.lose('stopping');
    if (!was || !options.release) return;
    await this.release();
  }

  /** An empty holder with a 1-second duration, if the lease is still this replica's as last read. */
  private async release(): Promise<boolean> {
    const o = this.observed;
    if (!o || o.record.holderIdentity !== this.identity) return false;
    const wall = microTime(new Date());
    const record: LeaseRecord = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: wall,
      renewTime: wall,
      leaseTransitions: o.record.leaseTransitions,
    };
    try {
      const version = await this.lock.update(record, o.version, AbortSignal.timeout(this.timings.renewDeadlineMs));
      this.observe(record, version);
      this.logger.info({ lease: this.lock.description, identity: this.identity }, 'released the lease');
      return true;
    } catch (err) {
      this.logger.warn(
        { lease: this.lock.description, errorType: errorKind(err) },
        'could not release the lease; the others take over once it expires',
      );
      return false;
    }
  }

  private tick(): void {
    if (this.stopped) return;
    this.attempt = this.tryAcquireOrRenew().finally(() => {
      this.attempt = undefined;
      if (!this.stopped) this.timer = setTimeout(() => this.tick(), this.timings.retryPeriodMs);
    });
  }

  private async tryAcquireOrRenew(): Promise<void> {
    const started = this.now();
    // A leader's attempt may not outlive its renew deadline; a follower's gets as long.
    const budget = this.leading
      ? Math.max(1, this.renewedAt + this.timings.renewDeadlineMs - started)
      : this.timings.renewDeadlineMs;
    const abort = new AbortController();
    this.attemptAbort = abort;
    const timeout = setTimeout(() => abort.abort(new Error('the lease request timed out')), budget);
    try {
      const won = await this.acquireOrRenew(abort.signal);
      this.reachable = true;
      this.lastError = undefined;
      if (won) this.held(started);
      else if (this.leading)
        this.lose(`another replica (${this.observed?.record.holderIdentity ?? '?'}) holds the lease`);
    } catch (err) {
      this.reachable = err instanceof LeaseConflictError;
      this.lastError = errorKind(err);
      if (err instanceof LeaseConflictError) {
        // Someone else wrote first; the next read tells who.
        this.logger.debug({ lease: this.lock.description }, 'lease update conflicted; reading it again next time');
      } else {
        this.logger.warn(
          {
            lease: this.lock.description,
            errorType: this.lastError,
            error: err instanceof Error ? err.message : String(err),
            leading: this.leading,
          },
          'the lease could not be read or written',
        );
      }
      if (this.leading) this.writeBlocker(); // loses at once if the deadline has passed
    } finally {
      clearTimeout(timeout);
      this.attemptAbort = undefined;
    }
  }

  /** One round of client-go's tryAcquireOrRenew: true when this replica holds the lease afterwards. */
  private async acquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const wall = microTime(new Date());
    const mine: LeaseRecord = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.ceil(this.timings.leaseDurationMs / 1000),
      acquireTime: wall,
      renewTime: wall,
      leaseTransitions: 0,
    };
    const current = await this.lock.get(signal);
    // Not leading: take a free or expired lease only if wanted (dynamic shards); else just watch it.
    const taking = (): boolean => this.leading || (!this.yielding && this.wants());
    if (current === undefined) {
      if (!taking()) return false;
      const version = await this.lock.create(mine, signal);
      this.observe(mine, version);
      return true;
    }
    const raw = JSON.stringify(current.record);
    if (this.observed?.raw !== raw) this.observe(current.record, current.version);
    else this.observed.version = current.version;
    const holder = current.record.holderIdentity;
    if (holder !== '' && holder !== this.identity && this.now() < this.observed!.at + this.timings.leaseDurationMs)
      return false;
    if (holder !== this.identity && this.leading) return false; // released or taken over while leading: not ours any more
    if (!taking()) return false;
    const next: LeaseRecord =
      holder === this.identity
        ? { ...mine, acquireTime: current.record.acquireTime, leaseTransitions: current.record.leaseTransitions }
        : { ...mine, leaseTransitions: current.record.leaseTransitions + 1 };
    const version = await this.lock.update(next, current.version, signal);
    this.observe(next, version);
    return true;
  }

  private observe(record: LeaseRecord, version: string): void {
    const before = this.observed?.record.holderIdentity;
    this.observed = { record, version, raw: JSON.stringify(record), at: this.now() };
    if (before !== record.holderIdentity) this.emit('holder', record.holderIdentity);
  }

  private held(started: number): void {
    this.renewedAt = started;
    clearTimeout(this.deadline);
    // Declare the loss on time even while a renew hangs (the gate itself compares clocks, timers or not).
    this.deadline = setTimeout(
      () => this.writeBlocker(),
      Math.max(0, started + this.timings.renewDeadlineMs - this.now()) + 1,
    );
    if (this.leading) return;
    this.leading = true;
    this.writes = new AbortController();
    this.logger.info(
      { lease: this.lock.description, identity: this.identity },
      'became the leader: this replica reconciles',
    );
    this.emit('started-leading');
  }

  private lose(reason: string): void {
    if (!this.leading) return;
    this.leading = false;
    clearTimeout(this.deadline);
    this.writes.abort(new Error(`lost the lease: ${reason}`));
    this.attemptAbort?.abort();
    this.emit('stopped-leading', reason);
  }
}

/** `2006-01-02T15:04:05.000000Z`: a Lease's MicroTime. */
export function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** The class and HTTP status of an error, never its message (it may echo a server's answer). */
export function errorKind(err: unknown): string {
  if (!(err instanceof Error)) return typeof err;
  const status = (err as { code?: unknown }).code;
  return typeof status === 'number' ? `${err.name} ${status}` : err.name;
}
