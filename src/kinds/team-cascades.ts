/**
 * What deleting a team or removing an organization member takes with it (Step.cascades): a team's memberships go
 * with the team, and a member leaves every team when they leave the organization. Memberships have no id of their
 * own; they are keyed `<team title>/<e-mail>` (kind TeamMember) wherever they appear, so the gate counts one that
 * both a team delete and a member removal would take once.
 *
 * Content permissions (grants on spaces, collections and sites) also go. No API lists a team's or a member's
 * grants: the ones known are those on the objects whose `access:` lists this plan read, listed as cascades by
 * src/kinds/access/cascades.ts; for the rest the step's note shows the `spaces` count the team or member carries.
 *
 * A SAML provider naming a deleted team as its default team keeps none (it is not deleted): the delete step's note
 * names it (src/kinds/team-ref.ts).
 *
 * Fetch: only under prune, only for the teams / members that would be deleted, and only when their `members` /
 * `teams` count is not 0 (the SAML providers: one list, only when a team would be deleted).
 */
import type { DesiredEntry, DiffContext, FetchContext, LiveObject } from '../model/kind.js';
import type { CascadeObject } from '../model/plan.js';
import { isRecord, seg } from './common.js';
import { withDisplayKeys, matchByIdOrTitle } from './match.js';
import { samlPath } from './saml/model.js';
import { providersNaming, type NamingProvider } from './team-ref.js';

export const TEAM_MEMBER_KIND = 'TeamMember';
const TEAM = 'Team';

export const membershipKey = (teamTitle: string, email: string): string => `${teamTitle}/${email}`;

/** A count from a list item; undefined when the item does not carry it (read the list then). */
export function countOf(item: unknown, field: string): number | undefined {
  return isRecord(item) && typeof item[field] === 'number' ? item[field] : undefined;
}

// ---- teams -----------------------------------------------------------------------------------------------------

/** What a pruned team takes: its members (e-mails) and its `spaces` count; the SAML providers it leaves without a default team. */
export interface PrunedTeam {
  emails: string[];
  spaces?: number;
  saml?: NamingProvider[];
}

/** The member lists of the teams that would be deleted (none when prune is off or every team is described). */
export async function readPrunedTeams(
  ctx: FetchContext,
  membersPathOf: (teamId: string) => string,
  emailOf: (item: unknown) => string | undefined,
  teams: readonly { object: LiveObject; item: unknown }[],
): Promise<Record<string, PrunedTeam>> {
  const out: Record<string, PrunedTeam> = {};
  const org = teams[0]?.object.org;
  const samlP = org === undefined ? Promise.resolve([]) : ctx.list(samlPath(org));
  samlP.catch(() => {}); // awaited below; this only keeps an early failure from being "unhandled"
  await Promise.all(
    teams.map(async ({ object, item }) => {
      const count = countOf(item, 'members');
      const emails =
        count === 0
          ? []
          : (await ctx.list(membersPathOf(object.id))).map(emailOf).filter((e): e is string => e !== undefined);
      const spaces = countOf(item, 'spaces');
      out[object.id] = { emails, ...(spaces !== undefined ? { spaces } : {}) };
    }),
  );
  for (const p of providersNaming(await samlP)) {
    const team = out[p.team];
    if (team) (team.saml ??= []).push(p);
  }
  return out;
}

export function teamCascades(org: string, team: LiveObject, pruned: PrunedTeam | undefined): CascadeObject[] {
  return (pruned?.emails ?? []).map((email) => ({ kind: TEAM_MEMBER_KIND, org, key: membershipKey(team.key, email) }));
}

// ---- members ---------------------------------------------------------------------------------------------------

export interface MemberTeam {
  id: string;
  title: string;
}

/** What a removed member takes: their teams and their `spaces` count. */
export interface LeavingMember {
  teams: MemberTeam[];
  spaces?: number;
}

/**
 * The teams of each member that would be removed (GET …/members/{userId}/teams, only when their `teams` count is
 * not 0). `leaving` = [user id, the member list item].
 */
export async function readLeavingMembers(
  ctx: FetchContext,
  membersPath: string,
  leaving: readonly [string, unknown][],
): Promise<Record<string, LeavingMember>> {
  const out: Record<string, LeavingMember> = {};
  await Promise.all(
    leaving.map(async ([userId, item]) => {
      const count = countOf(item, 'teams');
      const items = count === 0 ? [] : await ctx.list(`${membersPath}/${seg(userId)}/teams`);
      const teams = items.flatMap((x) => {
        const t = isRecord(x) && isRecord(x['team']) ? x['team'] : undefined;
        return t && typeof t['id'] === 'string' && typeof t['title'] === 'string'
          ? [{ id: t['id'], title: t['title'] }]
          : [];
      });
      const spaces = countOf(item, 'spaces');
      out[userId] = { teams, ...(spaces !== undefined ? { spaces } : {}) };
    }),
  );
  return out;
}

/**
 * Teams whose memberships the Team kind changes before a member removal runs: a team a Team manifest describes
 * with `members` written (its membership step removes anyone not listed, and a removed member cannot be listed:
 * team members must be in the Members documents), and a team the Team kind prunes (deleted first, it takes the
 * membership itself).
 */
export function teamsHandledByTeamKind(ctx: DiffContext, org: string): Set<string> {
  const entries: DesiredEntry[] = withDisplayKeys(ctx.desired(TEAM, org));
  const live = (ctx.live(TEAM, org)?.objects ?? []).filter((o) => o.kind === TEAM);
  if (entries.length === 0) return new Set();
  const { matched, unmatched } = matchByIdOrTitle(TEAM, entries, live);
  const out = new Set<string>();
  // Team specs are typed only inside the Team kind: read the one field this needs, with a check.
  for (const [e, o] of matched) if (isRecord(e.spec) && e.spec['members'] !== undefined) out.add(o.id);
  if (ctx.prune(TEAM, org)) for (const o of unmatched) out.add(o.id);
  return out;
}

export function memberCascades(
  org: string,
  email: string,
  leaving: LeavingMember | undefined,
  handled: ReadonlySet<string>,
): CascadeObject[] {
  return (leaving?.teams ?? [])
    .filter((t) => !handled.has(t.id))
    .map((t) => ({ kind: TEAM_MEMBER_KIND, org, key: membershipKey(t.title, email) }));
}
