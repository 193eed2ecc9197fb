/**
 * Access list diff (pure), called by the Space, Collection and Site diffs for the objects whose manifest writes
 * `access:`. A written list is the object's complete set of grants, whatever the document's prune setting (as a
 * team's `members`):
 * - new grants: one `POST …/permissions {role, teams, users}` per (object, role), in the create phase, after the
 *   object's create when it is new (the API grants per object: there is no request for several objects);
 * - a different role: one `PATCH …/permissions/{teams|users}/{id} {role}` per grant (a site's null role, an
 *   override without access, is set with the POST: the spec's site PATCH takes a role only);
 * - grants not listed: one `DELETE …/permissions/{teams|users}/{id}` per grant, in the delete phase (counted by
 *   the safety gate per kind, journaled) — except the grants of a team or member this plan deletes: their delete
 *   takes the grant along and lists it as a cascade (src/kinds/access/cascades.ts).
 *
 * References: a team by Team manifest title (a team created in this plan is a ref the grant depends on), live
 * title (two live teams with it: ambiguous), or id; a member by e-mail, through the Members kind, else the live
 * member list. One that resolves to nothing blocks the whole document (`block`, called by the kind before it plans
 * anything of the entry). A member invited in this plan has no user id until they accept the invitation: only
 * that grant is blocked, and the first plan after they joined grants it.
 */
import type { SourcePos } from '../../model/errors.js';
import type { DesiredEntry, DiffContext, DiffResult } from '../../model/kind.js';
import type { RecoverSpec, RequestSpec, Step } from '../../model/plan.js';
import { isRef } from '../../model/refs.js';
import { deletedPrincipals } from './cascades.js';
import { blockEntry, deletesAllNote, makeStep, plainSource, refSteps, seg, stepId } from '../common.js';
import {
  ACCESS_ROLES,
  grantKey,
  principalLabel,
  type AccessAux,
  type AccessEntry,
  type AccessObject,
  type AccessTarget,
  type GrantRole,
  type Principal,
} from './model.js';

type AccessDesired = DesiredEntry<{ access?: AccessEntry[] }>;

/** An entry resolved to the team or user it names. */
interface Resolved {
  entry: AccessEntry;
  id: string;
  /** Steps the id depends on (a team created in this plan). */
  deps: string[];
}

interface Resolution {
  /** What blocks the document, first problem first. */
  problems: { pos: SourcePos; message: string }[];
  grants: Resolved[];
  /** Members invited in this plan: their grants are blocked objects of their own. */
  invited: AccessEntry[];
}

type Lookup =
  { state: 'ok'; id: string; deps: string[] } | { state: 'invited' } | { state: 'unknown'; message: string };

export interface AccessPlanner {
  /**
   * Block the entry when its access list names a team or an e-mail that resolves to nothing (or a principal
   * twice). True when blocked: the kind then plans and registers nothing of the entry.
   */
  block(result: DiffResult, entry: AccessDesired): boolean;
  /**
   * The access steps of every entry that writes `access:` and that neither `block` nor the kind blocked; run
   * after the kind registered its objects' ids (a live id, or a ref to the create step).
   */
  plan(result: DiffResult, entries: readonly AccessDesired[]): void;
}

const at = (p: SourcePos): string => `${p.file}:${p.line}:${p.column}`;
const roleName = (r: GrantRole): string => r ?? 'none';

/** How an access list's team names and e-mails resolve in one organization's diff. */
function lookups(
  ctx: DiffContext,
  org: string,
  aux: AccessAux | undefined,
): { team: (name: string) => Lookup; user: (email: string) => Lookup } {
  const teams = aux?.accessTeams ?? [];
  const members = aux?.accessMembers ?? {};
  return {
    team(name) {
      const titled = teams.filter((t) => t.title === name);
      if (titled.length > 1) {
        return {
          state: 'unknown',
          message: `team "${name}" matches ${titled.length} live teams (${titled.map((t) => t.id).join(', ')}); name the one you mean by id`,
        };
      }
      const known = ctx.resolve('Team', org, name);
      const id = known ?? titled[0]?.id ?? teams.find((t) => t.id === name)?.id;
      if (id !== undefined) return { state: 'ok', id, deps: refSteps(id) };
      return {
        state: 'unknown',
        message: `team "${name}" is no Team manifest, live team title or team id of organization ${org}`,
      };
    },
    user(email) {
      const known = ctx.resolve('Members', org, email);
      if (known !== undefined && isRef(known)) return { state: 'invited' };
      const id = known ?? members[email];
      if (id !== undefined) return { state: 'ok', id, deps: [] };
      return {
        state: 'unknown',
        message: `${email} is not an organization member and is not invited in this plan; add them to a Members document (with invite: true) before granting them access`,
      };
    },
  };
}

