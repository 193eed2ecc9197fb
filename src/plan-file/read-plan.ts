/**
 * The reader of a plan's JSON form (src/render/json.ts prints it): schemas/plan.schema.json's validator, so a saved
 * or hand-edited plan is read back as the plan it says it is only when the schema holds, and every problem is
 * reported with its path (plan-problems.ts says them). It also accepts a saved-plan file and returns the plan inside
 * it. What no schema can say — step ids unique, each dependsOn naming a step — is checked here.
 */
import { planSchema } from '../model/format-schemas.js';
import { UsageError } from '../model/errors.js';
import type { Plan } from '../model/plan.js';
import { compileSchema } from '../manifests/schema.js';
import { schemaProblems } from './plan-problems.js';
import { isRecord } from '../model/json.js';

/** Parse and validate a JSON plan; throws UsageError listing every problem found. */
export function parsePlanJson(text: string): Plan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`plan is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  // A saved-plan file (`docops plan --out`, saved-plan.ts) reads as the plan it carries.
  if (isRecord(data) && typeof data['planChecksum'] === 'string' && 'plan' in data) data = data['plan'];
  return readPlan(data);
}

/** `data` (parsed JSON) as a plan, when it is one; throws UsageError listing every problem found. */
export function readPlan(data: unknown): Plan {
  if (isRecord(data)) {
    // Derived from the plan when printed (renderJson's `scopes` and `policy`), never read back.
    delete data['scopes'];
    delete data['policy'];
    // Plans saved before blocked objects existed have none.
    data['blocked'] ??= [];
  }
  const validate = compileSchema(planSchema());
  const valid = validate(data);
  const problems = [...schemaProblems(valid ? [] : (validate.errors ?? []), data), ...stepReferenceProblems(data)];
  if (valid && problems.length === 0) return data as Plan;
  const shown = problems.slice(0, 20);
  const more = problems.length > shown.length ? `\n… and ${problems.length - shown.length} more` : '';
  throw new UsageError(`not a valid docops plan:\n${shown.join('\n')}${more}`);
}

/** Step ids are unique, and a step depends only on steps of the plan. */
function stepReferenceProblems(data: unknown): string[] {
  const steps = isRecord(data) && Array.isArray(data['steps']) ? data['steps'].filter(isRecord) : [];
  const problems: string[] = [];
  const ids = new Set<unknown>();
  for (const st of steps) {
    if (ids.has(st['id'])) problems.push(`plan.steps: duplicate step id ${String(st['id'])}`);
    ids.add(st['id']);
  }
  for (const st of steps) {
    const dependsOn: unknown = st['dependsOn'];
    for (const d of Array.isArray(dependsOn) ? dependsOn : [])
      if (!ids.has(d)) problems.push(`plan.steps[${String(st['id'])}].dependsOn: unknown step ${String(d)}`);
  }
  return problems;
}
