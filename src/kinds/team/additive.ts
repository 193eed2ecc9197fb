/**
 * Team in additive mode (src/engine/modes.ts): a team's member-list step adds, removes and changes roles in one PUT
 * (`{add, remove, memberships}`); without its `remove` it adds and changes roles only, leaving every member no
 * manifest lists in the team. The memberships it no longer removes are reported by the core from its cascades.
 */
import type { Step } from '../../model/plan.js';
import { isRecord } from '../common.js';

/** The step without its removals; null when removing was all it did. */
export function teamWithoutDeletes(step: Step): Step | null {
  const requests = step.requests.map((r) => {
    if (!isRecord(r.body) || !('remove' in r.body)) return r;
    const { remove: _remove, ...body } = r.body;
    return { ...r, body };
  });
  if (requests.every((r) => isRecord(r.body) && Object.keys(r.body).length === 0)) return null;
  // before/after list each member the step touches; a removed one has `after: null`.
  const removed = new Set(
    Object.entries(membersOf(step.after))
      .filter(([, role]) => role === null)
      .map(([email]) => email),
  );
  const keep = (side: Record<string, unknown> | null): Record<string, unknown> | null =>
    side && {
      ...side,
      members: Object.fromEntries(Object.entries(membersOf(side)).filter(([email]) => !removed.has(email))),
    };
  const { cascades: _cascades, note: _note, ...rest } = step;
  return { ...rest, before: keep(step.before), after: keep(step.after), requests };
}

function membersOf(side: Record<string, unknown> | null): Record<string, unknown> {
  const m = side?.['members'];
  return isRecord(m) ? m : {};
}
