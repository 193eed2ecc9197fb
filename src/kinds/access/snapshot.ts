/**
 * Access lists in the delete journal: a deleted space, collection or site takes its grants along (a space keeps
 * them while it is soft-deleted and a restore brings them back; a purge, a collection's or a site's delete drops
 * them), so its snapshot reads them, for every object the delete takes that has grants of its own, with the
 * organization's teams when a team holds one (to name each team by title when that is unambiguous). Members are named by the e-mail
 * the permission list shows; only when it shows none is the member list read.
 */
import type { FetchContext } from '../../model/kind.js';
import { memberIds, nameUsers, readGrants, teamRefOf } from './fetch.js';
import {
  membersListPath,
  teamsListPath,
  type AccessAux,
  type AccessTarget,
  type LiveGrant,
  type LiveTeamRef,
} from './model.js';

export async function snapshotAccess(
  ctx: FetchContext,
  org: string,
  target: AccessTarget,
  ids: readonly string[],
): Promise<AccessAux> {
  if (ids.length === 0) return {};
  const lists = await Promise.all(ids.map((id) => readGrants(ctx, org, target, id)));
  const all = lists.flat();
  const [teams, members] = await Promise.all([
    all.some((g) => g.principal === 'team') ? ctx.list(teamsListPath(org)) : undefined,
    all.some((g) => g.principal === 'user' && g.name === '') ? ctx.list(membersListPath(org)) : undefined,
  ]);
  const named = members ? memberIds(members) : undefined;
  const access: Record<string, LiveGrant[]> = {};
  ids.forEach((id, i) => void (access[id] = nameUsers(lists[i]!, named)));
  const aux: AccessAux = { access };
  if (teams) aux.accessTeams = teams.map(teamRefOf).filter((t): t is LiveTeamRef => t !== undefined);
  return aux;
}
