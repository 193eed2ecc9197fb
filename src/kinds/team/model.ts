/** Shapes of the Team kind shared by its manifest side (kind.ts) and its diff (diff.ts). */
import type { LiveKindState, LiveObject } from '../../core/kind.js';
import type { ManifestDocument } from '../../manifests/document.js';
import { isRecord, orgPath } from '../common.js';
import type { PrunedTeam } from './cascades.js';

export const TEAM_KIND = 'Team';
export const TEAM_DEPTH = 20;

export type TeamRole = 'owner' | 'member';

export interface TeamMemberSpec {
  /** Lower-cased. */
  email: string;
  role: TeamRole;
}

export interface TeamSpec {
  title: string;
  id?: string;
  /** Absent: membership is not managed. Present (even empty): authoritative. */
  members?: TeamMemberSpec[];
}

export interface LiveTeamMember {
  email: string;
  userId: string;
  role: TeamRole;
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
  /** Under prune: team id → what deleting that team takes (see cascades.ts). */
  pruned?: Record<string, PrunedTeam>;
  /** Snapshot: team id → the number of spaces the team had permissions on. */
  spaces?: Record<string, number>;
}

export type TeamState = LiveKindState<TeamObject, TeamAux>;

export const teamsPath = (org: string): string => `${orgPath(org)}/teams`;

/** Index of an e-mail (lower-cased) in a Team document's raw members list, for positions. */
export function memberIndex(doc: ManifestDocument, email: string): number {
  const raw = Array.isArray(doc.spec['members']) ? doc.spec['members'] : [];
  return raw.findIndex((m: unknown) => isRecord(m) && typeof m['email'] === 'string' && m['email'].toLowerCase() === email);
}
