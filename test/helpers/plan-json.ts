import { parsePlanJson } from '../../src/plan-file/read-plan.js';

/** What the plan reader says of `doc` (a plan's JSON form, edited by a test); '' when it reads it without a word. */
export function planJsonProblems(doc: unknown): string {
  try {
    parsePlanJson(JSON.stringify(doc));
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}
