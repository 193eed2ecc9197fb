/**
 * What a notification says: the generic webhook's JSON body and a Slack incoming-webhook message. Both carry the
 * plan summary and one sentence per step naming who made the change when the audit events say so. Values come
 * from the plan's before/after through the renderers' masking; the sender redacts registered secrets on top.
 */
import type { ApplyReport } from '../../model/apply-report.js';
import type { Plan } from '../../model/plan.js';
import type { RunRecord } from '../run.js';
import { originOf } from '../../model/plan.js';
import { changeOf, stepSentence } from '../../render/attribution.js';
import { summaryLine, textTotals } from '../../render/values.js';
import type { Decision } from './policy.js';

export const MAX_CHANGES = 50;

export interface NotificationContext {
  record: RunRecord;
  plan: Plan | undefined;
  report: ApplyReport | undefined;
  /** The status page's URL, when known (links in messages). */
  statusUrl?: string;
}

const TITLE: Record<string, string> = {
  drift: 'Drift detected',
  apply_failed: 'Apply failed',
  refused: 'Refused by the safety gate',
  awaiting_approval: 'Waiting for approval',
  recovered: 'Recovered',
  manifests_invalid: 'Manifests invalid',
};

export function webhookBody(d: Decision, c: NotificationContext): Record<string, unknown> {
  const r = c.record;
  const plan = c.plan;
  const changes = (plan?.steps ?? []).slice(0, MAX_CHANGES).map((s) => {
    const origin = plan ? originOf(plan, s) : 'unknown';
    const by = plan && origin !== 'manifests' ? changeOf(plan, s) : undefined;
    return {
      kind: s.kind,
      org: s.org,
      key: s.key,
      action: s.action,
      origin,
      sentence: plan ? stepSentence(plan, s) : `${s.kind} ${s.key}`,
      ...(by ? { changedBy: { actor: by.actor, at: by.at, action: by.action } } : {}),
      ...(c.report
        ? {
            outcome: c.report.applied.includes(s.id)
              ? 'applied'
              : c.report.failed.some((f) => f.stepId === s.id)
                ? 'failed'
                : 'skipped',
          }
        : {}),
    };
  });
  return {
    event: d.event,
    ...(d.resolves ? { resolves: d.resolves } : {}),
    title: TITLE[d.event],
    mode: r.mode,
    run: {
      id: r.id,
      result: r.result,
      reasons: r.reasons,
      startedAt: r.startedAt,
      durationMs: r.durationMs,
      planned: r.planned ?? null,
      applied: r.applied ?? null,
      failed: r.failed ?? null,
    },
    ...(plan && plan.steps.length > 0
      ? {
          summary: summaryLine(textTotals(plan.steps)),
          changes,
          changesOmitted: Math.max(0, plan.steps.length - MAX_CHANGES),
        }
      : {}),
    ...(plan?.attribution?.unavailable ? { attributionUnavailable: plan.attribution.unavailable } : {}),
    ...(r.issues
      ? {
          problems: r.issues
            .slice(0, MAX_CHANGES)
            .map((i) => ({ file: i.file, line: i.line, column: i.column, message: i.message })),
        }
      : {}),
    ...(r.violations ? { violations: r.violations } : {}),
    ...(d.event === 'apply_failed' && plan && plan.blocked.length > 0
      ? {
          blocked: plan.blocked.slice(0, MAX_CHANGES).map((b) => ({
            kind: b.kind,
            org: b.org,
            key: b.key,
            message: b.message,
            ...(b.source ? { source: `${b.source.file}:${b.source.line}:${b.source.column}` } : {}),
          })),
        }
      : {}),
    ...(d.event === 'awaiting_approval' && r.approval ? { approval: { checksum: r.approval.checksum } } : {}),
    ...(errorSentence(d, r) !== undefined ? { error: errorSentence(d, r) } : {}),
    ...(c.statusUrl ? { statusUrl: c.statusUrl } : {}),
  };
}

/**
 * The run's error in one sentence, where the notification has nothing else to say why: a failed apply, and a load
 * that failed without positions (a missing or unreadable manifests directory).
 */
function errorSentence(d: Decision, r: NotificationContext['record']): string | undefined {
  if (d.event === 'apply_failed') return r.error;
  return d.event === 'manifests_invalid' && !r.issues ? r.error : undefined;
}

/** Slack mrkdwn: `&`, `<` and `>` are the only characters to escape. */
function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function slackBody(d: Decision, c: NotificationContext): { text: string } {
  const r = c.record;
  const lines = [`*docops: ${TITLE[d.event]}* (${r.mode} mode, run #${r.id})`];
  if (d.event === 'recovered')
    lines.push(
      `The ${TITLE[d.resolves ?? '']?.toLowerCase() ?? 'problem'} is resolved: the organization matches the manifests.`,
    );
  const plan = c.plan;
  if (plan && plan.steps.length > 0 && d.event !== 'recovered') {
    lines.push(
      summaryLine(textTotals(plan.steps)) +
        (r.mode === 'apply' && c.report
          ? ` Applied ${c.report.applied.length}, failed ${c.report.failed.length}.`
          : ''),
    );
    for (const s of plan.steps.slice(0, 20)) lines.push(`• ${slackEscape(stepSentence(plan, s))}`);
    if (plan.steps.length > 20) lines.push(`… and ${plan.steps.length - 20} more`);
    if (plan.attribution?.unavailable)
      lines.push(`_Who changed it: unknown, ${slackEscape(plan.attribution.unavailable)}._`);
  }
  for (const i of (r.issues ?? []).slice(0, 20))
    lines.push(`• \`${slackEscape(`${i.file}:${i.line}:${i.column}`)}\` ${slackEscape(i.message)}`);
  for (const v of r.violations ?? []) lines.push(`• [${slackEscape(v.rule)}] ${slackEscape(v.message)}`);
  // Why the run failed when objects are blocked: each one, where the manifest writes it.
  if (d.event === 'apply_failed')
    for (const b of (plan?.blocked ?? []).slice(0, 20)) {
      const at = b.source ? `\`${slackEscape(`${b.source.file}:${b.source.line}:${b.source.column}`)}\` ` : '';
      lines.push(`• blocked ${slackEscape(`${b.kind} ${b.org}/${b.key}`)}: ${at}${slackEscape(b.message)}`);
    }
  if (d.event === 'awaiting_approval' && r.approval)
    lines.push(
      `Approve exactly this plan: \`/docops approve ${r.approval.checksum}\` (a pull-request comment by an approver) or POST /approve.`,
    );
  const error = errorSentence(d, r);
  if (error !== undefined) lines.push(slackEscape(error));
  if (c.statusUrl) lines.push(`<${c.statusUrl}|Status page>`);
  return { text: lines.join('\n') };
}
