/**
 * Small organization operations of management-api.md: the organizations of an e-mail domain, the caller's ping
 * (their last-seen time) and deleting an invite link.
 */
import { param } from '../context.js';
import { ok } from '../http.js';
import { linkInvites, memberKey, members, orgs } from '../records.js';
import { requireOrg, type RouteModule } from './common.js';
import { deletedOrAbsent } from './crud.js';
import { presentOrg } from './orgs.js';

export const orgLookupRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    pattern: '/v1/email-domains/:emailDomain/orgs',
    handler: (ctx) => {
      // Every organization that lists the domain (case-insensitive), not only the caller's: who may join by it.
      const domain = param(ctx, 'emailDomain').toLowerCase();
      const found = orgs(ctx.store).where((o) => o.emailDomains.some((d) => d.toLowerCase() === domain));
      return ok({ organizations: found.map((o) => presentOrg(ctx, o)) });
    },
  });
  router.add({
    method: 'POST',
    pattern: '/v1/orgs/:organizationId/ping',
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const key = memberKey(org.id, ctx.userId);
      const m = members(ctx.store).get(key);
      if (m) members(ctx.store).put({ ...m, lastSeenAt: ctx.now().toISOString() });
      return ok({}); // the visitor claims token is optional in both references; the sandbox issues none
    },
  });
  router.add({
    method: 'DELETE',
    pattern: '/v1/orgs/:organizationId/link-invites/:inviteId',
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const invite = linkInvites(ctx.store).get(param(ctx, 'inviteId'));
      return deletedOrAbsent(ctx, 'link-invite', invite?.orgId === org.id ? invite : undefined, linkInvites(ctx.store));
    },
  });
};
