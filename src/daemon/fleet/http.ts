/**
 * A fleet's HTTP endpoints (server.ts serves them): /readyz and the status page grouped by organization, one
 * /metrics for all (series labelled `org`), POST /reconcile for one organization (`?org=ID`) or all, POST /approve
 * routed to the organization whose plan waits for that checksum.
 */
import type { DocopsConfig } from '../../config/config.js';
import type { EndpointHandlers, ReconcileAnswer, Readiness, StatusHandlers } from '../server.js';
import type { FleetOrg, FleetStatus, FleetView as Fleet } from './types.js';

export type { FleetStatus } from './types.js';

export function fleetHandlers(fleet: Fleet, c: DocopsConfig): EndpointHandlers {
  const org = (id: string): FleetOrg | undefined => fleet.orgs.get(id);
  const pages = (o: FleetOrg): StatusHandlers => ({
    html: async () =>
      (await import('../status/html.js')).renderStatusHtml(
        await o.daemon.status.status(),
        `/api/orgs/${encodeURIComponent(o.config.id)}`,
      ),
    json: () => o.daemon.status.status(),
    run: (id: number) => o.daemon.status.run(id),
  });
  const approvals = [...fleet.orgs.values()]
    .map((o) => o.daemon)
    .find((d) => d.approvals?.token !== undefined)?.approvals;
  return {
    readiness: (id) => fleetReadiness(fleet, id),
    metrics: async () => ({ contentType: fleet.registry.contentType, body: await fleet.registry.metrics() }),
    reconcile: (wait, full, id) => reconcile(fleet, wait, full === true, id),
    ...(c.statusPage !== false
      ? {
          status: {
            html: async () => (await import('./status-html.js')).renderFleetHtml(await fleetStatus(fleet)),
            json: () => fleetStatus(fleet),
            run: () => undefined, // runs are numbered per organization: /api/orgs/{id}/runs/{n}
          },
          orgs: (id: string) => ((o) => (o ? pages(o) : undefined))(org(id)),
        }
      : {}),
    ...(c.reconcileSecret !== undefined ? { reconcileSecret: c.reconcileSecret } : {}),
    ...(approvals?.token !== undefined
      ? { approve: { token: approvals.token, handle: (body: unknown) => approve(fleet, body) } }
      : {}),
    logger: fleet.logger,
  };
}

/**
 * Ready while every organization of this daemon is ready (docs/daemon.md, "Many organizations"): each answers as a
 * single daemon would — one it writes once its manifests loaded and the API answered, one whose lease another
 * replica holds while it can read that lease — so a replica is in its Service only while it does all the work it
 * owns. The body says per organization what is ready and why not; `org` answers for one (undefined: none here).
 */
export function fleetReadiness(fleet: Fleet, org?: string): Readiness | undefined {
  if (org !== undefined) {
    const o = fleet.orgs.get(org);
    if (!o) return undefined;
    const r = o.daemon.readiness();
    return { ready: r.ready, body: { org, ...r.body, ...(o.shard !== undefined ? { shard: o.shard } : {}) } };
  }
  const orgs: Record<string, unknown> = {};
  const notReady: string[] = [];
  for (const [id, o] of fleet.orgs) {
    const r = o.daemon.readiness();
    if (!r.ready) notReady.push(id);
    orgs[id] = { ...r.body, ...(o.shard !== undefined ? { shard: o.shard } : {}) };
  }
  const ready = !fleet.isStopping && notReady.length === 0;
  const reason = fleet.isStopping
    ? 'stopping'
    : notReady.length > 0
      ? `not ready: ${notReady.join(', ')} (each organization's reason is under organizations)`
      : undefined;
  return {
    ready,
    body: { ready, ...(reason ? { reason } : {}), notReady, organizations: orgs, ...leasesBody(fleet) },
  };
}

function leasesBody(fleet: Fleet): Record<string, unknown> {
  const v = fleet.leaseView?.view();
  return v ? { leases: v } : {};
}

async function reconcile(fleet: Fleet, wait: boolean, full: boolean, id: string | undefined): Promise<ReconcileAnswer> {
  if (id !== undefined) {
    const o = fleet.orgs.get(id);
    if (!o) return { status: 404, body: { error: 'no such organization in this daemon' } };
    return o.daemon.requestReconcile(wait, full);
  }
  // Every organization, side by side: each answers for itself.
  const answers = await Promise.all(
    [...fleet.orgs].map(async ([org, o]) => [org, await o.daemon.requestReconcile(wait, full)] as const),
  );
  const worst = Math.max(...answers.map(([, a]) => a.status), 200);
  const accepted = answers.every(([, a]) => a.status < 300);
  return {
    status: accepted ? (wait ? 200 : 202) : worst,
    body: { organizations: Object.fromEntries(answers.map(([org, a]) => [org, { status: a.status, ...a.body }])) },
  };
}

/** The organization whose plan waits for this checksum approves it; none: the first one's 409 says so. */
function approve(fleet: Fleet, body: unknown): Promise<ReconcileAnswer> {
  const checksum = (body as { checksum?: unknown } | null)?.checksum;
  const daemons = [...fleet.orgs.values()].map((o) => o.daemon).filter((d) => d.approvals);
  const waiting = daemons.find((d) => d.approvals!.view().waiting?.checksum === checksum);
  return (waiting ?? daemons[0])!.requestApproval(body);
}

export async function fleetStatus(fleet: Fleet): Promise<FleetStatus> {
  const organizations = await Promise.all(
    [...fleet.orgs].map(async ([org, o]) => ({ org, shard: o.shard ?? null, ...(await o.daemon.status.status()) })),
  );
  return {
    generatedAt: new Date().toISOString(),
    fleet: {
      organizations: fleet.orgs.size,
      configured: fleet.config.organizations!.length,
      shard: fleet.config.shard ?? null,
      leases: fleet.leaseView?.view() ?? null,
    },
    organizations,
  };
}
