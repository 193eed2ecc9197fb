// Generated from schemas/members.schema.json by tools/build/spec-types.ts (npm run build): edit the schema, not this file.
import type { SpecSchema } from '../../model/kind.js';
import { loadSchema } from '../schema.js';

/**
 * Organization members, identified by e-mail (case-insensitive). Several Members documents may split one organization's members; every e-mail may appear once per organization.
 */
export type MembersManifestSpec = {
  /**
   * Invite listed e-mails that are not members yet (otherwise they are only a plan warning). `--invite` turns this on for every document.
   */
  invite?: boolean;
  /**
   * Members of the organization.
   */
  members: {
    /**
     * The member's e-mail address (identity, case-insensitive).
     */
    email: string;
    /**
     * Organization role; null makes the member a guest. Left out: docops does not manage the member's role (it leaves it as it is; an invitation gives the organization's default role), as export writes a member whose role docops does not know.
     */
    role?: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | null;
    /**
     * Mark the member as an SSO member. The API can set this but not unset it: false on an SSO member is only a warning.
     */
    sso?: boolean;
  }[];
};

/** schemas/members.schema.json, whose valid documents have the type MembersManifestSpec. */
export const membersSchema: SpecSchema<MembersManifestSpec> = loadSchema('members');
