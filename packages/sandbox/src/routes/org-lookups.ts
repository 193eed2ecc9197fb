/**
 * Small organization operations of management-api.md: the organizations of an e-mail domain, the caller's ping
 * (their last-seen time) and deleting an invite link.
 */
import { param } from '../context.js';
import { ok } from '../http.js';
import { linkInvites, memberKey, members, orgs } from '../records.js';
import { findInOrg, requireOrg } from './common.js';
import { dropBuried, remove } from './crud.js';
import { presentOrg } from './orgs.js';
import { route, type RouteTable } from './table.js';

export const orgLookupRoutes: RouteTable = {
  getOrganizationsForEmailDomain: route({
    method: 'GET',
    pattern: '/v1/email-domains/:emailDomain/orgs',
    handler: (ctx) => {
      // Every organization that lists the domain (case-insensitive), not only the caller's: who may join by it.
      const domain = param(ctx, 'emailDomain').toLowerCase();
      const found = orgs(ctx.store).where((o) => o.emailDomains.some((d) => d.toLowerCase() === domain));
      return ok({ organizations: found.map((o) => presentOrg(ctx, o)) });
    },
  }),
  updateOrganizationMemberLastSeenAt: route({
    method: 'POST',
    pattern: '/v1/orgs/:organizationId/ping',
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const key = memberKey(org.id, ctx.userId);
      const m = members(ctx.store).get(key);
      if (m) members(ctx.store).put({ ...m, lastSeenAt: ctx.now().toISOString() });
      return ok({}); // the visitor claims token is optional in both references; the sandbox issues none
    },
  }),
  deleteOrganizationInviteById: remove('/v1/orgs/:organizationId/link-invites/:inviteId', (ctx) =>
    dropBuried(ctx, 'link-invite', findInOrg(ctx, linkInvites(ctx.store), 'inviteId'), linkInvites(ctx.store)),
  ),
};
