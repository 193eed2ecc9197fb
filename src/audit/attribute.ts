/**
 * Who caused the drift: after the diff, a plan with steps is annotated with the most recent audit event on each
 * step's object (Plan.attribution). One bounded, paginated read of `GET /orgs/{id}/audit-events` per organization
 * with drift (at most MAX_PAGES pages of 100 events, from the last LOOKBACK_MS); none when the plan has no step.
 * Plain data in, plain data out; when the events cannot be read (403: not an admin or no Enterprise plan, 404,
 * anything else) the plan says so in one line and goes on. Never throws.
 */
import type { ApiClient } from '../model/api-client.js';
import { ApiError } from '../model/errors.js';
import type { KindDefinition } from '../model/kind.js';
import { originOf, type AttributedChange, type Plan } from '../model/plan.js';
import { isAuditEvent, matchEvents, type AuditEvent } from './match.js';

export const AUDIT_PAGE_SIZE = 100;
export const MAX_PAGES = 5;
export const LOOKBACK_MS = 30 * 24 * 60 * 60 * 1000;

export interface AttributeOptions {
  now?: Date;
  maxPages?: number;
}

interface Page {
  items?: AuditEvent[];
  next?: { page: string };
}

export async function attributeDrift(
  client: ApiClient,
  plan: Plan,
  kinds: readonly KindDefinition[],
  options: AttributeOptions = {},
): Promise<Plan> {
  // A step a manifest edit asked for has no live author to find (Plan.manifestChanges).
  const drift = plan.steps.filter((s) => originOf(plan, s) !== 'manifests');
  if (drift.length === 0) return plan;
  const now = options.now ?? new Date();
  const from = new Date(now.getTime() - LOOKBACK_MS).toISOString();
  const changes: AttributedChange[] = [];
  const problems: string[] = [];
  for (const org of [...new Set(drift.map((s) => s.org))]) {
    const steps = drift.filter((s) => s.org === org);
    const events: AuditEvent[] = [];
    try {
      let page: string | undefined;
      for (let n = 0; n < (options.maxPages ?? MAX_PAGES); n++) {
        const body = await client.get<Page>(`/orgs/${encodeURIComponent(org)}/audit-events`, {
          limit: AUDIT_PAGE_SIZE,
          from,
          ...(page !== undefined ? { page } : {}),
        });
        events.push(...(Array.isArray(body?.items) ? body.items.filter(isAuditEvent) : []));
        page = body?.next?.page;
        // Stop once every step has its newest event: the list is newest first.
        if (page === undefined || matchEvents(steps, events, kinds).length === steps.length) break;
      }
    } catch (err) {
      problems.push(`${org}: ${whyUnreadable(err)}`);
    }
    changes.push(...matchEvents(steps, events, kinds));
  }
  const unavailable =
    problems.length > 0
      ? `audit events could not be read (${problems.join('; ')}); the plan does not say who changed what`
      : undefined;
  return { ...plan, attribution: { changes, ...(unavailable !== undefined ? { unavailable } : {}) } };
}

function whyUnreadable(err: unknown): string {
  if (err instanceof ApiError && err.status !== undefined) {
    if (err.status === 403 || err.status === 401)
      return `HTTP ${err.status}: the token may not read them (organization admins only, on a plan with audit logs)`;
    if (err.status === 404) return 'HTTP 404: the API does not serve them for this organization';
    return `HTTP ${err.status}`;
  }
  return err instanceof Error ? err.name : 'unknown error';
}
