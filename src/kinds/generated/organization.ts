// Generated from schemas/organization.schema.json by tools/build/spec-types.ts (npm run build): edit the schema, not this file.
import type { SpecSchema } from '../../model/kind.js';
import { loadSchema } from '../schema.js';

/**
 * Settings of one organization (metadata.organization). Only the fields written here are compared and changed; the organization is never created or deleted.
 */
export type OrganizationManifestSpec = {
  /**
   * Organization title (2..255 characters).
   */
  title?: string;
  /**
   * E-mail domains whose users may join the organization. Compared as a set (order does not matter).
   */
  emailDomains?: string[];
  /**
   * Default hostname for public content (3..32 characters: lower-case letters, digits, inner dashes).
   */
  hostname?: string;
  /**
   * Role given to new members; null makes them guests.
   */
  defaultRole?: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | null;
  /**
   * Content shown by default: a site (by id, or by the title of a Site manifest of this organization, which may be created in the same plan), or null for none.
   */
  defaultContent?: {
    /**
     * Always `site`.
     */
    type: 'site';
    /**
     * Site id, or the title of a Site manifest of this organization.
     */
    site: string;
  } | null;
  /**
   * Logo URL (at most 2048 characters), or null to remove it. Read back from the organization's urls.logo.
   */
  logo?: string | null;
  /**
   * Enforce SSO organization-wide.
   */
  sso?: boolean;
  /**
   * Enable AI features.
   */
  ai?: boolean;
  /**
   * Allow invite links.
   */
  inviteLinks?: boolean;
  /**
   * Who must review a change request before it merges, in every space that inherits them: {type: rules, rules: [...]}, or {type: none}. Reviewers are organization members by e-mail. Rules are compared as a set.
   */
  mergeRules?:
    | {
        type: 'none';
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

/** schemas/organization.schema.json, whose valid documents have the type OrganizationManifestSpec. */
export const organizationSchema: SpecSchema<OrganizationManifestSpec> = loadSchema('organization');
