/**
 * Step.nulls: what a null in a step's before/after means in the API, copied by the core from the kind's
 * definition (KindDefinition.nullMeanings) so the renderers, which read only the plan, can say it.
 */
import type { Step } from '../model/plan.js';

/** The step with `nulls` set for the fields its before/after hold null and `meanings` (field → meaning) explains. */
export function withNullMeanings(step: Step, meanings: Readonly<Record<string, string>> | undefined): Step {
  if (!meanings) return step;
  const nulls: Record<string, string> = {};
  for (const side of [step.before, step.after]) {
    for (const [field, value] of Object.entries(side ?? {}))
      if (value === null && meanings[field] !== undefined) nulls[field] = meanings[field];
  }
  return Object.keys(nulls).length > 0 ? { ...step, nulls } : step;
}
