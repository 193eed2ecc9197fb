/**
 * The gate's view of ownership modes (src/engine/modes.ts): a step the plan would send must be one its mode allows —
 * nothing in observe, no delete (nor a create or update that deletes along, `cascades`) in additive. The diff
 * never plans such a step; the rule holds the line for a plan that did not come from it (an edited plan file, a
 * bug), and `--force` does not lift it. Reported changes are no steps, so no threshold ever counts them.
 */
import type { Plan } from '../model/plan.js';
import type { SafetyViolation } from './rules.js';

export function modeViolations(plan: Plan): SafetyViolation[] {
  const out: SafetyViolation[] = [];
  for (const s of plan.steps) {
    if (s.mode === undefined || s.mode === 'authoritative') continue;
    const deletes = s.action === 'delete' || (s.cascades ?? []).length > 0;
    if (s.mode === 'additive' && !deletes) continue;
    const what = s.mode === 'observe' ? 'writes' : 'deletes';
    out.push({
      rule: 'mode',
      kind: s.kind,
      org: s.org,
      overridable: false,
      message: `${s.kind} in ${s.org}: step ${s.id} ${what}, which its ownership mode ${s.mode} never does. --force does not lift this; make the plan again (a plan docops computes never holds such a step).`,
    });
  }
  return out;
}
