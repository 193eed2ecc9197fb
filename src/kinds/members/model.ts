/** Shapes of the Members kind shared by its manifest side, diff, guard, export and snapshot, and by Team (org members). */
import type { LiveKindState, LiveObject } from '../../model/kind.js';
import { isRecord, orgPath } from '../common.js';
import type { MembersManifestSpec } from '../generated/members.js';
import type { LeavingMember } from '../team-cascades.js';

export const MEMBERS_KIND = 'Members';
export const MEMBERS_DEPTH = 10;

/**
 * A member as a Members document lists it (its e-mail as written: the entry key is the lower-cased form; its role, null
 * for a guest), with the document's `spec.invite` when true.
 */
export type MemberSpec = MembersManifestSpec['members'][number] & { invite?: boolean };

export interface MemberFields {
  email: string;
  /** As the API answers it (null: guest). */
  role: string | null;
  sso: boolean;
}

export type MemberObject = LiveObject<MemberFields>;

/**
 * What fetch keeps beside the members (under prune, per user id what removing them takes with it), and what a
 * journal snapshot keeps (per user id, their teams and the number of spaces they had permissions on).
 */
export interface MembersAux {
  leaving?: Record<string, LeavingMember>;
  teams?: Record<string, MemberTeam[]>;
  spaces?: Record<string, number>;
}

/** A team a journaled member was in, with their team role. */
export interface MemberTeam {
  id: string;
  title: string;
  /** As answered (`owner`, `member`, or a newer API's role). */
  role: string;
}

export type MembersState = LiveKindState<MemberObject, MembersAux>;

/** A role from a list item or a validated document: a string, else null (guest). */
export const roleOf = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export const membersPath = (org: string): string => `${orgPath(org)}/members`;

/** Member list item → live object (key = lower-cased e-mail, id = user id). */
export function memberObject(org: string, m: unknown): MemberObject | undefined {
  if (!isRecord(m) || !isRecord(m['user'])) return undefined;
  const email = m['user']['email'];
  const id = m['id'] ?? m['user']['id'];
  if (typeof email !== 'string' || typeof id !== 'string') return undefined;
  const fields: MemberFields = { email, role: roleOf(m['role']), sso: m['sso'] === true };
  return { kind: MEMBERS_KIND, org, key: email.toLowerCase(), id, fields };
}
