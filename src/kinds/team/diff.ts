/**
 * Team diff (pure). Per desired team: create (PUT with the existing org members' ids, then one bulk
 * membership PUT when owners or members invited in this plan are involved), rename by pinned id (PATCH),
 * and ALL membership changes of one team in ONE bulk PUT {add, remove, memberships}. Live teams no manifest
 * mentions are listed as unmanaged, or deleted under prune.
 *
 * A member e-mail that is neither an organization member nor invited in this plan (a Members entry with
 * `invite: true`, or with --invite) blocks the team: a team is never applied without some of its members.
 * A team an `access:` list names (by title or id) is never pruned: its delete is blocked instead.
 */
import type { SourcePos } from '../../model/errors.js';
import type { DesiredEntry, DiffContext, DiffResult } from '../../model/kind.js';
import type { Step } from '../../model/plan.js';
import { isRef, ref, refsIn } from '../../model/refs.js';
import { accessNote, knownGrants, teamsNamedByAccess } from '../access/cascades.js';
import { blockEntry, deletesAllNote, identityTitle, makeStep, plainSource, seg, stepId, uniqueLiveKey, unmatchedLive, withDisplayKeys } from '../common.js';
import { matchByIdOrTitle } from '../match.js';
import { recoverByKey } from '../recover.js';
import { losingTeamNote, providersLosingTeam } from '../saml/team-ref.js';
import { TEAM_MEMBER_KIND, membershipKey, teamCascades } from './cascades.js';
import { TEAM_DEPTH, TEAM_KIND, teamsPath, type TeamAux, type TeamMemberSpec, type TeamObject, type TeamSpec, type TeamState } from './model.js';

/** How a team member e-mail is addressed in requests. */
type MemberRef =
  | { state: 'live'; id: string }
  /** Invited in this plan: addressed by e-mail once the invite step ran. */
  | { state: 'pending'; email: string; dependsOn: string[] }
  | { state: 'unknown' };

/** What creating and updating the teams of one (org) diff share. */
interface TeamScope {
  ctx: DiffContext;
  org: string;
  aux: TeamAux | undefined;
}

function resolveMember({ ctx, org, aux }: TeamScope, email: string): MemberRef {
  const r = ctx.resolve('Members', org, email);
  if (r !== undefined && isRef(r)) return { state: 'pending', email, dependsOn: refsIn(r).map((x) => x.stepId) };
  const id = r ?? aux?.orgMembers?.[email];
  return id === undefined ? { state: 'unknown' } : { state: 'live', id };
}

/** `{email: role}` of the given members, for before/after. */
const roles = (ms: readonly { email: string; role: string }[]): Record<string, string> => Object.fromEntries(ms.map((m) => [m.email, m.role]));

export function diffTeams(ctx: DiffContext, org: string, entries: DesiredEntry<TeamSpec>[], live: TeamState): DiffResult {
  const desired = withDisplayKeys(entries);
  const result: DiffResult = { steps: [], unmanaged: [], warnings: [], blocked: [] };
  const aux = live.aux;
  const { matched, unmatched, stalePins } = matchByIdOrTitle(TEAM_KIND, desired, live.objects);
  for (const e of stalePins) {
    result.warnings.push({ kind: TEAM_KIND, org, key: e.key, message: `pinned id ${e.id} does not exist; matched by title instead` });
  }

  const scope: TeamScope = { ctx, org, aux };

  for (const entry of desired) {
    const current = matched.get(entry);
    if (blockUnknownMembers(scope, result, entry, current)) continue;
    if (current) {
      result.steps.push(...updateSteps(scope, entry, current));
      ctx.register(TEAM_KIND, org, entry.key, current.id);
    } else {
      result.steps.push(...createSteps(scope, entry, live.objects));
      ctx.register(TEAM_KIND, org, entry.key, ref(stepId(TEAM_KIND, org, entry.key, 'create')));
    }
  }

  // A rename onto the title of a team that stays would make titles ambiguous for the next plan.
  if (!ctx.prune(TEAM_KIND, org)) {
    for (const [entry, current] of matched) {
      const title = identityTitle(entry);
      const clash = current.key !== title && unmatched.find((o) => o.key === title);
      if (clash) result.warnings.push({ kind: TEAM_KIND, org, key: entry.key, message: `live team ${clash.id} already has this title` });
    }
  }

  const prune = ctx.prune(TEAM_KIND, org);
  const key = uniqueLiveKey(unmatched);
  const grants = (o: TeamObject) => knownGrants(ctx, org, 'team', o.id);
  unmatchedLive(result, {
    kind: TEAM_KIND,
    org,
    prune,
    objects: prune ? pruneTeams(ctx, org, unmatched, key, result) : unmatched,
    key,
    wave: () => TEAM_DEPTH,
    path: (o) => `${teamsPath(org)}/${seg(o.id)}`,
    before: (o) => ({ title: o.key }),
    note: (o) => {
      const pruned = aux?.pruned?.[o.id];
      const notes = [accessNote(pruned?.spaces, grants(o), 'its'), losingTeamNote(providersLosingTeam(ctx, org, pruned?.saml ?? []))].filter((n) => n !== undefined);
      return notes.length > 0 ? notes.join('; ') : undefined;
    },
    // Its memberships, and its grants on the objects whose access lists this plan read.
    cascades: (o) => [...teamCascades(org, o, aux?.pruned?.[o.id]), ...grants(o).cascades],
  });
  return result;
}

