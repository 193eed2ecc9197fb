// Generated from schemas/space.schema.json by tools/build/spec-types.ts (npm run build): edit the schema, not this file.
import type { SpecSchema } from '../../model/kind.js';
import { loadSchema } from '../schema.js';

/**
 * One space of the organization, identified by title, or by a pinned id (which allows renaming).
 */
export type SpaceManifestSpec = {
  /**
   * Space title (1..50 characters).
   */
  title: string;
  /**
   * Pinned space id: found by id and renamed when its live title differs.
   */
  id?: string;
  /**
   * Emoji of the space.
   */
  emoji?: string;
  /**
   * live: direct edits; locked: all edits locked.
   */
  editMode?: 'live' | 'locked';
  /**
   * Default role of organization members on the space; null = none.
   */
  defaultLevel?: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | null;
  /**
   * Parent collection: a Collection manifest title or a collection id; null = not in a collection.
   */
  parent?: string | null;
  /**
   * When written, the complete list of teams and organization members holding a role on the space: grants not listed are removed (whatever the document's prune setting), listed ones are granted or get the written role. Left out: grants are neither read nor changed.
   */
  access?: (
    | {
        /**
         * A Team manifest title, a live team title or a team id.
         */
        team: string;
        /**
         * Role on the space.
         */
        role: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';
      }
    | {
        /**
         * An organization member's e-mail address (case-insensitive).
         */
        email: string;
        /**
         * Role on the space.
         */
        role: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';
      }
  )[];
  /**
   * Who must review a change request before it merges in this space: {type: rules, rules: [...]}, {type: none}, or {type: inherit} (the organization's rules). Reviewers are organization members by e-mail. Rules are compared as a set.
   */
  mergeRules?:
    | {
        type: 'inherit' | 'none';
      }
    | {
        type: 'rules';
        rules: (
          | {
              rule: 'require_specific_reviewers' | 'require_one_of_specific_reviewers' | 'allow_bypass';
              /**
               * Organization members by e-mail (case-insensitive).
               */
              users: string[];
            }
          | {
              rule:
                | 'require_at_least_one_review'
                | 'require_at_least_one_approved_review'
                | 'require_all_reviews_approved'
                | 'require_agent_review'
                | 'require_up_to_date_change_request'
                | 'require_change_request_subject'
                | 'require_change_request_description'
                | 'require_author_to_merge';
            }
          | {
              rule: 'custom';
              /**
               * The rule in the platform's expression syntax.
               */
              expression: string;
              /**
               * Shown when the expression is false.
               */
              message?: string;
            }
        )[];
      };
};

/** schemas/space.schema.json, whose valid documents have the type SpaceManifestSpec. */
export const spaceSchema: SpecSchema<SpaceManifestSpec> = loadSchema('space');
