/**
 * The steps of one desired team (diff.ts decides which): its create (PUT with the existing org members' ids, then
 * one bulk membership PUT for owners and members invited in this plan), its rename by pinned id (PATCH), and all
 * its membership changes in ONE bulk PUT {add, remove, memberships}.
 */
import type { DesiredEntry } from '../../model/kind.js';
import type { Step } from '../../model/plan.js';
import { isRef, ref, refsIn } from '../../model/refs.js';
import { deletesAllNote, seg, stepId } from '../common.js';
import { createRequest, createStep, updateStep, type TitledScope } from '../titled.js';
import { recoverByKey } from '../recover.js';
import { TEAM_MEMBER_KIND, membershipKey } from '../team-cascades.js';
import {
  TEAM_DEPTH,
  TEAM_KIND,
  teamsPath,
  type LiveTeamMember,
  type TeamAux,
  type TeamMemberSpec,
  type TeamObject,
  type TeamSpec,
} from './model.js';

/** How a team member e-mail is addressed in requests. */
type MemberRef =
  | { state: 'live'; id: string }
  /** Invited in this plan: addressed by e-mail once the invite step ran. */
  | { state: 'pending'; email: string; dependsOn: string[] }
  | { state: 'unknown' };

/** What creating and updating the teams of one (org) diff share. */
export type TeamScope = TitledScope<TeamSpec, TeamObject> & { aux: TeamAux | undefined };

export function resolveMember({ ctx, org, aux }: Pick<TeamScope, 'ctx' | 'org' | 'aux'>, email: string): MemberRef {
  const r = ctx.resolve('Members', org, email);
  if (r !== undefined && isRef(r)) return { state: 'pending', email, dependsOn: refsIn(r).map((x) => x.stepId) };
  const id = r ?? aux?.orgMembers?.[email];
  return id === undefined ? { state: 'unknown' } : { state: 'live', id };
}

/** `{email: role}` of the given members, for before/after. */
const roles = (ms: readonly { email: string; role: string }[]): Record<string, string> =>
  Object.fromEntries(ms.map((m) => [m.email, m.role]));

/** A member diff.ts's `blockUnknownMembers` let through. */
function known(
  r: MemberRef,
  entry: DesiredEntry<TeamSpec>,
  m: TeamMemberSpec,
): Exclude<MemberRef, { state: 'unknown' }> {
  if (r.state === 'unknown')
    throw new Error(`internal: ${m.email} of team "${entry.key}" resolves to nothing, but the team was not blocked`);
  return r;
}

export function createSteps(scope: TeamScope, entry: DesiredEntry<TeamSpec>, liveTeams: readonly TeamObject[]): Step[] {
  const { org } = scope;
  const spec = entry.spec;
  const createId = stepId(TEAM_KIND, org, entry.key, 'create');
  const body: Record<string, unknown> = { title: spec.title };
  const after: Record<string, unknown> = { title: spec.title };
  const ids: string[] = [];
  const add: string[] = [];
  const memberships: Record<string, { role: 'owner' }> = {};
  const dependsOn: string[] = [createId];
  const included: TeamMemberSpec[] = [];
  for (const m of spec.members ?? []) {
    const r = known(resolveMember(scope, m.email), entry, m);
    included.push(m);
    if (r.state === 'live') ids.push(r.id);
    else {
      add.push(r.email);
      dependsOn.push(...r.dependsOn);
    }
    if (m.role === 'owner') memberships[r.state === 'live' ? r.id : r.email] = { role: 'owner' };
  }
  if (spec.members) {
    body['members'] = ids;
    after['members'] = roles(included);
  }
  const recover = recoverByKey(liveTeams, spec.title);
  const steps = [createStep(scope, entry, { after, requests: [createRequest(teamsPath(org), body, recover, 'PUT')] })];
  if (add.length > 0 || Object.keys(memberships).length > 0) {
    const bulk: Record<string, unknown> = {};
    if (add.length > 0) bulk['add'] = add;
    if (Object.keys(memberships).length > 0) bulk['memberships'] = memberships;
    const touched = included.filter((m) => m.role === 'owner' || add.includes(m.email));
    steps.push(
      createStep(scope, entry, {
        suffix: 'members',
        // One wave after the create: it needs the new team's id.
        wave: TEAM_DEPTH + 1,
        after: { members: roles(touched) },
        requests: [{ method: 'PUT', path: `${teamsPath(org)}/${ref(createId)}/members`, body: bulk }],
        dependsOn,
        note: 'owners and members invited in this plan',
      }),
    );
  }
  return steps;
}