/** An entry's access list resolved: its grants, its invited members, and what blocks it. */
function resolveAccess(entry: AccessDesired, lookup: ReturnType<typeof lookups>): Resolution {
  const r: Resolution = { problems: [], grants: [], invited: [] };
  const seen = new Map<string, AccessEntry>();
  for (const a of entry.spec.access ?? []) {
    const pos = entry.doc.pos(a.at);
    const found = a.principal === 'team' ? lookup.team(a.name) : lookup.user(a.name);
    if (found.state === 'unknown') r.problems.push({ pos, message: found.message });
    else if (found.state === 'invited') r.invited.push(a);
    else {
      const twice = seen.get(`${a.principal}:${found.id}`);
      if (twice)
        r.problems.push({
          pos,
          message: `${a.principal} "${a.name}" and "${twice.name}" name the same ${a.principal} (${found.id}); list it once`,
        });
      else {
        seen.set(`${a.principal}:${found.id}`, a);
        r.grants.push({ entry: a, id: found.id, deps: found.deps });
      }
    }
  }
  return r;
}

export function accessPlanner(
  ctx: DiffContext,
  org: string,
  target: AccessTarget,
  live: { objects: readonly AccessObject[]; aux?: AccessAux | undefined },
): AccessPlanner {
  const lookup = lookups(ctx, org, live.aux);
  const memo = new Map<AccessDesired, Resolution>();
  const resolution = (entry: AccessDesired): Resolution => {
    const r = memo.get(entry) ?? resolveAccess(entry, lookup);
    memo.set(entry, r);
    return r;
  };
  return {
    block(result, entry) {
      if (entry.spec.access === undefined) return false;
      const [first, ...more] = resolution(entry).problems;
      if (!first) return false;
      const others = more.length > 0 ? `; also ${more.map((p) => `${p.message} (${at(p.pos)})`).join('; ')}` : '';
      blockEntry(result, entry, first.pos, `access: ${first.message}${others}`);
      return true;
    },
    plan(result, entries) {
      const blocked = new Set(result.blocked.filter((b) => b.kind === target.kind && b.org === org).map((b) => b.key));
      const byObject = new Map<string, AccessObject[]>();
      for (const o of live.objects) byObject.set(o.fields.target, [...(byObject.get(o.fields.target) ?? []), o]);
      for (const entry of entries) {
        if (entry.spec.access === undefined || blocked.has(entry.key)) continue;
        planEntry(ctx, { org, target, live }, result, entry, resolution(entry), byObject);
      }
    },
  };
}

/** The access steps of one entry whose list resolved, and a blocked object per member invited in this plan. */
function planEntry(
  ctx: DiffContext,
  { org, target, live }: { org: string; target: AccessTarget; live: { aux?: AccessAux | undefined } },
  result: DiffResult,
  entry: AccessDesired,
  r: Resolution,
  byObject: ReadonlyMap<string, AccessObject[]>,
): void {
  if (r.problems.length > 0)
    throw new Error(`internal: ${target.kind} "${entry.key}" has unresolved access entries, but was not blocked`);
  const objectId = ctx.resolve(target.kind, org, entry.key);
  if (objectId === undefined) throw new Error(`internal: ${target.kind} "${entry.key}" registered no id`);
  if (!isRef(objectId) && live.aux?.access?.[objectId] === undefined)
    throw new Error(`internal: the grants of ${target.kind} ${objectId} were not fetched`);
  const grants = isRef(objectId) ? [] : (byObject.get(objectId) ?? []);
  const gone = deletedPrincipals(ctx, org);
  result.steps.push(...objectSteps({ org, target, entry, objectId, wanted: r.grants, live: grants, gone }));
  for (const a of r.invited) {
    result.blocked.push({
      kind: target.accessKind,
      org,
      key: grantKey(entry.key, a.principal, a.name),
      message:
        `${a.name} is invited in this plan: the API grants access to members, and an invited address has no user id until the invitation ` +
        'is accepted; the first plan after they joined grants it',
      source: plainSource(entry.doc.pos(a.at)),
    });
  }
}

interface ObjectAccess {
  org: string;
  target: AccessTarget;
  entry: AccessDesired;
  /** Live id, or a ref to the create step. */
  objectId: string;
  wanted: readonly Resolved[];
  live: readonly AccessObject[];
  /** `team:<id>` / `user:<id>` this plan deletes: their grants go with them. */
  gone: ReadonlySet<string>;
}

const listOf = (p: Principal): 'teams' | 'users' => (p === 'team' ? 'teams' : 'users');

/**
 * How apply tells, after a grant POST failed in a way that leaves open whether it happened, which of its teams and
 * users hold the role now: each id is looked up in `…/permissions/teams` or `…/users` (a grant's identity is the
 * object and the principal); the POST is sent again with only those that do not. A principal the plan's live read
 * showed with a grant is never in a grant POST but a null re-grant, whose role it did not have then.
 */
function grantRecover(role: GrantRole, principals: readonly Principal[]): RecoverSpec[] {
  return principals.map((p) => ({
    suffix: `/${listOf(p)}`,
    each: `/${listOf(p)}`,
    match: [
      { field: `${p}.id`, body: '' },
      { field: 'permission', value: role },
    ],
  }));
}

