/**
 * What plan output says about the policy: text and markdown sections, and the JSON data (`policy` beside the plan,
 * derived like `scopes`: never read back as part of a plan). Fired rules are grouped by rule, the strictest first,
 * each listing the changes it fired on with their manifest positions.
 */
import type { FiredRule, Outcome, PolicyReport } from './model.js';

const ORDER: readonly Outcome[] = ['deny', 'require-approval', 'warn'];
const MAX_OBJECTS = 20;

interface Group {
  rule: string;
  outcome: Outcome;
  message: string;
  hits: FiredRule[];
}

function groups(report: PolicyReport): Group[] {
  const byRule = new Map<string, Group>();
  for (const f of report.fired) {
    const g = byRule.get(f.rule);
    if (g) g.hits.push(f);
    else byRule.set(f.rule, { rule: f.rule, outcome: f.outcome, message: f.message, hits: [f] });
  }
  return [...byRule.values()].sort((a, b) => ORDER.indexOf(a.outcome) - ORDER.indexOf(b.outcome));
}

const where = (f: FiredRule): string => (f.source ? ` (${f.source.file}:${f.source.line}:${f.source.column})` : '');
const hitLine = (f: FiredRule): string => `${f.object}${where(f)}${f.error ? ` — ${f.error}` : ''}`;

export function policyHeadline(report: PolicyReport): string {
  const n = new Set(report.fired.map((f) => f.rule)).size;
  if (n === 0) return `Policy: ${report.rules} rule${report.rules === 1 ? '' : 's'} checked, none fired.`;
  return `Policy: ${n} of ${report.rules} rule${report.rules === 1 ? '' : 's'} fired — ${report.decision}${report.decision === 'deny' ? ': apply refuses this plan' : report.decision === 'require-approval' ? ': it is applied once approved' : ''}.`;
}

/** `/docops approve sha256:…` and who may say it. */
export function approvalLines(report: PolicyReport): string[] {
  if (report.decision !== 'require-approval') return [];
  const checksum = report.approval?.checksum;
  const team = report.approval?.approvers?.githubTeam;
  const how = checksum
    ? [
        `To approve exactly this plan: ${team ? `a member of the GitHub team ${team} comments "/docops approve ${checksum}" on the pull request, or ` : ''}POST /approve on the daemon with the approver token and {"checksum": "${checksum}"}.`,
      ]
    : [
        `Approval is given in the daemon${team ? ` (a member of the GitHub team ${team}, or the approver token)` : ''}.`,
      ];
  return [...how, 'Any change to the manifests or to the live objects the plan touches voids an approval.'];
}

export function renderPolicyText(report: PolicyReport): string {
  const lines = ['', policyHeadline(report)];
  for (const g of groups(report)) {
    lines.push(`  ${g.outcome} ${g.rule}: ${g.message}`);
    for (const f of g.hits.slice(0, MAX_OBJECTS)) lines.push(`    - ${hitLine(f)}`);
    if (g.hits.length > MAX_OBJECTS) lines.push(`    … and ${g.hits.length - MAX_OBJECTS} more`);
  }
  for (const l of approvalLines(report)) lines.push(`  ${l}`);
  return lines.join('\n') + '\n';
}

const ICON: Record<Outcome, string> = { deny: ':no_entry:', 'require-approval': ':raised_hand:', warn: ':warning:' };

/** `escape` is the markdown renderer's escaping of user text. */
export function renderPolicyMarkdown(report: PolicyReport, escape: (s: string) => string): string {
  const out = [`**${escape(policyHeadline(report))}**`, ''];
  for (const g of groups(report)) {
    const objects = g.hits.slice(0, MAX_OBJECTS).map((f) => escape(hitLine(f)));
    if (g.hits.length > MAX_OBJECTS) objects.push(`… and ${g.hits.length - MAX_OBJECTS} more`);
    out.push(
      `- ${ICON[g.outcome]} **${g.outcome}** \`${g.rule}\`: ${escape(g.message)}`,
      ...objects.map((o) => `  - ${o}`),
    );
  }
  const approval = approvalLines(report);
  if (approval.length > 0) {
    const checksum = report.approval?.checksum;
    out.push('', `**Approval needed.** ${escape(approval.join(' '))}`);
    if (checksum) out.push('', '```', `/docops approve ${checksum}`, '```');
  }
  return out.join('\n');
}

/** The JSON form: plain data with stable keys. */
export function policyData(report: PolicyReport): object {
  return {
    rules: report.rules,
    decision: report.decision,
    fired: report.fired.map((f) => ({
      rule: f.rule,
      outcome: f.outcome,
      message: f.message,
      step: f.step,
      object: f.object,
      ...(f.source ? { source: { file: f.source.file, line: f.source.line, column: f.source.column } } : {}),
      ruleSource: { file: f.ruleSource.file, line: f.ruleSource.line, column: f.ruleSource.column },
      ...(f.error !== undefined ? { error: f.error } : {}),
    })),
    ...(report.approval
      ? {
          approval: {
            ...(report.approval.checksum ? { checksum: report.approval.checksum } : {}),
            ...(report.approval.approvers ? { approvers: report.approval.approvers } : {}),
          },
        }
      : {}),
  };
}
