/**
 * The daemon's approvals: which plan waits (its approval checksum, since when, the rules that ask for it) and the
 * approvals given, each bound to one checksum. An approval is taken only for the plan that waits now; the run it
 * starts plans again, and applies only when the plan it computes has that very checksum (daemon-gate.ts), so a
 * change in the manifests or in the live objects between approval and apply voids it. The daemon keeps the book on
 * disk (approval-store.ts: `snapshot` written after each change, `restore`d from the file before each use), so a
 * restart or a new leader finds it. Used approvals are forgotten: one approval, one apply.
 */
import type { ApprovalState } from './approval-store.js';
import type { Approvers, FiredRule } from './model.js';

export interface WaitingPlan {
  checksum: string;
  since: string;
  /** The run that found it waiting (the latest). */
  run: number;
  rules: { rule: string; message: string; objects: string[] }[];
  approvers?: Approvers;
}

export interface Approval {
  checksum: string;
  /** `token` (POST /approve) or `github:LOGIN`. */
  by: string;
  at: string;
  /** The comment's URL, for a pull-request approval. */
  url?: string;
}

export type ApproveAnswer = { ok: true; approval: Approval } | { ok: false; reason: string; waiting?: string };

const KEEP = 20;

export class ApprovalBook {
  private waitingPlan: WaitingPlan | undefined;
  private readonly given = new Map<string, Approval>();
  private lastApplied: Approval | undefined;

  constructor(private readonly now: () => Date = () => new Date()) {}

  get waiting(): WaitingPlan | undefined {
    return this.waitingPlan;
  }

  get applied(): Approval | undefined {
    return this.lastApplied;
  }

  /** A run found its plan needing approval, without one for its checksum. */
  wait(checksum: string, run: number, fired: readonly FiredRule[], approvers: Approvers | undefined): WaitingPlan {
    const same = this.waitingPlan?.checksum === checksum;
    const rules = new Map<string, WaitingPlan['rules'][number]>();
    for (const f of fired) {
      if (f.outcome !== 'require-approval') continue;
      const r = rules.get(f.rule) ?? { rule: f.rule, message: f.message, objects: [] };
      r.objects.push(f.object);
      rules.set(f.rule, r);
    }
    this.waitingPlan = {
      checksum,
      since: same ? this.waitingPlan!.since : this.now().toISOString(),
      run,
      rules: [...rules.values()],
      ...(approvers ? { approvers } : {}),
    };
    return this.waitingPlan;
  }

  /** Nothing waits any more (the plan changed to one that needs no approval, or was applied). */
  clear(): void {
    this.waitingPlan = undefined;
  }

  /** Approve `checksum`, which must be the waiting plan's. */
  approve(checksum: string, by: string, url?: string): ApproveAnswer {
    const w = this.waitingPlan;
    if (!w) return { ok: false, reason: 'no plan waits for approval' };
    if (w.checksum !== checksum)
      return {
        ok: false,
        reason: 'the plan waiting for approval has another checksum (the manifests or the live state changed)',
        waiting: w.checksum,
      };
    const approval: Approval = { checksum, by, at: this.now().toISOString(), ...(url ? { url } : {}) };
    this.given.set(checksum, approval);
    while (this.given.size > KEEP) this.given.delete(this.given.keys().next().value!);
    return { ok: true, approval };
  }

  /** The approval of `checksum`, if one was given. */
  approvalOf(checksum: string): Approval | undefined {
    return this.given.get(checksum);
  }

  /** What the book holds, as the store keeps it. */
  snapshot(): ApprovalState {
    return {
      ...(this.waitingPlan ? { waiting: this.waitingPlan } : {}),
      given: [...this.given.values()],
      ...(this.lastApplied ? { applied: this.lastApplied } : {}),
    };
  }

  /** Hold exactly `state` (what the store read). */
  restore(state: ApprovalState): void {
    this.waitingPlan = state.waiting;
    this.given.clear();
    for (const a of state.given.slice(-KEEP)) this.given.set(a.checksum, a);
    this.lastApplied = state.applied;
  }

  /** The plan of `checksum` was applied (its run wrote): its approval is used up. */
  use(checksum: string): void {
    const a = this.given.get(checksum);
    if (!a) return;
    this.given.delete(checksum);
    this.lastApplied = a;
    if (this.waitingPlan?.checksum === checksum) this.waitingPlan = undefined;
  }
}
