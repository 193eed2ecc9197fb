/** Organizations: list the caller's, get one, patch one. */
import type { RequestContext } from '../context.js';
import { auditLogsAvailable } from './audit-events.js';
import { badRequest } from '../http.js';
import type { OrgRec } from '../records.js';
import { MEMBER_ROLES, memberKey, members, orgs } from '../records.js';
import { sites } from '../site-records.js';
import { array, boolean, literal, nullable, object, oneOf, string } from '../validate.js';
import { mergeRules } from '../validate-spec-fields.js';
import { isOrgAdmin, permissionFlags, requireOrg } from './common.js';
import { list, read, update, written } from './crud.js';
import type { RouteTable } from './table.js';

const ORG_PERMISSIONS = [
  'view',
  'access',
  'admin',
  'ownTeam',
  'createContent',
  'createOpenAPISpec',
  'viewBilling',
  'listMembers',
  'listTeams',
  'listIntegrations',
  'listInstallations',
  'installIntegration',
] as const;

export function presentOrg(ctx: RequestContext, org: OrgRec): Record<string, unknown> {
  return {
    object: 'organization',
    id: org.id,
    title: org.title,
    createdAt: org.createdAt,
    emailDomains: [...org.emailDomains],
    ...(org.hostname !== undefined ? { hostname: org.hostname } : {}),
    type: org.type,
    defaultRole: org.defaultRole,
    ...(org.defaultContent ? { defaultContent: { ...org.defaultContent } } : {}),
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    plan: org.plan,
    auditLogs: auditLogsAvailable(org),
    mergeRules: structuredClone(org.mergeRules ?? { type: 'none' }),
    urls: {
      location: ctx.apiUrl(`/orgs/${org.id}`),
      app: ctx.appUrl(`/o/${org.id}`),
      ...(org.logo !== undefined ? { logo: org.logo } : {}),
    },
    trial: { status: 'notapplicable', count: 0 },
    permissions: permissionFlags(isOrgAdmin(ctx, org.id), ORG_PERMISSIONS, [
      'view',
      'access',
      'listMembers',
      'listTeams',
    ]),
  };
}

const patchOrg = object({
  title: string({ min: 2, max: 255, pattern: /\S.*\S/ }),
  emailDomains: array(string()),
  // management-api.md: the hostname is the organization's subdomain (Subdomain: 3..32, this pattern).
  hostname: string({ min: 3, max: 32, pattern: /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/ }),
  defaultRole: nullable(oneOf(MEMBER_ROLES)),
  defaultContent: nullable(object({ type: literal('site'), site: string({ min: 1 }) }, ['type', 'site'])),
  logo: nullable(string({ max: 2048, format: 'uri' })),
  sso: boolean(),
  ai: boolean(),
  inviteLinks: boolean(),
  mergeRules: mergeRules(false), // the official spec's; management-api.md does not list it
});

export const orgRoutes: RouteTable = {
  listOrganizationsForAuthenticatedUser: list(
    '/v1/orgs',
    (ctx) => orgs(ctx.store).where((o) => members(ctx.store).has(memberKey(o.id, ctx.userId))),
    presentOrg,
  ),
  getOrganizationById: read('/v1/orgs/:organizationId', requireOrg, presentOrg),
  updateOrganizationById: update(
    '/v1/orgs/:organizationId',
    patchOrg,
    (ctx, b) => {
      const org = requireOrg(ctx);
      // Like every other id in a body: a default content naming no site of the organization is refused.
      if (b.defaultContent && sites(ctx.store).get(b.defaultContent.site)?.orgId !== org.id) {
        throw badRequest(
          `body.defaultContent.site: site "${b.defaultContent.site}" not found in organization "${org.id}"`,
        );
      }
      const fields = [
        'title',
        'emailDomains',
        'hostname',
        'defaultRole',
        'defaultContent',
        'logo',
        'sso',
        'ai',
        'inviteLinks',
        'mergeRules',
      ] as const;
      return orgs(ctx.store).put(written(org, b, fields, ['defaultContent', 'logo']));
    },
    presentOrg,
  ),
};
