/**
 * When to notify, as a pure state machine over finished runs — no spam: one notification per distinct problem,
 * however often the schedule runs, and one `recovered` when it ends.
 *
 *   invalid manifests   → manifests_invalid (distinct: the set of problem positions and messages)
 *   refused by the gate → refused            (distinct: the plan's steps)
 *   failed              → apply_failed       (distinct: the failed steps, or the error's class and status)
 *   success with drift  → drift              (distinct: the plan's drift steps and their values; steps a manifest
 *                                              edit asked for (Plan.manifestChanges) are not drift)
 *   success, no steps   → recovered, when the last problem notified was still open
 *
 * In apply mode a drift the run reverted is closed by that same run (nothing left to recover from); the next
 * clean run forgets it, so the same change made again later is news again. In plan mode the drift stays open
 * until a run finds none.
 *
 * A scoped run (src/daemon/changes.ts) compares only some kinds: finding nothing there says nothing about the
 * rest, so it never counts as recovered; its drift is news only for steps no earlier drift notification had.
 */
import { createHash } from 'node:crypto';
import type { ApplyReport } from '../../model/apply-report.js';
import { originOf, type Plan, type Step } from '../../model/plan.js';
import type { RunRecord } from '../run.js';
import type { NotifyEvent } from '../../config/notify.js';

export interface Decision {
  event: NotifyEvent;
  /** The event the problem was, for `recovered`. */
  resolves?: NotifyEvent;
}

export class NotifyPolicy {
  private last: { event: NotifyEvent; fingerprint: string } | undefined;
  private open = false;
  /** The steps (with their values) of the last drift notified. */
  private steps = new Set<string>();

  decide(r: RunRecord, plan: Plan | undefined, report: ApplyReport | undefined): Decision | undefined {
    if (r.scope === 'scoped' && r.result === 'success') return this.scoped(plan, report);
    const problem = classify(r, plan, report);
    if (!problem) {
      const was = this.open ? this.last?.event : undefined;
      this.last = undefined;
      this.open = false;
      this.steps.clear();
      return was !== undefined ? { event: 'recovered', resolves: was } : undefined;
    }
    const same = this.last?.event === problem.event && this.last.fingerprint === problem.fingerprint;
    this.last = { event: problem.event, fingerprint: problem.fingerprint };
    this.open = problem.open;
    this.steps = new Set(problem.event === 'drift' ? stepPrints(plan) : []);
    return same ? undefined : { event: problem.event };
  }

  private scoped(plan: Plan | undefined, report: ApplyReport | undefined): Decision | undefined {
    const prints = stepPrints(plan);
    if (prints.length === 0 || prints.every((p) => this.steps.has(p))) return undefined;
    for (const p of prints) this.steps.add(p);
    this.last = { event: 'drift', fingerprint: digest([...this.steps].sort().join('\n')) };
    this.open = this.open || report === undefined;
    return { event: 'drift' };
  }
}

/** The steps that revert drift: all of them unless the daemon knows which a manifest edit asked for. */
const driftSteps = (plan: Plan | undefined): Step[] =>
  (plan?.steps ?? []).filter((s) => originOf(plan!, s) !== 'manifests');

function stepPrints(plan: Plan | undefined): string[] {
  return driftSteps(plan).map((s) => digest(JSON.stringify([s.id, s.before, s.after])));
}

function classify(
  r: RunRecord,
  plan: Plan | undefined,
  report: ApplyReport | undefined,
): { event: NotifyEvent; fingerprint: string; open: boolean } | undefined {
  switch (r.result) {
    case 'invalid_manifests':
      return {
        event: 'manifests_invalid',
        fingerprint: digest(
          (r.issues ?? []).map((i) => `${i.file}:${i.line}:${i.column}:${i.message}`).join('\n') ||
            `${r.errorType ?? ''}\n${r.error ?? ''}`,
        ),
        open: true,
      };
    case 'refused':
      // A plan that waits for approval is its own event: one notification per plan (checksum) waiting.
      if (r.approval) return { event: 'awaiting_approval', fingerprint: r.approval.checksum, open: true };
      return { event: 'refused', fingerprint: planPrint(plan?.steps ?? []), open: true };
    case 'failed': {
      const failed = report?.failed.map((f) => f.stepId).sort() ?? [];
      const blocked = plan?.blocked.map((b) => `${b.kind}/${b.org}/${b.key}`).sort() ?? [];
      return {
        event: 'apply_failed',
        fingerprint: digest([r.errorType ?? '', String(r.apiStatus ?? ''), ...failed, ...blocked].join('\n')),
        open: true,
      };
    }
    case 'success':
      if (driftSteps(plan).length === 0) return undefined;
      return { event: 'drift', fingerprint: planPrint(driftSteps(plan)), open: report === undefined };
  }
}

/** The plan's steps and their values: the same drift prints the same, whichever run found it. */
function planPrint(steps: readonly Step[]): string {
  if (steps.length === 0) return '';
  return digest(JSON.stringify(steps.map((s) => [s.id, s.before, s.after])));
}

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');