function objectSteps(o: ObjectAccess): Step[] {
  const have = new Map(o.live.map((g) => [`${g.fields.principal}:${g.fields.id}`, g]));
  const steps: Step[] = [];
  const grants = new Map<GrantRole, Resolved[]>();
  for (const w of o.wanted) {
    const g = have.get(`${w.entry.principal}:${w.id}`);
    if (!g) grants.set(w.entry.role, [...(grants.get(w.entry.role) ?? []), w]);
    else if (g.fields.role !== w.entry.role) steps.push(roleStep(o, g, w));
  }
  // One POST per role, roles in the enum's order (null last): stable plans.
  for (const role of [...ACCESS_ROLES, null]) {
    const list = grants.get(role);
    if (list) steps.push(grantStep(o, role, list));
  }
  return [...steps, ...revokeSteps(o)];
}

const sourceOf = (o: ObjectAccess, a: AccessEntry) => plainSource(o.entry.doc.pos(a.at));

/** A live grant's role changed (PATCH; a site's null role is granted again: its PATCH takes a role only). */
function roleStep(o: ObjectAccess, g: AccessObject, w: Resolved): Step {
  const { org, target } = o;
  const base = target.base(org, o.objectId);
  const one = `${base}/${listOf(g.fields.principal)}/${seg(g.fields.id)}`;
  const request: RequestSpec =
    w.entry.role === null
      ? {
          method: 'POST',
          path: base,
          body: { role: null, [listOf(g.fields.principal)]: [g.fields.id] },
          recover: grantRecover(null, [g.fields.principal]),
        }
      : { method: 'PATCH', path: one, body: { role: w.entry.role } };
  const step = makeStep({
    id: stepId(target.accessKind, org, g.key, 'update'),
    action: 'update',
    phase: 'update',
    kind: target.accessKind,
    org,
    key: g.key,
    wave: target.wave,
    before: { role: g.fields.role },
    after: { role: w.entry.role },
    requests: [request],
  });
  step.source = sourceOf(o, w.entry);
  return step;
}

/** The one POST granting `role` to the teams and users of `list`. */
function grantStep(o: ObjectAccess, role: GrantRole, list: readonly Resolved[]): Step {
  const { org, target, entry, objectId } = o;
  const body: Record<string, unknown> = { role };
  const principals: Principal[] = [];
  for (const p of ['team', 'user'] as const) {
    const ids = list.filter((w) => w.entry.principal === p).map((w) => w.id);
    if (ids.length > 0) {
      body[listOf(p)] = ids;
      principals.push(p);
    }
  }
  const step = makeStep({
    id: stepId(target.accessKind, org, entry.key, `grant-${roleName(role)}`),
    action: 'create',
    phase: 'create',
    kind: target.accessKind,
    org,
    key: entry.key,
    wave: target.grantWave,
    before: null,
    after: { access: Object.fromEntries(list.map((w) => [principalLabel(w.entry.principal, w.entry.name), role])) },
    requests: [{ method: 'POST', path: target.base(org, objectId), body, recover: grantRecover(role, principals) }],
    dependsOn: [...refSteps(objectId), ...list.flatMap((w) => w.deps)],
  });
  step.source = sourceOf(o, list[0]!.entry);
  return step;
}

/** A DELETE per live grant the list leaves out, but for those a deleted team or member takes along. */
function revokeSteps(o: ObjectAccess): Step[] {
  const { org, target, entry } = o;
  const base = target.base(org, o.objectId);
  const wantedIds = new Set(o.wanted.map((w) => `${w.entry.principal}:${w.id}`));
  // Every live grant leaving (listed steps, and those a deleted team or member takes): the gate's delete-all of the list.
  const leaving = o.live.filter((g) => !wantedIds.has(`${g.fields.principal}:${g.fields.id}`)).length;
  const list = `the access list of ${target.kind.toLowerCase()} "${entry.key}"`;
  const all = leaving === o.live.length ? deletesAllNote(leaving, list, target.accessKind, entry.doc) : undefined;
  const steps: Step[] = [];
  for (const g of o.live) {
    const who = `${g.fields.principal}:${g.fields.id}`;
    if (wantedIds.has(who) || o.gone.has(who)) continue;
    const step = makeStep({
      id: stepId(target.accessKind, org, g.key, 'delete'),
      action: 'delete',
      phase: 'delete',
      kind: target.accessKind,
      org,
      key: g.key,
      wave: target.wave,
      before: { role: g.fields.role },
      after: null,
      requests: [{ method: 'DELETE', path: `${base}/${listOf(g.fields.principal)}/${seg(g.fields.id)}` }],
      note: [`not in the access list of ${target.kind.toLowerCase()} "${entry.key}"`, all].filter(Boolean).join('; '),
    });
    step.source = plainSource(entry.doc.pos(['spec', 'access']));
    steps.push(step);
  }
  return steps;
}
