/**
 * A step as one line for logs: `~ Members org-demo/frank@acme.test  role: "read" → "comment"` — the symbol and
 * object the plan shows, then, for an update, its field changes as the text plan writes them (secret-looking fields
 * masked, values cut); for a create, the fields it sets. All cut to `max` characters.
 */
import type { Step } from '../model/plan.js';
import { ACTION_SYMBOL, fieldChanges, formatStepField, stepLabel } from './values.js';

const VALUE_MAX = 60;

export function stepLine(step: Step, max = 240): string {
  const head = `${ACTION_SYMBOL[step.action]} ${stepLabel(step)}`;
  const changes =
    step.action === 'update'
      ? fieldChanges(step.before, step.after).map(
          (ch) =>
            `${ch.field}: ${formatStepField(step, ch.field, ch.before, VALUE_MAX)} → ${formatStepField(step, ch.field, ch.after, VALUE_MAX)}`,
        )
      : step.action === 'create'
        ? Object.entries(step.after ?? {}).map(
            ([field, value]) => `${field}: ${formatStepField(step, field, value, VALUE_MAX)}`,
          )
        : [];
  const line = changes.length > 0 ? `${head}  ${changes.join(', ')}` : head;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
