/**
 * How a site looks, against the sandbox: the adaptive schema sent in the official form (descriptions a manifest
 * leaves out filled in, no drift afterwards, export writes them out again) and the site customization (only the
 * written fields managed; every other field of the stored object survives an apply).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readForExport } from '../../src/export/index.js';
import { applyPlan } from '../../src/core/apply.js';
import { computePlan } from '../../src/core/reconcile.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import { sandboxPerTest, type SandboxRun } from './sandbox-per-test.js';

const start = sandboxPerTest('site-appearance');

const siteDoc = (spec: Record<string, unknown>): string => ['apiVersion: docops/v1', 'kind: Site', 'metadata: { organization: org-demo }', `spec: ${JSON.stringify(spec)}`, ''].join('\n');

async function converge(r: SandboxRun, text: string) {
  writeFileSync(join(r.dir, 'site.yaml'), text);
  const { desired } = await loadManifests(r.dir, KINDS, { env: {} });
  const { plan } = await computePlan(r.client, KINDS, desired);
  const report = await applyPlan(r.client, plan);
  expect(report.failed).toEqual([]);
  const next = (await computePlan(r.client, KINDS, desired)).plan;
  return { plan, next, report };
}

async function siteId(r: SandboxRun, title: string): Promise<string> {
  const sites = await r.client.listAll<{ id: string; title: string }>('/orgs/org-demo/sites');
  return sites.find((s) => s.title === title)!.id;
}

/** The spec `docops export` writes for the site titled `title`. */
async function exportedSpec(r: SandboxRun, title: string): Promise<Record<string, unknown>> {
  const [site] = await readForExport(r.client, KINDS.filter((k) => k.kind === 'Site'), 'org-demo');
  const docs = (site?.documents ?? []) as { spec: Record<string, unknown> }[];
  const doc = docs.find((d) => d.spec['title'] === title);
  if (!doc) throw new Error(`export wrote no site ${title}`);
  return doc.spec;
}

describe('adaptive schema in the official form', () => {
  it('a manifest without descriptions is sent with them; the next plan is empty; export leaves them out again', async () => {
    const r = await start();
    const written = {
      type: 'object',
      additionalProperties: false,
      properties: { beta: { type: 'boolean' }, staff: { type: 'boolean', description: 'Acme employee' }, unsigned: { type: 'object', additionalProperties: false, properties: { pro: { type: 'boolean' } } } },
    };
    const { plan, next } = await converge(r, siteDoc({ title: 'Looks', adaptiveSchema: written }));
    const put = plan.steps.flatMap((s) => s.requests).find((q) => q.method === 'PUT' && q.path.endsWith('/adaptive-schema'));
    expect(put?.body).toEqual({
      jsonSchema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          beta: { type: 'boolean', description: 'beta' },
          staff: { type: 'boolean', description: 'Acme employee' },
          unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', additionalProperties: false, properties: { pro: { type: 'boolean', description: 'pro' } } },
        },
      },
    });
    expect(next.steps).toEqual([]);
    const id = await siteId(r, 'Looks');
    const stored = await r.client.get<{ jsonSchema: unknown }>(`/orgs/org-demo/sites/${id}/adaptive-schema`);
    expect(stored.jsonSchema).toEqual((put?.body as { jsonSchema: unknown }).jsonSchema);

    const spec = await exportedSpec(r, 'Looks');
    expect(spec['adaptiveSchema']).toEqual(written);
  });
});
