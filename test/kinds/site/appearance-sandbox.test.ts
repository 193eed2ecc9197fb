/**
 * How a site looks, against the sandbox: the adaptive schema sent in the official form (descriptions a manifest
 * leaves out filled in, no drift afterwards, export writes them out again) and the site customization (only the
 * written fields managed; every other field of the stored object survives an apply).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readForExport } from '../../../src/export/index.js';
import { applyPlan } from '../../../src/engine/apply.js';
import { computePlan } from '../../../src/engine/reconcile.js';
import { KINDS } from '../../../src/kinds/index.js';
import { loadManifests } from '../../../src/manifests/index.js';
import { sandboxPerTest, type SandboxRun } from '../sandbox-per-test.js';

const start = sandboxPerTest('site-appearance');

const siteDoc = (spec: Record<string, unknown>): string =>
  [
    'apiVersion: docops/v1',
    'kind: Site',
    'metadata: { organization: org-demo }',
    `spec: ${JSON.stringify(spec)}`,
    '',
  ].join('\n');

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
  const [site] = await readForExport(
    r.client,
    KINDS.filter((k) => k.kind === 'Site'),
    'org-demo',
  );
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
      properties: {
        beta: { type: 'boolean' },
        staff: { type: 'boolean', description: 'Acme employee' },
        unsigned: { type: 'object', additionalProperties: false, properties: { pro: { type: 'boolean' } } },
      },
    };
    const { plan, next } = await converge(r, siteDoc({ title: 'Looks', adaptiveSchema: written }));
    const put = plan.steps
      .flatMap((s) => s.requests)
      .find((q) => q.method === 'PUT' && q.path.endsWith('/adaptive-schema'));
    expect(put?.body).toEqual({
      jsonSchema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          beta: { type: 'boolean', description: 'beta' },
          staff: { type: 'boolean', description: 'Acme employee' },
          unsigned: {
            type: 'object',
            description: 'Unsigned claims of the site visitor.',
            additionalProperties: false,
            properties: { pro: { type: 'boolean', description: 'pro' } },
          },
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

const CUSTOMIZATION = (r: SandboxRun, id: string): Promise<Record<string, unknown>> =>
  r.client.get<Record<string, unknown>>(`/orgs/org-demo/sites/${id}/customization`);

describe('site customization', () => {
  it('only the written members change: members not written survive the apply as stored, also ones set after the plan', async () => {
    const r = await start();
    await converge(r, siteDoc({ title: 'Brand' }));
    const id = await siteId(r, 'Brand');
    // Someone customized the site by hand: a title, an announcement, a social account, a dark primary colour.
    const manual = await CUSTOMIZATION(r, id);
    delete manual['updatedAt'];
    const styling = manual['styling'] as Record<string, unknown>;
    styling['primaryColor'] = { light: '#111111', dark: '#222222' };
    Object.assign(manual, {
      title: 'Hand-made title',
      announcement: { enabled: true, message: 'Maintenance on Friday', style: 'warning' },
      socialAccounts: [{ platform: 'github', handle: 'acme', display: { footer: true, header: false } }],
    });
    expect((await r.client.request('PUT', `/orgs/org-demo/sites/${id}/customization`, { body: manual })).status).toBe(
      200,
    );

    // The manifest writes the light primary colour (not the dark one), the font, and the favicon.
    const customization = { styling: { primaryColor: { light: '#FF6600' }, font: 'Roboto' }, favicon: { emoji: '🚀' } };
    writeFileSync(join(r.dir, 'site.yaml'), siteDoc({ title: 'Brand', customization }));
    const { desired } = await loadManifests(r.dir, KINDS, { env: {} });
    const { plan } = await computePlan(r.client, KINDS, desired);
    const step = plan.steps.find((s) => s.id === 'Site/org-demo/Brand#customization');
    expect(step?.before).toEqual({ styling: { primaryColor: { light: '#111111' }, font: 'Inter' }, favicon: {} });
    expect(step?.after).toEqual(customization);
    expect(step?.requests).toEqual([
      {
        method: 'PUT',
        path: `/orgs/org-demo/sites/${id}/customization`,
        body: customization,
        merge: expect.objectContaining({ omit: ['updatedAt'], whole: ['/favicon', '/styling/font'] }),
      },
    ]);

    // A change made after the plan, to a member the manifest does not write, is not undone by the apply.
    const later = await CUSTOMIZATION(r, id);
    delete later['updatedAt'];
    later['trademark'] = { enabled: false };
    expect((await r.client.request('PUT', `/orgs/org-demo/sites/${id}/customization`, { body: later })).status).toBe(
      200,
    );

    const report = await applyPlan(r.client, plan);
    expect(report.failed).toEqual([]);
    const stored = await CUSTOMIZATION(r, id);
    const expected = structuredClone(later);
    Object.assign(expected['styling'] as object, {
      primaryColor: { light: '#FF6600', dark: '#222222' },
      font: 'Roboto',
    });
    expected['favicon'] = { emoji: '🚀' };
    const { updatedAt: _stamp, ...storedSettings } = stored;
    expect(storedSettings).toEqual(expected);
    expect((await computePlan(r.client, KINDS, desired)).plan.steps).toEqual([]);

    // Export writes what differs from a new site's customization; fed back it plans nothing.
    const spec = await exportedSpec(r, 'Brand');
    expect(spec['customization']).toEqual({
      title: 'Hand-made title',
      styling: { primaryColor: { light: '#FF6600', dark: '#222222' }, font: 'Roboto' },
      favicon: { emoji: '🚀' },
      announcement: { enabled: true, message: 'Maintenance on Friday', style: 'warning' },
      trademark: { enabled: false },
      socialAccounts: [{ platform: 'github', handle: 'acme', display: { footer: true, header: false } }],
    });
    writeFileSync(join(r.dir, 'site.yaml'), siteDoc(spec));
    const again = await loadManifests(r.dir, KINDS, { env: {} });
    expect((await computePlan(r.client, KINDS, again.desired)).plan.steps).toEqual([]);
  });

  it('sites created with a customization get it in the same apply: one brand file named by two sites, an anchor within a document', async () => {
    const r = await start();
    writeFileSync(
      join(r.dir, 'brand.yaml'),
      'styling:\n  primaryColor: { light: "#FF6600", dark: "#FF8800" }\n  corners: straight\nthemes: { default: dark }\n',
    );
    const text = [
      siteDoc({ title: 'Docs', customization: { file: 'brand.yaml' } }),
      siteDoc({ title: 'Status', customization: { file: 'brand.yaml' } }),
      // Within one document an anchor reuses a value (here the light colour for both themes).
      [
        'apiVersion: docops/v1',
        'kind: Site',
        'metadata: { organization: org-demo }',
        'spec:',
        '  title: Blog',
        '  customization:',
        '    styling: { primaryColor: { light: &orange "#FF6600", dark: *orange }, corners: straight }',
        '    themes: { default: dark }',
        '',
      ].join('\n'),
    ].join('---\n');
    const { plan, next } = await converge(r, text);
    expect(plan.steps.filter((s) => s.id.endsWith('#customization')).map((s) => s.id)).toEqual([
      'Site/org-demo/Blog#customization',
      'Site/org-demo/Docs#customization',
      'Site/org-demo/Status#customization',
    ]);
    expect(next.steps).toEqual([]);
    for (const [title, dark] of [
      ['Docs', '#FF8800'],
      ['Status', '#FF8800'],
      ['Blog', '#FF6600'],
    ] as const) {
      const stored = await CUSTOMIZATION(r, await siteId(r, title));
      expect(stored['styling']).toMatchObject({
        primaryColor: { light: '#FF6600', dark },
        corners: 'straight',
        font: 'Inter',
      });
      // `toggeable` is not written: the new site's value stays.
      expect(stored['themes']).toEqual({ default: 'dark', toggeable: true });
    }
  });
});
