/**
 * Dynamic shards (docs/daemon.md, "Dynamic shards"): S shard Leases (`<leaseName>-shard-<i>`) and S member Leases
 * (`<leaseName>-member-<i>`) shared by every replica. Each replica runs the leader elector (ha/election.ts) on
 * every one of them — on the shards it holds to renew them, on the others only to watch them (`wants`), so it sees
 * at once when one expires, with the same client-go timing as a single Lease:
 * - a member Lease says "this replica is alive": each replica holds one; their number is the replicas' count n;
 * - each replica aims at a fair share ⌈S / n⌉: it takes a free or expired shard while it holds fewer, or when no
 *   other replica holds fewer than it does, or when the shard has been free for two retry periods (so no shard
 *   stays without an owner because the replicas disagree about n); it hands one over while it holds more;
 * - handing over: leading (and the write gate) ends at once; once its organizations' runs have ended the Lease is
 *   released, and whoever wants it takes it at its next read; on shutdown every Lease is handed over.
 * An organization is written only while its shard's Lease is held within its renew deadline (the write gate of
 * that shard's elector).
 */
import type { Logger } from '../../log.js';
import type { HaConfig } from '../../config/ha.js';
import { LeaderElector, type LeaseLock } from '../ha/election.js';

export interface ShardDeps {
  shards: number;
  identity: string;
  lockFor(name: string): Promise<LeaseLock>;
  logger: Logger;
  /** Whether no run of the shard's organizations is going (its Lease may be released). */
  idle(shard: number): boolean;
  /** This replica took the shard (its organizations reconcile in full) or lost it. */
  onGained(shard: number): void;
  onLost(shard: number): void;
  now?: () => number;
}

export interface ShardView {
  shard: number;
  /** The holder as this replica sees it (absent: free, expired or not read yet). */
  holder?: string;
  mine: boolean;
}

export class ShardCoordinator {
  readonly shards: LeaderElector[] = [];
  readonly members: LeaderElector[] = [];
  private timer: NodeJS.Timeout | undefined;
  private started: number | undefined;
  private memberSince: number | undefined;
  /** Shards whose elector was told to take them in the last retry period (not yet held): not taken twice over. */
  private readonly claims = new Map<number, number>();
  private handing = new Set<number>();
  private stopped = false;
  private readonly now: () => number;

  private constructor(
    private readonly ha: HaConfig,
    private readonly deps: ShardDeps,
  ) {
    this.now = deps.now ?? (() => performance.now());
  }

  static async create(ha: HaConfig, deps: ShardDeps): Promise<ShardCoordinator> {
    const c = new ShardCoordinator(ha, deps);
    const S = deps.shards;
    for (let i = 0; i < S; i++) {
      const log = deps.logger.child({ shard: i });
      const elector = new LeaderElector(
        await deps.lockFor(`${ha.leaseName}-shard-${i}`),
        deps.identity,
        ha,
        log,
        c.now,
        () => c.wantsShard(i),
      );
      elector.on('started-leading', () => {
        c.claims.delete(i);
        deps.onGained(i);
      });
      elector.on('stopped-leading', () => deps.onLost(i));
      c.shards.push(elector);
      const member = new LeaderElector(
        await deps.lockFor(`${ha.leaseName}-member-${i}`),
        deps.identity,
        ha,
        deps.logger.child({ member: i }),
        c.now,
        () => c.wantsMember(),
      );
      member.on('started-leading', () => (c.memberSince ??= c.now()));
      c.members.push(member);
    }
    return c;
  }

  start(): void {
    this.started = this.now();
    for (const e of [...this.members, ...this.shards]) e.start();
    const tick = (): void => {
      if (this.stopped) return;
      this.balance();
      this.timer = setTimeout(tick, this.ha.retryPeriodMs);
    };
    this.timer = setTimeout(tick, this.ha.retryPeriodMs);
  }

  /** Replicas alive as this one sees them (member Leases held), itself included. */
  replicas(): number {
    const held = this.members.filter((m) => m.holder() !== undefined).length;
    return Math.max(1, held + (this.holdsMember() ? 0 : 1));
  }

  /** ⌈S / replicas⌉. */
  target(): number {
    return Math.ceil(this.deps.shards / this.replicas());
  }

  held(): number[] {
    return this.shards.flatMap((e, i) => (e.isLeader ? [i] : []));
  }

  view(): ShardView[] {
    return this.shards.map((e, shard) => {
      const holder = e.holder();
      return { shard, ...(holder !== undefined ? { holder } : {}), mine: e.isLeader };
    });
  }

  /** Hand every shard over (their organizations' runs have ended: the fleet stopped them), then leave. */
  async stop(release: boolean): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    // The member Lease first: the others count one replica fewer before they see the shards free.
    await Promise.all(this.members.map((m) => m.stop({ release })));
    await Promise.all(this.shards.map((s) => s.stop({ release })));
  }

  private holdsMember(): boolean {
    return this.members.some((m) => m.isLeader);
  }

  /** Settled: a member Lease held for a retry period (the others' are read by then), or no free one for two. */
  private warm(): boolean {
    const now = this.now();
    if (this.memberSince !== undefined) return now - this.memberSince >= this.ha.retryPeriodMs;
    return this.started !== undefined && now - this.started >= 2 * this.ha.retryPeriodMs;
  }

  private wantsMember(): boolean {
    return !this.stopped && !this.holdsMember();
  }

  private wantsShard(i: number): boolean {
    if (this.stopped || this.handing.has(i) || !this.warm()) return false;
    const now = this.now();
    for (const [s, at] of this.claims)
      if (now - at > this.ha.retryPeriodMs || this.shards[s]!.isLeader) this.claims.delete(s);
    const mine = this.held().length + this.claims.size;
    const vacant = this.shards[i]!.vacantSince();
    const want =
      mine < this.target() ||
      mine <= this.fewestOfOthers() ||
      (vacant !== undefined && now - vacant >= 2 * this.ha.retryPeriodMs);
    if (want) this.claims.set(i, now);
    return want;
  }

  /** The fewest shards another live replica holds (Infinity when there is no other). */
  private fewestOfOthers(): number {
    const me = this.deps.identity;
    const counts = new Map<string, number>();
    for (const m of this.members) {
      const h = m.holder();
      if (h !== undefined && h !== me) counts.set(h, 0);
    }
    for (const s of this.shards) {
      const h = s.holder();
      if (h !== undefined && counts.has(h)) counts.set(h, counts.get(h)! + 1);
    }
    return counts.size === 0 ? Infinity : Math.min(...counts.values());
  }

  /** One step towards the fair share: a second member Lease, or a shard above ⌈S / n⌉, is handed over. */
  private balance(): void {
    const extraMembers = this.members.filter((m) => m.isLeader).slice(1);
    for (const m of extraMembers) void m.handOver(async () => true);
    const held = this.held();
    if (!this.warm() || this.handing.size > 0 || held.length <= this.target()) return;
    const shard = held.at(-1)!;
    this.handing.add(shard);
    this.deps.logger.info(
      { shard, held: held.length, target: this.target(), replicas: this.replicas() },
      'handing a shard over: this replica holds more than its share',
    );
    void this.shards[shard]!.handOver(() => this.drained(shard)).finally(() => this.handing.delete(shard));
  }

  /** Waits until the shard's organizations are idle, at most the renew deadline (else the Lease expires on its own). */
  private async drained(shard: number): Promise<boolean> {
    const until = this.now() + this.ha.renewDeadlineMs;
    while (!this.deps.idle(shard)) {
      if (this.now() > until || this.stopped) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
    return true;
  }
}
