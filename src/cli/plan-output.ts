/** How plan and apply print a plan: the chosen format plus the API cost line (text and markdown). */
import type { ApiClient } from '../model/api-client.js';
import { UsageError } from '../model/errors.js';
import type { Plan } from '../model/plan.js';
import { costLine, DEFAULT_LATENCY_MS, estimateCost, type PlanCost } from '../plan-file/index.js';
import type { PolicyReport } from '../policy/model.js';
import { policyData, renderPolicyMarkdown, renderPolicyText } from '../policy/render.js';
import { MARKDOWN_MAX_LENGTH, renderJson, renderMarkdown, renderText, type PlanFormat } from '../render/index.js';
import { escapeMarkdown } from '../render/markdown.js';
import { summaryLine, textTotals } from '../render/values.js';
import { scopeLines, type PlanScopes } from '../scopes/needs.js';
import type { FlagSpec } from './args.js';
import type { CommandContext } from './command.js';
import { appendStepSummary, willAppendStepSummary } from './github.js';

export const LATENCY_FLAG = {
  type: 'string',
  value: 'MS',
  description: `Assumed latency per API request for the plan's time estimate (default ${DEFAULT_LATENCY_MS})`,
} as const satisfies FlagSpec;

/** The plan's cost; paced to the rate limit `client` last saw announced, when there is one. */
export function planCost(ctx: CommandContext, plan: Plan, client?: ApiClient): PlanCost {
  const raw = ctx.values['latency-ms'];
  let latencyMs = DEFAULT_LATENCY_MS;
  if (typeof raw === 'string') {
    latencyMs = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(latencyMs))
      throw new UsageError(`--latency-ms must be a whole number of milliseconds, got "${raw}"`);
  }
  return estimateCost(plan, { concurrency: ctx.global.concurrency, latencyMs, rateLimit: client?.rateLimit?.() });
}

/**
 * The markdown the CLI prints stays 1,024 characters under GitHub's 65,536-character comment limit, so a
 * workflow can add its marker (`<!-- docops-plan -->`) and a line of its own without the API rejecting it.
 */
export const PR_MARKDOWN_MAX_LENGTH = MARKDOWN_MAX_LENGTH - 1024;

export function markdownPlan(
  plan: Plan,
  cost: PlanCost | undefined,
  scopes?: PlanScopes,
  policy?: PolicyReport,
): string {
  // Cost and token scopes matter only when there is something to apply (JSON always carries the scopes).
  const notes =
    plan.steps.length === 0
      ? []
      : [...(cost ? [costLine(cost)] : []), ...(scopes ? scopeLines(scopes).map((l) => l.replace(/_/g, '\\_')) : [])];
  // The rules a policy fired are never cut: a reviewer must see them (and who may approve).
  const sections = policy ? [renderPolicyMarkdown(policy, escapeMarkdown)] : [];
  return renderMarkdown(plan, {
    maxLength: PR_MARKDOWN_MAX_LENGTH,
    ...(notes.length > 0 ? { notes } : {}),
    ...(sections.length > 0 ? { sections } : {}),
  });
}

export interface PlanOutputOptions {
  color: boolean;
  cost?: PlanCost;
  /** The OAuth scopes of the plan's requests (plan prints them: docs/pr-checks.md "Least-privilege tokens"). */
  scopes?: PlanScopes;
  /** What the configured policy says about the plan (src/policy). */
  policy?: PolicyReport;
}

export function renderPlanOutput(plan: Plan, format: PlanFormat, options: PlanOutputOptions): string {
  if (format === 'json')
    return renderJson(plan, {
      ...(options.scopes ? { scopes: options.scopes } : {}),
      ...(options.policy ? { policy: policyData(options.policy) } : {}),
    });
  if (format === 'markdown') return markdownPlan(plan, options.cost, options.scopes, options.policy);
  const text = renderText(plan, { color: options.color }) + (options.policy ? renderPolicyText(options.policy) : '');
  if (plan.steps.length === 0) return text;
  const lines = [
    ...(options.cost ? [costLine(options.cost)] : []),
    ...(options.scopes ? scopeLines(options.scopes) : []),
  ];
  if (lines.length === 0) return text;
  // The cost and scope lines go right below the "Plan: …" summary line.
  const at = text.indexOf(summaryLine(textTotals(plan.steps)));
  const eol = at < 0 ? -1 : text.indexOf('\n', at);
  const block = lines.join('\n') + '\n';
  return eol < 0 ? text + block : text.slice(0, eol + 1) + block + text.slice(eol + 1);
}

/**
 * In GitHub Actions, the markdown plan (and apply result) goes to the job's step summary. The markdown is made
 * only then: rendering it formats numbers with `toLocaleString`, whose first call sets up ICU's number format
 * (~15 ms, every plan otherwise paid it for nothing).
 */
export async function stepSummary(ctx: CommandContext, markdown: () => string): Promise<void> {
  if (!willAppendStepSummary(ctx.io)) return;
  if (await appendStepSummary(ctx.io, markdown()))
    ctx.logger.debug({ file: ctx.io.env.GITHUB_STEP_SUMMARY }, 'plan appended to the step summary');
}
