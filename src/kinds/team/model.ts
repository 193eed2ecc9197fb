/** Shapes of the Team kind shared by its manifest side (kind.ts) and its diff (diff.ts). */
import type { LiveKindState, LiveObject } from '../../model/kind.js';
import type { DocPath } from '../../manifests/paths.js';
import { isRecord, orgPath } from '../common.js';
import { memberObject } from '../members/model.js';
import type { TeamManifestSpec } from '../generated/team.js';
import type { PrunedTeam } from '../team-cascades.js';

export const TEAM_KIND = 'Team';
export const TEAM_DEPTH = 20;

/** A member as a Team manifest lists it, with its e-mail lower-cased, its role (default `member`) and where it is listed. */
export type TeamMemberSpec = Required<NonNullable<TeamManifestSpec['members']>[number]> & { at: DocPath };

/** The spec as written, with `members` (absent: not managed; present, even empty: authoritative) read by toDesired. */
export type TeamSpec = Omit<TeamManifestSpec, 'members'> & { members?: TeamMemberSpec[] };

export interface LiveTeamMember {
  email: string;
  userId: string;
  /** As the API answers it: `owner`, `member`, or a role of a newer API, kept as it is (never read as another). */
  role: string;
}

export interface TeamFields {
  title: string;
  /** Only fetched for teams a manifest manages the members of. */
  members?: LiveTeamMember[];
}

export type TeamObject = LiveObject<TeamFields>;

/** Lookup data of the Team diff, and what a journal snapshot keeps beside the team. */
export interface TeamAux {
  /** Every org member's e-mail (lower-cased) → user id (fetch). */
  orgMembers?: Record<string, string>;
  /** Under prune: team id → what deleting that team takes (see src/kinds/team-cascades.ts). */
  pruned?: Record<string, PrunedTeam>;
  /** Snapshot: team id → the number of spaces the team had permissions on. */
  spaces?: Record<string, number>;
}

export type TeamState = LiveKindState<TeamObject, TeamAux>;

export const teamsPath = (org: string): string => `${orgPath(org)}/teams`;

/** Team member list item `{organization: Member, team: {role}}` → e-mail, user id and team role (as answered). */
export function teamMember(item: unknown): LiveTeamMember | undefined {
  if (!isRecord(item)) return undefined;
  const member = memberObject('', item['organization']);
  if (!member) return undefined;
  const team = isRecord(item['team']) ? item['team'] : {};
  return { email: member.key, userId: member.id, role: typeof team['role'] === 'string' ? team['role'] : 'member' };
}
