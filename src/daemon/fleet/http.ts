/**
 * A fleet's HTTP endpoints (server.ts serves them): /readyz and the status page grouped by organization, one
 * /metrics for all (series labelled `org`), POST /reconcile for one organization (`?org=ID`) or all, POST /approve
 * routed to the organization whose plan waits for that checksum.
 */
import type { DaemonConfig } from '../config.js';
import type { EndpointHandlers, ReconcileAnswer, Readiness, StatusHandlers } from '../server.js';
import type { FleetOrg, FleetStatus, FleetView as Fleet } from './types.js';

export type { FleetStatus } from './types.js';

export function fleetHandlers(fleet: Fleet, c: DaemonConfig): EndpointHandlers {
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
    readiness: () => fleetReadiness(fleet),
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
 * Ready while any organization is (a standby counts, as with a single organization): one organization's bad token
 * or broken manifests must not take the others off the Service. Each organization's own state is in the body
 * and in `docops_ready{org}`.
 */
export function fleetReadiness(fleet: Fleet): Readiness {
  const orgs: Record<string, unknown> = {};
  let any = false;
  for (const [id, o] of fleet.orgs) {
    const r = o.daemon.readiness();
    any ||= r.ready;
    orgs[id] = { ...r.body, ...(o.shard !== undefined ? { shard: o.shard } : {}) };
  }
  const ready = !fleet.isStopping && (any || fleet.orgs.size === 0);
  return {
    ready,
    body: {
      ready,
      ...(fleet.isStopping ? { reason: 'stopping' } : !ready ? { reason: 'no organization is ready' } : {}),
      organizations: orgs,
      ...leasesBody(fleet),
    },
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
function approve(fleet: Fleet, body: unknown): ReconcileAnswer {
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
