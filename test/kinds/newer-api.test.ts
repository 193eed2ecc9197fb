/**
 * Values from a newer API (issue 33, "Under evolve"): a value outside the enums docops knows, in a field a manifest
 * manages, is drift shown with its raw value (never read as another value: a team `maintainer` as `member`, a grant
 * `suggest` as no role, a SAML default role as none, unknown merge rules as none) and the apply fixes it; in a field
 * no manifest manages it is left as it is. The every-kind world ("before" applied) under `evolve=1`: every object
 * evolved, so every kind's reading is exercised.
 */
import { appendFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evolvedRecords, orgs } from '@docops/sandbox';
import { applyPlan } from '../../src/engine/apply.js';
import type { Plan, Step } from '../../src/model/plan.js';
import { renderPlan } from '../../src/render/index.js';
import { liveRedirect, manifestDestination } from '../../src/kinds/site/live-reads.js';
import { loadDesired, planOnce, tempDir } from '../helpers/pipeline.js';
import { startChangeWorld, type ChangeWorld } from '../reliability/change-world.js';

let w: ChangeWorld;
let plan: Plan;

beforeAll(async () => {
  w = await startChangeWorld();
  w.sandbox.setFaults('evolve=1,seed=5');
  plan = await planOnce(w.client, await loadDesired(w.before));
}, 60_000);
afterAll(async () => w?.close());

const stepsOf = (kind: string): Step[] => plan.steps.filter((s) => s.kind === kind);
const shown = (steps: readonly Step[], value: string): Step[] =>
  steps.filter((s) => JSON.stringify(s.before).includes(JSON.stringify(value)));

describe('a value docops does not know, in a field a manifest manages', () => {
  it.each([
    ['Members', 'billing'],
    ['Organization', 'billing'],
    ['Team', 'maintainer'],
    ['SamlProvider', 'billing'],
    ['Site', 'internal'],
    ['Collection', 'suggest'],
    ['CollectionAccess', 'suggest'],
    ['SpaceAccess', 'suggest'],
    ['SiteAccess', 'suggest'],
  ])('%s: drift showing "%s" as the API sent it, in text, markdown and JSON', (kind, value) => {
    const steps = shown(stepsOf(kind), value);
    expect(steps.length, `${kind} steps: ${JSON.stringify(stepsOf(kind).map((s) => s.before))}`).toBeGreaterThan(0);
    const one: Plan = { ...plan, steps, reported: [], blocked: [] };
    for (const format of ['text', 'markdown', 'json'] as const) expect(renderPlan(one, format)).toContain(value);
  });

  it('shows the raw value in the text plan as a value, beside the one the manifest writes', () => {
    const member = shown(stepsOf('Members'), 'billing')[0]!;
    const one: Plan = { ...plan, steps: [member], reported: [], blocked: [] };
    expect(renderPlan(one, 'text')).toMatch(/role: "billing" → "\w+"/);
  });
});

describe('a value docops does not know, in a field no manifest manages', () => {
  it('is left as it is: no request writes it', () => {
    const writes = (path: string, field: string): Step[] =>
      plan.steps.filter((s) =>
        s.requests.some(
          (r) => r.path.endsWith(path) && typeof r.body === 'object' && r.body !== null && field in r.body,
        ),
      );
    expect(writes('/customization', 'styling').filter((s) => JSON.stringify(s.after).includes('theme'))).toEqual([]);
    expect(
      plan.steps.filter((s) => JSON.stringify(s.after ?? {}).includes('"visibility"') && s.kind === 'Space'),
    ).toEqual([]);
  });
});

describe('the apply', () => {
  it('fixes the managed values and keeps the others; the next plan is empty', async () => {
    const report = await applyPlan(w.client, plan, { concurrency: 8 });
    expect(report.failed).toEqual([]);
    w.sandbox.setFaults(undefined);
    expect((await planOnce(w.client, await loadDesired(w.before))).steps.map((s) => s.id)).toEqual([]);
    const kept = evolvedRecords(w.sandbox.store)
      .all()
      .filter((r) => r.enum && ['spaces', 'openApiSpecs', 'siteCustomizations'].includes(r.enum.table));
    expect(kept.length).toBeGreaterThan(0);
    for (const r of kept) {
      const e = r.enum!;
      const row = w.sandbox.store.table(e.table).get(e.rowId);
      let v: unknown = row;
      for (const k of e.rowAt.split('/').slice(1)) v = (v as Record<string, unknown>)[k];
      expect(v, `${r.path} ${e.rowAt}`).toBe(e.value);
    }
  });
});

describe('merge rules of a type docops does not know', () => {
  it('are drift shown as the API sent them, not as none', async () => {
    const store = w.sandbox.store;
    const org = orgs(store).get('org-demo')!;
    orgs(store).put({ ...org, mergeRules: { type: 'require-ci' } as never });
    const dir = tempDir('newer-merge-rules');
    cpSync(w.before, dir, { recursive: true });
    appendFileSync(join(dir, 'organization.yaml'), '  mergeRules: { type: none }\n');
    const next = await planOnce(w.client, await loadDesired(dir));
    const step = next.steps.find((s) => s.kind === 'Organization');
    expect(step?.before).toEqual({ mergeRules: { type: 'require-ci' } });
    orgs(store).put(org);
  });
});

describe('a redirect to a destination of a kind docops does not know', () => {
  it('is read as the API sent it, never dropped (the list is complete: a rule docops cannot see it cannot keep)', () => {
    const raw = { kind: 'openapi-operation', spec: 'orders', operation: 'listOrders' };
    const rule = liveRedirect({ id: 'r1', source: '/api/orders', destination: raw });
    expect(rule?.destination).toEqual({ kind: 'newer', raw });
    const structure = { sections: [], siteSpaces: [] } as unknown as Parameters<typeof manifestDestination>[1];
    expect(manifestDestination(rule!.destination, structure, (id) => id)).toEqual(raw);
  });
});
