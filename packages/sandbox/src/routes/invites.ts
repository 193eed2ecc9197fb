/**
 * POST /orgs/{id}/invites: adds the addresses as members right away (the sandbox has no mailbox), creating
 * users for unknown addresses. Addresses that are already members are skipped and not counted.
 */
import { ok } from '../http.js';
import type { MemberRole } from '../records.js';
import { MEMBER_ROLES, memberKey, members, users } from '../records.js';
import { array, boolean, byType, nullable, object, oneOf, string } from '../validate.js';
import { requireOrg } from './common.js';
import { route, type RouteTable } from './table.js';
import { newId } from './crud.js';

const email = string({ format: 'email', max: 320 });
const role = nullable(oneOf(MEMBER_ROLES));
const invite = object(
  {
    emails: array(
      byType<{ email: string; role?: MemberRole | null }>({
        string: (v, path) => ({ email: email(v, path) }),
        object: object({ email, role }, ['email', 'role']),
      }),
    ),
    role,
    sso: boolean(),
  },
  ['emails'],
);

/** "jane.doe+x@acme.test" → "Jane Doe X". */
export function displayNameFromEmail(address: string): string {
  const local = address.split('@')[0] ?? address;
  const words = local.split(/[._+-]+/).filter((w) => w !== '');
  return words.map((w) => w[0]?.toUpperCase() + w.slice(1)).join(' ') || address;
}

export const inviteRoutes: RouteTable = {
  inviteUsersToOrganization: route({
    method: 'POST',
    pattern: '/v1/orgs/:organizationId/invites',
    body: invite,
    handler: (ctx, b) => {
      const org = requireOrg(ctx);
      const byEmail = new Map(
        users(ctx.store)
          .all()
          .map((u) => [u.email.toLowerCase(), u]),
      );
      const joinedAt = ctx.now().toISOString();
      const added: string[] = [];
      for (const entry of b.emails) {
        const address = entry.email.toLowerCase();
        let user = byEmail.get(address);
        if (!user) {
          const id = newId(ctx, users(ctx.store), 'u');
          user = users(ctx.store).put({ id, displayName: displayNameFromEmail(entry.email), email: entry.email });
          byEmail.set(address, user);
        }
        const key = memberKey(org.id, user.id);
        if (members(ctx.store).has(key)) continue;
        const memberRole = entry.role !== undefined ? entry.role : b.role !== undefined ? b.role : org.defaultRole;
        members(ctx.store).put({
          id: key,
          orgId: org.id,
          userId: user.id,
          role: memberRole,
          disabled: false,
          joinedAt,
          sso: b.sso ?? false,
        });
        added.push(user.id);
      }
      return ok({ users: added, invited: added.length });
    },
  }),
};
