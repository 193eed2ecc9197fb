/**
 * Team in the delete journal and in undo. A team's delete takes its memberships along, so the snapshot reads
 * the member list (e-mail, user id, team role) even when no manifest manages it, plus the number of spaces
 * the team has permissions on: no API lists which those are, so undo can only say they are gone.
 */
import type { FetchContext, KindUndo, Snapshot, UndoLoss } from '../../model/kind.js';
import { isRecord, seg } from '../common.js';
import {
  TEAM_KIND,
  teamMember,
  teamsPath,
  type LiveTeamMember,
  type TeamAux,
  type TeamFields,
  type TeamObject,
  type TeamState,
} from './model.js';

export async function snapshotTeam(ctx: FetchContext, object: TeamObject): Promise<Snapshot> {
  const path = `${teamsPath(object.org)}/${seg(object.id)}`;
  const [team, items] = await Promise.all([ctx.get<unknown>(path), ctx.list(`${path}/members`)]);
  const title = isRecord(team) && typeof team['title'] === 'string' ? team['title'] : object.key;
  const members = items.map(teamMember).filter((m): m is LiveTeamMember => m !== undefined);
  const fields: TeamFields = { title, members };
  const spaces = isRecord(team) && typeof team['spaces'] === 'number' ? team['spaces'] : 0;
  const part: TeamState = { objects: [{ ...object, key: title, fields }], aux: { spaces: { [object.id]: spaces } } };
  return { [TEAM_KIND]: part };
}

function losses(_org: string, state: TeamState): UndoLoss[] {
  const spaces = state.aux?.spaces ?? {};
  return state.objects
    .filter((o) => (spaces[o.id] ?? 0) > 0)
    .map((o) => ({
      key: o.key,
      id: o.id,
      message: `its permissions on ${spaces[o.id]} space(s) are not restored: no API lists which spaces they were; grant them again (the team in the access: list of those spaces' manifests, or in the app)`,
    }));
}

export const teamUndo: KindUndo<TeamObject, TeamAux> = { losses };
