/**
 * The words of a drift proposal's pull request: what changed in the app, who changed it and when (the audit
 * events the plan was annotated with, src/audit), which files the edit touches, what merging and closing do.
 * Values come from the plan's before/after, which never hold secrets (secret-looking fields masked).
 */
import type { Plan, Step } from '../../model/plan.js';
import { escapeMarkdown } from '../../render/markdown.js';
import { fieldChanges, formatStepField, stepLabel } from '../../render/values.js';
import type { Adoption } from './adopt.js';

export const PROPOSAL_TITLE = 'docops: adopt changes made in GitBook';

const VALUE_MAX = 80;

/** What the app made of the object (the manifests' value → the live one): the reverse of the step docops would send. */
function madeInApp(step: Step): string {
  if (step.action === 'create') return 'deleted in the app';
  if (step.action === 'delete') return 'created in the app';
  const changes = fieldChanges(step.before, step.after).map(
    (ch) =>
      `${ch.field}: ${formatStepField(step, ch.field, ch.after, VALUE_MAX)} → ${formatStepField(step, ch.field, ch.before, VALUE_MAX)}`,
  );
  return changes.join(', ') || 'changed in the app';
}

export function proposalBody(plan: Plan, adoption: Adoption, files: readonly string[], fingerprint: string): string {
  const by = new Map((plan.attribution?.changes ?? []).map((c) => [c.step, c]));
  const row = (s: Step): string => {
    const who = by.get(s.id);
    const cell = who ? `${who.actor}, ${who.at}` : 'unknown';
    return `| ${escapeMarkdown(stepLabel(s))} | ${escapeMarkdown(madeInApp(s))} | ${escapeMarkdown(cell)} |`;
  };
  const lines = [
    'Someone changed the GitBook organization in the app, and the manifests do not say so yet. docops keeps these changes (this kind runs with `drift: propose`) and proposes them here, in their exported form, as a minimal edit of the manifests.',
    '',
    '- **Merge** to make git agree with the organization.',
    '- **Close without merging** to have docops revert the changes on its next run.',
    '',
    'docops updates this pull request in place while the drift lasts, and closes it when the drift is gone.',
    '',
    '| Object | Change made in the app (manifests → live) | Changed by |',
    '|---|---|---|',
    ...adoption.adopted.map(row),
    '',
    `Files: ${files.map((f) => `\`${f}\``).join(', ')}`,
  ];
  if (plan.attribution?.unavailable)
    lines.push('', `Who changed it: unknown, ${escapeMarkdown(plan.attribution.unavailable)}.`);
  if (adoption.skipped.length > 0) {
    lines.push('', 'Kept, but not written here (edit the manifests by hand, or close to revert):', '');
    for (const x of adoption.skipped)
      lines.push(`- ${escapeMarkdown(`${stepLabel(x.step)}: ${madeInApp(x.step)} (${x.why})`)}`);
  }
  lines.push('', `<!-- docops:drift ${fingerprint} -->`);
  return lines.join('\n');
}
