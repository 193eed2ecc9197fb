/**
 * Guards for organization members, for the Members kind's `guard` hook: a plan never removes or demotes
 * the last admin, and never removes or demotes the token's own user — either would lock docops (and
 * possibly everyone) out of the organization, and no later run could repair it. Not overridable.
 *
 * Reads only the plan's Members steps of the org (delete/prune = removal, update with `after.role` = role
 * change) and the live members' `role` field; invited members are not counted as admins, since they only
 * become members when they accept.
 */
import type { Plan } from '../../model/plan.js';
import { MEMBERS_KIND, type MembersState } from './model.js';

/** Role levels, highest first; null (guest) is the lowest. */
const RANK: Record<string, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1 };
const rank = (role: unknown): number => (typeof role === 'string' ? (RANK[role] ?? 0) : 0);
/** A role a newer API added: docops cannot tell whether a change from it takes rights away. */
const unknownRole = (role: unknown): boolean => typeof role === 'string' && !Object.hasOwn(RANK, role);
const show = (role: unknown): string => (role === null || role === undefined ? 'no role' : String(role));

interface Outcome {
  email: string;
  before: unknown;
  /** Undefined when the plan removes the member. */
  after: unknown;
  removed: boolean;
}

export function memberGuards(
  plan: Plan,
  live: MembersState,
  org: string,
  whoami: { id: string; email?: string } | undefined,
): string[] {
  const members = live.objects.filter((o) => o.kind === MEMBERS_KIND && o.org === org);
  const outcome = new Map<string, Outcome>();
  for (const m of members) {
    outcome.set(m.key, { email: m.fields.email, before: m.fields.role, after: m.fields.role, removed: false });
  }
  for (const s of plan.steps) {
    if (s.kind !== MEMBERS_KIND || s.org !== org) continue;
    const o = outcome.get(s.key);
    if (!o) continue;
    if (s.phase === 'delete' || s.phase === 'prune') {
      o.removed = true;
      o.after = undefined;
    } else if (s.phase === 'update' && s.after && 'role' in s.after) {
      o.after = s.after['role'];
    }
  }

  const messages: string[] = [];
  const admins = [...outcome.values()].filter((o) => o.before === 'admin');
  const adminsAfter = [...outcome.values()].filter((o) => !o.removed && o.after === 'admin').length;
  if (admins.length > 0 && adminsAfter === 0) {
    const what = admins
      .map((o) => (o.removed ? `removes ${o.email}` : `demotes ${o.email} to ${show(o.after)}`))
      .join(', ');
    messages.push(
      `never removes or demotes the last admin: the plan leaves the organization without an admin (${what}); keep at least one admin in the Members manifest`,
    );
  }

  if (whoami) {
    const email = whoami.email?.toLowerCase();
    const self =
      members.find((m) => m.id === whoami.id) ??
      (email === undefined ? undefined : members.find((m) => m.key === email));
    const o = self ? outcome.get(self.key) : undefined;
    if (o?.removed) {
      messages.push(
        `never removes the token's own user (${o.email}): docops would lock itself out of the organization; keep them in the Members manifest, or apply with another admin's token`,
      );
    } else if (o && o.after !== o.before && unknownRole(o.before)) {
      messages.push(
        `never changes the token's own user (${o.email}) from a role docops does not know (${show(o.before)}) to ${show(o.after)}: it may take rights docops runs with; change it in the app, or apply with another admin's token`,
      );
    } else if (o && rank(o.after) < rank(o.before)) {
      messages.push(
        `never demotes the token's own user (${o.email}) from ${show(o.before)} to ${show(o.after)}: docops would lose the rights it runs with; keep their role in the Members manifest, or apply with another admin's token`,
      );
    }
  }
  return messages;
}
