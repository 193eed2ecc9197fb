// Generated from schemas/team.schema.json by tools/build/spec-types.ts (npm run build): edit the schema, not this file.
import type { SpecSchema } from '../../model/kind.js';
import { loadSchema } from '../schema.js';

/**
 * One team of the organization, identified by title, or by a pinned id (which allows renaming).
 */
export type TeamManifestSpec = {
  /**
   * Team title (1..64 characters).
   */
  title: string;
  /**
   * Pinned team id: the team is found by id and renamed when its live title differs.
   */
  id?: string;
  /**
   * When written, the complete membership of the team: members not listed are removed. Every e-mail must be an organization member (and listed in the organization's Members documents when there are any).
   */
  members?: {
    /**
     * The member's e-mail address (case-insensitive).
     */
    email: string;
    /**
     * Team role: owner can manage the team's members.
     */
    role?: 'owner' | 'member';
  }[];
};

/** schemas/team.schema.json, whose valid documents have the type TeamManifestSpec. */
export const teamSchema: SpecSchema<TeamManifestSpec> = loadSchema('team');
