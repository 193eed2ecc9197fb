/**
 * How the renderers say who made the drift a step reverts (Plan.attribution, src/audit): one line under the step,
 * one line for the plan when the audit events could not be read, and a sentence for notifications and the
 * status page ("role of bob@acme.test changed to admin by carol@acme.test at 2026-11-24 10:02 UTC").
 */
import { originOf, type AttributedChange, type Plan, type Step } from '../model/plan.js';
import { fieldChanges, formatStepField, isSecretField } from './values.js';

export function changeOf(plan: Plan, step: Step): AttributedChange | undefined {
  return plan.attribution?.changes.find((c) => c.step === step.id);
}

/** `2026-11-24 10:02 UTC` (the ISO text as it is when it does not parse). */
export function formatAt(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Under a step: `changed by carol@acme.test at 2026-11-24 10:02 UTC (member.updated)`. */
export function changedByLine(c: AttributedChange): string {
  return `changed by ${c.actor} at ${formatAt(c.at)} (${c.action})`;
}

/** The plan-level line when the events could not be read. */
export function unavailableLine(plan: Plan): string | undefined {
  const u = plan.attribution?.unavailable;
  return u === undefined ? undefined : `Who changed it: unknown, ${u}.`;
}

/** A value in a sentence: a string as it is (short), anything else as the renderers show it. */
function plain(step: Step, field: string, value: unknown): string {
  if (value === undefined) return '(unset)';
  if (typeof value === 'string' && !isSecretField(field)) return value.length > 120 ? `${value.slice(0, 119)}…` : value;
  return formatStepField(step, field, value, 120);
}

/**
 * What happened live, as a sentence: the live value someone set (a step's `before`) is what changed. Updates name
 * their fields; a create means the object is gone, a delete (prune) that it appeared.
 */
export function driftSentence(step: Step, c?: AttributedChange): string {
  const by = c ? ` by ${c.actor} at ${formatAt(c.at)}` : '';
  if (step.action === 'update') {
    const changes = fieldChanges(step.before, step.after);
    const what =
      changes.length === 0
        ? `${step.key} changed`
        : changes.map((ch) => `${ch.field} of ${step.key} changed to ${plain(step, ch.field, ch.before)}`).join(', ');
    return `${step.kind} ${what}${by}`;
  }
  if (step.action === 'create') return `${step.kind} ${step.key} is missing${c ? ` (deleted${by})` : ''}`;
  return `${step.kind} ${step.key} is not in any manifest${c ? ` (last changed${by})` : ''}`;
}

/**
 * A step as a sentence, by what caused it: a manifest edit reads old → new (`Team Platform: title "Platform" →
 * "Platform Engineering" (manifest change)`), drift reads as what someone did live (driftSentence), and a step
 * nobody can place reads live → manifests, or as drift when the audit events name who changed it.
 */
export function stepSentence(plan: Plan, step: Step): string {
  const origin = originOf(plan, step);
  const by = origin === 'manifests' ? undefined : changeOf(plan, step);
  if (origin === 'drift' || by) return driftSentence(step, by);
  if (step.action === 'update') {
    const changes = fieldChanges(step.before, step.after).map(
      (ch) => `${ch.field} ${plain(step, ch.field, ch.before)} → ${plain(step, ch.field, ch.after)}`,
    );
    const what = changes.length === 0 ? 'changes' : changes.join(', ');
    return `${step.kind} ${step.key}: ${what}${origin === 'manifests' ? ' (manifest change)' : ''}`;
  }
  if (origin === 'manifests')
    return `${step.kind} ${step.key} ${step.action === 'create' ? 'added in' : 'removed from'} the manifests`;
  return driftSentence(step);
}
