/**
 * Policies: rules over a plan's changes, each a CEL expression (`when`) with an outcome and a message. Plain data
 * here; loading (load.ts), evaluating (evaluate.ts) and rendering (render.ts) live beside it. A rule is evaluated
 * once per change of the plan; it fires on each change for which `when` is true, and on each change for which it
 * cannot be evaluated (an error never passes a plan: it counts as the rule firing, with the error said).
 */
import type { SourcePos } from '../model/errors.js';

export const OUTCOMES = ['deny', 'require-approval', 'warn'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface PolicyRule {
  name: string;
  /** The CEL expression, as written. */
  when: string;
  outcome: Outcome;
  message: string;
  /** Where the rule is written (its `name`), and where its expression starts. */
  source: SourcePos;
  whenSource: SourcePos;
}

/** Who may approve a plan that a `require-approval` rule fired on, besides POST /approve with the approver token. */
export interface Approvers {
  /** GitHub team as `org/team-slug`: a PR comment `/docops approve CHECKSUM` by one of its active members approves. */
  githubTeam: string;
}

/** The rules configured; `origin` says where they came from (a file, a folder, the config) for messages. */
export interface PolicySet {
  rules: PolicyRule[];
  origin: string;
  approvers?: Approvers;
}

/** One rule firing on one change. */
export interface FiredRule {
  rule: string;
  outcome: Outcome;
  message: string;
  /** The step it fired on. */
  step: string;
  /** `Kind org/key`, for people. */
  object: string;
  /** Where the manifest writes the changed object (absent for objects no manifest describes: prunes). */
  source?: SourcePos;
  /** Where the rule is written. */
  ruleSource: SourcePos;
  /** Set when the rule could not be evaluated on this change: it counts as fired. */
  error?: string;
}

export type PolicyDecision = 'pass' | 'warn' | 'require-approval' | 'deny';

/** What the policy says about a plan: derived from the plan, never part of it (apply evaluates again). */
export interface PolicyReport {
  /** How many rules were evaluated. */
  rules: number;
  fired: FiredRule[];
  /** The strictest outcome that fired (deny > require-approval > warn), or pass. */
  decision: PolicyDecision;
  /**
   * When approval is required: the checksum an approval must name (approval.ts), and who may give it. Absent when
   * nobody computed it (a plan printed without its manifests' digest).
   */
  approval?: { checksum?: string; approvers?: Approvers };
}

const RANK: Record<PolicyDecision, number> = { pass: 0, warn: 1, 'require-approval': 2, deny: 3 };

export function decisionOf(fired: readonly FiredRule[]): PolicyDecision {
  let d: PolicyDecision = 'pass';
  for (const f of fired) if (RANK[f.outcome] > RANK[d]) d = f.outcome;
  return d;
}