/**
 * The unmatched teams a prune deletes: all but those an access list names (by id or title), whose delete would
 * take the grant the list asks for — each of those is a blocked object naming where the list names it.
 */
function pruneTeams(ctx: DiffContext, org: string, unmatched: TeamObject[], key: (o: TeamObject) => string, result: DiffResult): TeamObject[] {
  const named = teamsNamedByAccess(ctx, org);
  if (named.size === 0) return unmatched;
  return unmatched.filter((o) => {
    const at = named.get(o.id) ?? named.get(o.key);
    if (!at) return true;
    result.blocked.push({
      kind: TEAM_KIND,
      org,
      key: key(o),
      message: `not deleted (prune): an access list grants it a role (${at.file}:${at.line}:${at.column}), and the grant would go with the team; describe the team in a Team manifest, or take it out of that access list`,
      source: plainSource(at),
    });
    return false;
  });
}

const at = (p: SourcePos): string => `${p.file}:${p.line}:${p.column}`;

/**
 * Block a team that lists an e-mail no member or invite of this plan stands for (members already in the live
 * team need no resolving). True when blocked: the caller then plans and registers nothing for the team.
 */
function blockUnknownMembers(scope: TeamScope, result: DiffResult, entry: DesiredEntry<TeamSpec>, current: TeamObject | undefined): boolean {
  const spec = entry.spec;
  const inTeam = new Set((current?.fields.members ?? []).map((m) => m.email));
  const unknown = (spec.members ?? []).filter((m) => !inTeam.has(m.email) && resolveMember(scope, m.email).state === 'unknown');
  const [first, ...more] = unknown.map((m) => ({ email: m.email, pos: entry.doc.pos(m.at) }));
  if (!first) return false;
  const others = more.length > 0 ? `; also ${more.map((m) => `${m.email} (${at(m.pos)})`).join(', ')}` : '';
  blockEntry(
    result,
    entry,
    first.pos,
    `${first.email} is not an organization member and is not invited in this plan${others}; ` +
      'add them to a Members document with invite: true (or invite them) before listing them in a team',
  );
  return true;
}

/** A member `blockUnknownMembers` let through. */
function known(r: MemberRef, entry: DesiredEntry<TeamSpec>, m: TeamMemberSpec): Exclude<MemberRef, { state: 'unknown' }> {
  if (r.state === 'unknown') throw new Error(`internal: ${m.email} of team "${entry.key}" resolves to nothing, but the team was not blocked`);
  return r;
}

