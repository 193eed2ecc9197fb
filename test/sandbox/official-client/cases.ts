/**
 * Every case of the official-client test, and the two lists that say what it does not hold the sandbox to:
 * the differences management-api.md makes normative (each in docs/dev/api-differences.md §1.1) and the operations
 * the sandbox serves that the official spec does not have (so its client cannot call them).
 */
import type { Env } from './harness.js';
import { CONTENT_CASES } from './cases-content.js';
import { DISCUSSION_CASES } from './cases-discussions.js';
import { SPACE_CONTENT_CASES } from './cases-space-content.js';
import { ORG_CASES } from './cases-org.js';
import { SITE_LINK_CASES, SITE_LIVE_CASES } from './cases-site-live.js';
import { SITE_CASES } from './cases-sites.js';
import { SSO_OPENAPI_CASES } from './cases-sso-openapi.js';

/** `name` starts with the spec's operationId; after a colon, the optional shapes it sends. */
export interface Case {
  name: string;
  run(env: Env): Promise<void>;
}

export const CASES: Case[] = [
  ...ORG_CASES,
  ...CONTENT_CASES,
  ...DISCUSSION_CASES,
  ...SPACE_CONTENT_CASES,
  ...SITE_CASES,
  ...SITE_LIVE_CASES,
  ...SITE_LINK_CASES,
  ...SSO_OPENAPI_CASES,
];

export const operationIdOf = (c: Case): string => c.name.split(':')[0]!.trim();

/**
 * Cases written to the official spec that the sandbox answers otherwise on purpose, because management-api.md
 * (normative) says otherwise. They run as expected failures: one that starts passing fails the test, so the
 * list cannot go stale. Each is named in docs/dev/api-differences.md, "What the official client meets".
 */
export const NORMATIVE: Record<string, string> = {
  listTranslations: "translation settings {title, languages}, not the spec's Translation",
  getTranslation: "translation settings {title, languages}, not the spec's Translation",
  createTranslation: 'POST takes {title}, not {source, language, instructions}',
  updateTranslation: 'PUT takes {title}, not {instructions}',
  removeMemberFromOrganizationById: 'deleting a member answers 204, not 205',
  removeTeamFromOrganizationById: 'deleting a team answers 204, not 205',
  deleteMemberFromOrganizationTeamById: 'deleting a team member answers 204, not 205',
  deleteOrganizationSAMLProvider: 'deleting a SAML provider answers 204, not 205',
  unpublishIntegration: 'unpublishing an integration answers 204, not 205',
  'updateSiteSectionById: empty condition': 'a condition is 1..1024 characters (the spec: 0..1024)',
  'updateSiteSpaceById: empty condition': 'a condition is 1..1024 characters (the spec: 0..1024)',
  'updateSiteAdaptiveSchema: string claim':
    'visitor claims are booleans (the spec: also string, number, array, object)',
};

/** Served by the sandbox from management-api.md, absent from the official spec (no client method). */
export const NOT_IN_SPEC = [
  'POST /spaces/{spaceId}/transfer',
  'POST /spaces/{spaceId}/content/import',
  'POST /spaces/{spaceId}/change-requests/{changeRequestId}/content/import',
  'GET /spaces/{spaceId}/content/page/{pageId}/links',
  'GET /spaces/{spaceId}/content/files/{fileId}/backlinks',
  'GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links',
  'GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks',
  'GET /spaces/{spaceId}/links',
  'POST /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections',
  'DELETE /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}',
];
