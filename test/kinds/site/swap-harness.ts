/**
 * A site against a fresh sandbox, manifest by manifest: write the Site document, plan, apply, plan again; and
 * the live structure read back as `path: title@path,…` per section (`*` marks defaults).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ApiClient } from '../../../src/model/api-client.js';
import { applyPlan } from '../../../src/engine/apply.js';
import { type ApplyReport } from '../../../src/model/apply-report.js';
import type { Plan } from '../../../src/model/plan.js';
import { computePlan } from '../../../src/engine/reconcile.js';
import { KINDS } from '../../../src/kinds/index.js';
import { loadManifests } from '../../../src/manifests/index.js';
import type { SandboxRun } from '../sandbox-per-test.js';

export const TITLE = 'Acme Help Center';

export function siteYaml(spec: Record<string, unknown>, prune = false): string {
  return [
    'apiVersion: docops/v1',
    'kind: Site',
    'metadata: { organization: org-demo }',
    ...(prune ? ['prune: true'] : []),
    `spec: ${JSON.stringify(spec)}`,
    '',
  ].join('\n');
}

export interface Round {
  plan: Plan;
  report: ApplyReport;
  /** Write requests the sandbox saw during the apply (`METHOD route status`, site prefix as `~`). */
  writes: string[];
  next: Plan;
}

/** Plan and apply `spec`, then plan it again. */
export async function round(r: SandboxRun, spec: Record<string, unknown>, prune = false): Promise<Round> {
  writeFileSync(join(r.dir, 'site.yaml'), siteYaml(spec, prune));
  const { desired } = await loadManifests(r.dir, KINDS, { env: {} });
  const { plan } = await computePlan(r.client, KINDS, desired);
  r.sb.resetStats();
  const report = await applyPlan(r.client, plan);
  const writes = r.sb
    .stats()
    .requests.filter((q) => q.method !== 'GET')
    .map((q) => `${q.method} ${q.route.replace('/v1/orgs/:organizationId/sites/:siteId', '~')} ${q.status}`);
  const next = (await computePlan(r.client, KINDS, desired)).plan;
  return { plan, report, writes, next };
}

/** The round converged: nothing failed, nothing blocked, no warning, and the next plan is empty. */
export function expectConverged(x: Round): void {
  expect(x.report.failed).toEqual([]);
  expect(x.plan.blocked).toEqual([]);
  expect(x.plan.warnings).toEqual([]);
  expect(x.next.steps).toEqual([]);
  expect(x.next.warnings).toEqual([]);
  expect(x.next.blocked).toEqual([]);
}

export async function siteBase(client: ApiClient): Promise<string> {
  const sites = await client.listAll<{ id: string; title: string }>('/orgs/org-demo/sites');
  return `/orgs/org-demo/sites/${sites.find((s) => s.title === TITLE)!.id}`;
}

export interface SiteSpaceItem {
  id: string;
  path: string;
  section?: string;
  default?: boolean;
  space: { id: string; title: string };
}

/** `{section path: ['Title@path', …]}` in navigation order, `*` after the default section and each section's default site space; root ones under `/`. */
export async function structure(client: ApiClient): Promise<Record<string, string[]>> {
  const base = await siteBase(client);
  const sections = await client.listAll<{ id: string; path: string; default?: boolean }>(`${base}/sections`);
  const items = await client.listAll<SiteSpaceItem>(`${base}/site-spaces`);
  const show = (x: SiteSpaceItem): string => `${x.space.title}@${x.path}${x.default ? '*' : ''}`;
  if (sections.length === 0) return { '/': items.map(show) };
  const out: Record<string, string[]> = {};
  for (const s of sections) out[`${s.path}${s.default ? '*' : ''}`] = items.filter((x) => x.section === s.id).map(show);
  return out;
}

/** Site-space ids by `section/space title`. */
export async function siteSpaceIds(client: ApiClient): Promise<Map<string, string>> {
  const base = await siteBase(client);
  const sections = await client.listAll<{ id: string; path: string }>(`${base}/sections`);
  const items = await client.listAll<SiteSpaceItem>(`${base}/site-spaces`);
  const pathOf = new Map(sections.map((s) => [s.id, s.path]));
  return new Map(items.map((x) => [`${x.section ? pathOf.get(x.section) : ''}/${x.space.title}`, x.id]));
}