function createSteps(scope: TeamScope, entry: DesiredEntry<TeamSpec>, liveTeams: readonly TeamObject[]): Step[] {
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
  const steps = [
    makeStep({
      id: createId,
      action: 'create',
      phase: 'create',
      kind: TEAM_KIND,
      org,
      key: entry.key,
      wave: TEAM_DEPTH,
      before: null,
      after,
      requests: [{ method: 'PUT', path: teamsPath(org), body, capture: { id: 'id' }, recover: recoverByKey(liveTeams, spec.title) }],
      entry,
    }),
  ];
  if (add.length > 0 || Object.keys(memberships).length > 0) {
    const bulk: Record<string, unknown> = {};
    if (add.length > 0) bulk['add'] = add;
    if (Object.keys(memberships).length > 0) bulk['memberships'] = memberships;
    const touched = included.filter((m) => m.role === 'owner' || add.includes(m.email));
    steps.push(
      makeStep({
        id: stepId(TEAM_KIND, org, entry.key, 'members'),
        action: 'create',
        phase: 'create',
        kind: TEAM_KIND,
        org,
        key: entry.key,
        // One wave after the create: it needs the new team's id.
        wave: TEAM_DEPTH + 1,
        before: null,
        after: { members: roles(touched) },
        requests: [{ method: 'PUT', path: `${teamsPath(org)}/${ref(createId)}/members`, body: bulk }],
        dependsOn,
        entry,
        note: 'owners and members invited in this plan',
      }),
    );
  }
  return steps;
}

function updateSteps(scope: TeamScope, entry: DesiredEntry<TeamSpec>, current: TeamObject): Step[] {
  const { org } = scope;
  const spec = entry.spec;
  const have = current.fields;
  const teamPath = `${teamsPath(org)}/${seg(current.id)}`;
  const steps: Step[] = [];
  if (have.title !== spec.title) {
    steps.push(
      makeStep({
        id: stepId(TEAM_KIND, org, entry.key, 'update'),
        action: 'update',
        phase: 'update',
        kind: TEAM_KIND,
        org,
        key: entry.key,
        wave: TEAM_DEPTH,
        before: { title: have.title },
        after: { title: spec.title },
        requests: [{ method: 'PATCH', path: teamPath, body: { title: spec.title } }],
        entry,
        note: `rename team ${current.id}`,
      }),
    );
  }
  if (!spec.members) return steps;
  if (!have.members) throw new Error(`members of team ${current.id} were not fetched (bug in Team.fetch)`);

  const liveByEmail = new Map(have.members.map((m) => [m.email, m]));
  const wanted = new Set(spec.members.map((m) => m.email));
  const add: string[] = [];
  const remove: string[] = [];
  const removed: string[] = [];
  const memberships: Record<string, { role: string }> = {};
  const dependsOn: string[] = [];
  const before: Record<string, string | null> = {};
  const after: Record<string, string | null> = {};
  for (const m of spec.members) {
    const l = liveByEmail.get(m.email);
    if (l) {
      if (l.role === m.role) continue;
      memberships[l.userId] = { role: m.role };
    } else {
      const r = known(resolveMember(scope, m.email), entry, m);
      const who = r.state === 'live' ? r.id : r.email;
      add.push(who);
      if (r.state === 'pending') dependsOn.push(...r.dependsOn);
      if (m.role === 'owner') memberships[who] = { role: 'owner' };
    }
    before[m.email] = l?.role ?? null;
    after[m.email] = m.role;
  }
  for (const l of have.members) {
    if (wanted.has(l.email)) continue;
    remove.push(l.userId);
    removed.push(l.email);
    before[l.email] = l.role;
    after[l.email] = null;
  }
  if (add.length + remove.length + Object.keys(memberships).length === 0) return steps;

  const body: Record<string, unknown> = {};
  if (add.length > 0) body['add'] = add;
  if (remove.length > 0) body['remove'] = remove;
  if (Object.keys(memberships).length > 0) body['memberships'] = memberships;
  const note = removed.length === have.members.length ? deletesAllNote(removed.length, `the member list of team "${entry.key}"`, TEAM_MEMBER_KIND, entry.doc) : undefined;
  const step = makeStep({
    id: stepId(TEAM_KIND, org, entry.key, 'members'),
    action: 'update',
    phase: 'update',
    kind: TEAM_KIND,
    org,
    key: entry.key,
    wave: TEAM_DEPTH,
    before: { members: before },
    after: { members: after },
    requests: [{ method: 'PUT', path: `${teamPath}/members`, body }],
    dependsOn,
    entry,
    ...(note !== undefined ? { note } : {}),
  });
  // The memberships it removes are deletes of their own kind: the safety gate counts them against the team's list.
  if (removed.length > 0) step.cascades = removed.map((email) => ({ kind: TEAM_MEMBER_KIND, org, key: membershipKey(current.key, email) }));
  steps.push(step);
  return steps;
}
