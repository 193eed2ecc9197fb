/**
 * The policy as plan and apply use it: `--policy PATH` (a policy file or a folder of them), or the `policy:` of
 * apply's `--config`. src/policy (and the CEL library) are imported only when a policy is configured.
 */
import { UsageError } from '../model/errors.js';
import type { Plan } from '../model/plan.js';
import type { LiveState } from '../model/state.js';
import type { LoadedPolicy } from '../policy/evaluate.js';
import type { PolicyReport } from '../policy/model.js';
import { manifestsDigest, type ManifestsDigest } from '../plan-file/digests.js';
import type { FlagSpec } from './args.js';
import type { CommandContext } from './command.js';

export const POLICY_FLAG = {
  type: 'string',
  value: 'PATH',
  description: 'Policy rules over the plan: a policy file, or a folder of them (docs/policy.md)',
} as const satisfies FlagSpec;

/** The configured policy, validated (file:line:column errors), or undefined when none is configured. */
export async function cliPolicy(ctx: CommandContext, fromConfig?: LoadedPolicy): Promise<LoadedPolicy | undefined> {
  const flag = ctx.values.policy;
  if (typeof flag !== 'string') return fromConfig;
  if (flag === '') throw new UsageError('--policy needs a policy file or folder');
  if (fromConfig) throw new UsageError('--policy and the policy of --config: give one of them');
  return (await import('../policy/load.js')).loadPolicyPath(flag);
}

/** Digest of the manifests when a policy is configured (an approval binds them): taken before they are read for the plan. */
export async function policyDigest(
  policy: LoadedPolicy | undefined,
  dir: string,
): Promise<ManifestsDigest | undefined> {
  return policy ? manifestsDigest(dir) : undefined;
}

export interface PolicyInput {
  plan: Plan;
  live: LiveState;
  manifests: ManifestsDigest;
  manifestsDir: string;
  kinds: readonly { kind: string }[];
}

/** What the policy says about the plan, with the approval checksum when an approval is required. */
export async function policyReport(policy: LoadedPolicy, input: PolicyInput): Promise<PolicyReport> {
  const { evaluatePolicy, approvalChecksum } = await import('../policy/index.js');
  const report = evaluatePolicy(policy, input.plan, { kinds: input.kinds.map((k) => k.kind) });
  if (report.decision !== 'require-approval') return report;
  return {
    ...report,
    approval: { checksum: approvalChecksum(input), ...(policy.approvers ? { approvers: policy.approvers } : {}) },
  };
}
