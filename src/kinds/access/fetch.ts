/**
 * Reading access lists: for each live object whose manifest writes `access:` (and only those), its team and its
 * user permission lists (`…/permissions/teams`, `…/permissions/users`, two lists per object); the organization's
 * teams when an entry names a team, and its members when an entry names an e-mail (both memoised lists, shared
 * with the Team and Members kinds). A document that writes no `access:` costs no request at all.
 */
import type { DesiredEntry, FetchContext, LiveObject } from '../../model/kind.js';
import { isRecord } from '../common.js';
import { withDisplayKeys, matchByIdOrTitle } from '../match.js';
import { uniqueKeys } from '../unmatched.js';
import {
  grantKey,
  membersListPath,
  teamsListPath,
  type AccessAux,
  type AccessEntry,
  type AccessObject,
  type AccessTarget,
  type LiveGrant,
  type LiveTeamRef,
} from './model.js';

/** What the access part of a kind's fetch adds: the grants as live objects, and the aux fields. */
export interface AccessState {
  objects: AccessObject[];
  aux: AccessAux;
}

type AccessDesired = DesiredEntry<{ title: string; id?: string; access?: AccessEntry[] }>;

/** The role as answered: a string (a newer API's role too, kept as it is), else none. */
const roleOf = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** One item of `…/permissions/teams` (`{permission, team}`) or `…/permissions/users` (`{permission, user}`). */
function grantOf(item: unknown, principal: 'team' | 'user'): LiveGrant | undefined {
  if (!isRecord(item)) return undefined;
  const who = item[principal];
  if (!isRecord(who) || typeof who['id'] !== 'string') return undefined;
  const name = principal === 'team' ? who['title'] : who['email'];
  return {
    principal,
    id: who['id'],
    name: typeof name === 'string' ? (principal === 'user' ? name.toLowerCase() : name) : '',
    role: roleOf(item['permission']),
  };
}

export function teamRefOf(t: unknown): LiveTeamRef | undefined {
  return isRecord(t) && typeof t['id'] === 'string' && typeof t['title'] === 'string'
    ? { id: t['id'], title: t['title'] }
    : undefined;
}

/** Organization member list items → e-mail (lower-cased) → user id. */
export function memberIds(items: readonly unknown[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of items) {
    if (!isRecord(m) || !isRecord(m['user'])) continue;
    const email = m['user']['email'];
    const id = m['id'] ?? m['user']['id'];
    if (typeof email === 'string' && typeof id === 'string') out[email.toLowerCase()] ??= id;
  }
  return out;
}

/** The grants of one object: teams first, then users, each in the API's order. */
export async function readGrants(
  ctx: FetchContext,
  org: string,
  target: AccessTarget,
  id: string,
): Promise<LiveGrant[]> {
  const base = target.base(org, id);
  const [teams, users] = await Promise.all([ctx.list(`${base}/teams`), ctx.list(`${base}/users`)]);
  return [...teams.map((t) => grantOf(t, 'team')), ...users.map((u) => grantOf(u, 'user'))].filter(
    (g): g is LiveGrant => g !== undefined,
  );
}

/** A user grant the API showed without an e-mail is named through the members list (by user id). */
export function nameUsers(grants: readonly LiveGrant[], members: Record<string, string> | undefined): LiveGrant[] {
  if (!members || grants.every((g) => g.principal === 'team' || g.name !== '')) return [...grants];
  const emailOf = new Map(Object.entries(members).map(([email, id]) => [id, email]));
  return grants.map((g) => (g.principal === 'user' && g.name === '' ? { ...g, name: emailOf.get(g.id) ?? '' } : g));
}

/**
 * Grants of one object as live objects keyed `<object key>/team:<title>` (made unique with the id when two share a
 * name); their parent is the object: the safety gate measures a plan's changes to them against its list.
 */
export function grantObjects(
  org: string,
  target: AccessTarget,
  objectKey: string,
  objectId: string,
  grants: readonly LiveGrant[],
): AccessObject[] {
  const label = (g: LiveGrant): string => grantKey(objectKey, g.principal, g.name !== '' ? g.name : g.id);
  const key = uniqueKeys(grants, label);
  const parent = { kind: target.kind, id: objectId, key: objectKey };
  return grants.map((g) => ({
    kind: target.accessKind,
    org,
    key: key(g),
    id: '',
    fields: { ...g, target: objectId },
    parent,
  }));
}

/**
 * Starts the principal lists the entries need right away (they do not depend on the object list); `read` then
 * reads the grants of the live objects whose manifest writes `access:`. `live` are the kind's own objects.
 */
export function accessReader(
  ctx: FetchContext,
  org: string,
  target: AccessTarget,
  desired: readonly AccessDesired[],
): { read(live: readonly LiveObject[]): Promise<AccessState> } {
  const written = desired.filter((e) => e.spec.access !== undefined);
  const names = written.flatMap((e) => e.spec.access ?? []);
  const quiet = <T>(p: Promise<T>): Promise<T> => {
    p.catch(() => {}); // awaited in read(); this only keeps an early failure from being "unhandled"
    return p;
  };
  const teamsP = names.some((a) => a.principal === 'team') ? quiet(ctx.list(teamsListPath(org))) : undefined;
  let membersP = names.some((a) => a.principal === 'user') ? quiet(ctx.list(membersListPath(org))) : undefined;
  return {
    async read(live) {
      const aux: AccessAux = {};
      if (written.length === 0) return { objects: [], aux };
      // Matched as the kind's diff matches (all entries, display keys), so keys and pairs are the diff's own.
      const { matched } = matchByIdOrTitle(target.kind, withDisplayKeys(desired), live);
      const managed = [...matched].filter(([e]) => e.spec.access !== undefined);
      const grants = await Promise.all(managed.map(([, o]) => readGrants(ctx, org, target, o.id)));
      if (!membersP && grants.some((list) => list.some((g) => g.principal === 'user' && g.name === '')))
        membersP = ctx.list(membersListPath(org));
      const [teams, members] = await Promise.all([teamsP, membersP]);
      if (teams) aux.accessTeams = teams.map(teamRefOf).filter((t): t is LiveTeamRef => t !== undefined);
      if (members) aux.accessMembers = memberIds(members);
      const byObject: Record<string, LiveGrant[]> = (aux.access = {});
      const objects: AccessObject[] = [];
      managed.forEach(([e, o], i) => {
        const named = nameUsers(grants[i]!, aux.accessMembers);
        byObject[o.id] = named;
        objects.push(...grantObjects(org, target, e.key, o.id, named));
      });
      return { objects, aux };
    },
  };
}
