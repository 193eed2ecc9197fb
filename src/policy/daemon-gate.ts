/**
 * The policy gate of a daemon run: evaluate the policy on the plan about to be applied; `deny` refuses it
 * (PolicyError); `require-approval` refuses it too (PolicyError with the approval checksum: the plan waits) unless
 * an approval of exactly this checksum was given; the report then carries the checksum, and the approval is used
 * up once the run has written (DaemonApprovals.observe: a run that wrote nothing, e.g. cut off by the loss of the
 * lease, leaves it for the next). It runs after the safety gate, right before apply (apply mode only: a daemon in
 * plan mode writes nothing to approve).
 */
import { PolicyError } from '../model/errors.js';
import type { Plan } from '../model/plan.js';
import type { LiveState } from '../model/state.js';
import type { Logger } from '../log.js';
import { manifestsDigest } from '../plan-file/digests.js';
import { approvalChecksum } from './approval.js';
import type { ApprovalBook } from './approvals.js';
import { evaluatePolicy, type LoadedPolicy } from './evaluate.js';
import { enforcePolicy } from './gate.js';
import type { PolicyReport } from './model.js';

export interface DaemonPolicy {
  policy: LoadedPolicy;
  book: ApprovalBook;
  kinds: readonly string[];
  manifestsDir: string;
}

/**
 * Judges the plan; returns the report (warn and approved plans pass; an approved one with `approval`), throws
 * PolicyError to refuse or to wait.
 */
export async function judgePlan(
  p: DaemonPolicy,
  plan: Plan,
  live: LiveState,
  run: number,
  log: Logger,
): Promise<PolicyReport> {
  const report = evaluatePolicy(p.policy, plan, { kinds: p.kinds });
  for (const f of report.fired)
    if (f.outcome === 'warn')
      log.warn({ rule: f.rule, object: f.object, ...(f.source ? { source: f.source } : {}) }, `policy: ${f.message}`);
  if (report.decision !== 'require-approval') {
    p.book.clear(); // the plan that waited is not the plan any more
    enforcePolicy(report, undefined);
    return report;
  }
  const checksum = approvalChecksum({
    plan,
    live,
    manifests: await manifestsDigest(p.manifestsDir),
    manifestsDir: p.manifestsDir,
  });
  const withApproval: PolicyReport = {
    ...report,
    approval: { checksum, ...(p.policy.approvers ? { approvers: p.policy.approvers } : {}) },
  };
  const approval = p.book.approvalOf(checksum);
  if (approval) {
    log.info(
      { checksum, by: approval.by, ...(approval.url ? { url: approval.url } : {}) },
      'policy: the plan was approved; applying exactly it',
    );
    return withApproval;
  }
  p.book.wait(checksum, run, report.fired, p.policy.approvers);
  const hits = report.fired.filter((f) => f.outcome === 'require-approval');
  throw new PolicyError(hits, `the plan waits for approval of ${checksum}`, checksum);
}
