/** The in-process pipeline the reliability tests drive: load manifests, plan against a sandbox, apply. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/model/api-client.js';
import { applyPlan } from '../../src/engine/apply.js';
import type { ApplyReport } from '../../src/model/apply-report.js';
import type { Plan } from '../../src/model/plan.js';
import { computePlan, type PlanOptions } from '../../src/engine/reconcile.js';
import type { DesiredState } from '../../src/model/state.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import type { RunningSandbox, SandboxStats } from '@docops/sandbox';

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `docops-${prefix}-`));
}

/** A client for a sandbox with short backoff, so retried faults cost milliseconds, not seconds. */
export function fastClient(sb: RunningSandbox, concurrency = 8): ApiClient {
  return createClient({
    baseUrl: sb.url,
    token: sb.token,
    concurrency,
    retry: { maxRetries: 5, minDelayMs: 2, maxDelayMs: 20, maxRetryAfterMs: 50 },
  });
}

export async function loadDesired(dir: string): Promise<DesiredState> {
  return (await loadManifests(dir, KINDS, { env: {} })).desired;
}

export async function planOnce(client: ApiClient, desired: DesiredState, options: PlanOptions = {}): Promise<Plan> {
  return (await computePlan(client, KINDS, desired, options)).plan;
}

export async function planAndApply(
  client: ApiClient,
  desired: DesiredState,
  options: PlanOptions = {},
): Promise<{ plan: Plan; report: ApplyReport }> {
  const plan = await planOnce(client, desired, options);
  const report = await applyPlan(client, plan, { concurrency: 8 });
  return { plan, report };
}

/** Request paths in the sandbox log are absolute (`/v1/...`); plan paths are below /v1. */
export const logPath = (planPath: string): string => `/v1${planPath}`;

/** Log entries whose request the sandbox processed (answered 2xx, or processed and then reset the socket or answered 5xx). */
export function processed(stats: SandboxStats, method: string, route: string): number {
  return stats.requests.filter(
    (r) =>
      r.method === method &&
      r.route === route &&
      ((r.status >= 200 && r.status < 300) || r.fault === 'resetAfter' || r.fault === '5xxAfter'),
  ).length;
}

/** Every DELETE request path the plans asked for (refs cannot appear in a delete path of these kinds). */
export function plannedDeletePaths(plans: readonly Plan[]): Set<string> {
  const out = new Set<string>();
  for (const p of plans)
    for (const s of p.steps) for (const r of s.requests) if (r.method === 'DELETE') out.add(logPath(r.path));
  return out;
}
