/**
 * GET /orgs/{organizationId}/audit-events (listOrganizationAuditEvents): the events the sandbox recorded for the
 * writes it accepted (packages/sandbox/src/audit-log.ts), newest first, paginated (`limit` 1..100, default 20), filtered
 * by the spec's `from`, `to` (date-time, inclusive), `action`, `actor` and `target` (exact ids). Only organization
 * admins may read them, and only on an Enterprise plan (403 otherwise, as the spec says: `auditLogsAvailable`).
 */
import { param, type RequestContext } from '../context.js';
import type { AuditRecord } from '../audit-log.js';
import { badRequest, HttpError, type Reply } from '../http.js';
import { pageOf } from '../paginate.js';
import { queryString } from '../query.js';
import { isOrgAdmin, requireOrg } from './common.js';
import type { OrgRec } from '../records.js';
import { route, type RouteTable } from './table.js';

/** The spec: "An active Enterprise plan is required except for GitBook's own organization" (plan `internal`). */
export const auditLogsAvailable = (org: OrgRec): boolean => org.plan === 'enterprise_2024' || org.plan === 'internal';

const LIST = '/v1/orgs/:organizationId/audit-events';
export const AUDIT_DEFAULT_LIMIT = 20;
export const AUDIT_MAX_LIMIT = 100;

function limitOf(query: URLSearchParams): number {
  const raw = query.get('limit');
  if (raw === null || raw === '') return AUDIT_DEFAULT_LIMIT;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > AUDIT_MAX_LIMIT)
    throw badRequest(`query.limit: must be an integer between 1 and ${AUDIT_MAX_LIMIT} (got "${raw}")`);
  return n;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function timeOf(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const t = Date.parse(raw);
  if (!DATE_TIME.test(raw) || Number.isNaN(t))
    throw badRequest(`query.${name}: must be a date-time (RFC 3339), got "${raw}"`);
  return t;
}

function present(ctx: RequestContext, e: AuditRecord): Record<string, unknown> {
  const { orgId, ...event } = e;
  return {
    object: 'audit-event',
    ...event,
    urls: { location: ctx.apiUrl(`/orgs/${encodeURIComponent(orgId)}/audit-events/${e.id}`) },
  };
}

export const auditEventRoutes: RouteTable = {
  listOrganizationAuditEvents: route({
    method: 'GET',
    pattern: LIST,
    handler: (ctx) => {
      const org = requireOrg(ctx);
      if (!isOrgAdmin(ctx, org.id))
        throw new HttpError(
          403,
          `forbidden: only organization admins may list the audit events of "${param(ctx, 'organizationId')}"`,
        );
      if (!auditLogsAvailable(org) || ctx.audit?.faults.withheld?.has(org.id)) {
        throw new HttpError(
          403,
          `forbidden: audit logs need an active Enterprise plan; organization "${org.id}" has none`,
        );
      }
      const size = limitOf(ctx.query);
      const from = timeOf(ctx.query, 'from');
      const to = timeOf(ctx.query, 'to');
      const action = queryString(ctx.query, 'action');
      const actor = queryString(ctx.query, 'actor');
      const target = queryString(ctx.query, 'target');
      const events = (ctx.audit?.visible(org.id, ctx.now().getTime()) ?? []).filter((e) => {
        const at = Date.parse(e.occurredAt);
        return (
          (from === undefined || at >= from) &&
          (to === undefined || at <= to) &&
          (action === undefined || e.action === action) &&
          (actor === undefined || e.actor.id === actor) &&
          (target === undefined || e.target.id === target)
        );
      });
      const page = pageOf(ctx, events, (e) => present(ctx, e), size);
      return ctx.audit?.faults.reorder ? shuffled(page) : page;
    },
  }),
};

/** A page whose events are out of order (the `reorder` fault): the newest event last. */
function shuffled(page: Reply): Reply {
  const body = page.body as { items?: unknown[] } | undefined;
  if (!body?.items || body.items.length < 2) return page;
  return { ...page, body: { ...body, items: [...body.items.slice(1), body.items[0]] } };
}