export function updateSteps(scope: TeamScope, entry: DesiredEntry<TeamSpec>, current: TeamObject): Step[] {
  const spec = entry.spec;
  const have = current.fields;
  const steps: Step[] = [];
  if (have.title !== spec.title) {
    steps.push(
      updateStep(scope, entry, {
        before: { title: have.title },
        after: { title: spec.title },
        requests: [{ method: 'PATCH', path: teamPath(scope, current), body: { title: spec.title } }],
        note: `rename team ${current.id}`,
      }),
    );
  }
  if (!spec.members) return steps;
  if (!have.members) throw new Error(`members of team ${current.id} were not fetched (bug in Team.fetch)`);
  const step = membersStep(scope, entry, current, memberChanges(scope, entry, spec.members, have.members));
  return step ? [...steps, step] : steps;
}

const teamPath = ({ org }: TeamScope, team: TeamObject): string => `${teamsPath(org)}/${seg(team.id)}`;

/** What a team's one bulk membership PUT changes, and what its step shows. */
interface MemberChanges {
  add: string[];
  remove: string[];
  /** E-mails of the members removed. */
  removed: string[];
  memberships: Record<string, { role: string }>;
  dependsOn: string[];
  before: Record<string, string | null>;
  after: Record<string, string | null>;
}

function memberChanges(
  scope: TeamScope,
  entry: DesiredEntry<TeamSpec>,
  members: readonly TeamMemberSpec[],
  have: readonly LiveTeamMember[],
): MemberChanges {
  const liveByEmail = new Map(have.map((m) => [m.email, m]));
  const wanted = new Set(members.map((m) => m.email));
  const c: MemberChanges = { add: [], remove: [], removed: [], memberships: {}, dependsOn: [], before: {}, after: {} };
  for (const m of members) {
    const l = liveByEmail.get(m.email);
    if (l) {
      if (l.role === m.role) continue;
      c.memberships[l.userId] = { role: m.role };
    } else {
      const r = known(resolveMember(scope, m.email), entry, m);
      const who = r.state === 'live' ? r.id : r.email;
      c.add.push(who);
      if (r.state === 'pending') c.dependsOn.push(...r.dependsOn);
      if (m.role === 'owner') c.memberships[who] = { role: 'owner' };
    }
    c.before[m.email] = l?.role ?? null;
    c.after[m.email] = m.role;
  }
  for (const l of have) {
    if (wanted.has(l.email)) continue;
    c.remove.push(l.userId);
    c.removed.push(l.email);
    c.before[l.email] = l.role;
    c.after[l.email] = null;
  }
  return c;
}

/** The one bulk PUT {add, remove, memberships} of a team's member changes; undefined when there are none. */
function membersStep(
  scope: TeamScope,
  entry: DesiredEntry<TeamSpec>,
  current: TeamObject,
  c: MemberChanges,
): Step | undefined {
  const { add, remove, removed, memberships } = c;
  if (add.length + remove.length + Object.keys(memberships).length === 0) return undefined;
  const body: Record<string, unknown> = {};
  if (add.length > 0) body['add'] = add;
  if (remove.length > 0) body['remove'] = remove;
  if (Object.keys(memberships).length > 0) body['memberships'] = memberships;
  const note =
    removed.length === current.fields.members?.length
      ? deletesAllNote(removed.length, `the member list of team "${entry.key}"`, TEAM_MEMBER_KIND, entry.doc)
      : undefined;
  const step = updateStep(scope, entry, {
    suffix: 'members',
    before: { members: c.before },
    after: { members: c.after },
    requests: [{ method: 'PUT', path: `${teamPath(scope, current)}/members`, body }],
    dependsOn: c.dependsOn,
    ...(note !== undefined ? { note } : {}),
  });
  // The memberships it removes are deletes of their own kind: the safety gate counts them against the team's list.
  const { org } = scope;
  if (removed.length > 0)
    step.cascades = removed.map((email) => ({ kind: TEAM_MEMBER_KIND, org, key: membershipKey(current.key, email) }));
  return step;
}
