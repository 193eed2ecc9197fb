/**
 * A single-organization daemon's HTTP endpoints (server.ts serves them): its readiness, metrics, status page,
 * POST /reconcile and POST /approve. A fleet serves its own (fleet/http.ts) around its organizations' daemons.
 */
import type { DaemonApprovals } from '../policy/daemon-approvals.js';
import type { DocopsConfig } from '../config/config.js';
import type { DaemonMetrics } from './metrics.js';
import type { EndpointHandlers, ReconcileAnswer, Readiness } from './server.js';
import type { StatusTracker } from './status/tracker.js';
import type { Logger } from '../log.js';

export interface ServedDaemon {
  readonly config: DocopsConfig;
  readonly metrics: DaemonMetrics;
  readonly status: StatusTracker;
  readonly logger: Logger;
  readonly approvals: DaemonApprovals | undefined;
  readiness(): Readiness;
  requestReconcile(wait: boolean, full: boolean): Promise<ReconcileAnswer>;
  requestApproval(body: unknown): Promise<ReconcileAnswer>;
}

export function daemonEndpoints(d: ServedDaemon): EndpointHandlers {
  const c = d.config;
  return {
    // One organization's daemon: `?org=` is a fleet's (src/daemon/fleet/http.ts).
    readiness: (org) => (org === undefined ? d.readiness() : undefined),
    metrics: async () => ({ contentType: d.metrics.registry.contentType, body: await d.metrics.registry.metrics() }),
    reconcile: (wait, full) => d.requestReconcile(wait, full === true),
    ...(c.statusPage !== false
      ? {
          status: {
            html: async () => (await import('./status/html.js')).renderStatusHtml(await d.status.status()),
            json: () => d.status.status(),
            run: (id: number) => d.status.run(id),
          },
        }
      : {}),
    ...(c.reconcileSecret !== undefined ? { reconcileSecret: c.reconcileSecret } : {}),
    ...(d.approvals?.token !== undefined
      ? { approve: { token: d.approvals.token, handle: (body: unknown) => d.requestApproval(body) } }
      : {}),
    logger: d.logger,
  };
}
