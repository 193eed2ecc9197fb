/**
 * OpenAPISpec against the sandbox: three specs (one URL, two files) created in one apply; the second plan is
 * empty; editing one spec file publishes exactly one new version (counted in the sandbox); an apply whose text
 * the platform cannot parse fails its step (and the run); export writes the text specs as files beside the
 * manifests and plans no change (a later export removes the file of a deleted spec); prune deletes a spec with its versions listed as cascades.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import { exportOrganization } from '../../../src/export/index.js';
import { KINDS } from '../../../src/kinds/index.js';
import { openApiSpecs, openApiVersions } from '../../../packages/sandbox/src/openapi-records.js';
import type { RunningSandbox } from '@docops/sandbox';
import { loadDesired, planOnce } from '../../helpers/pipeline.js';
import { sandboxPerTest } from '../sandbox-per-test.js';
import { ORG } from '../seed.js';

const start = sandboxPerTest('openapi');

const PETS_V1 = 'openapi: 3.1.0\ninfo:\n  title: Pets\n  version: "1"\npaths: {}\n';
const PETS_V2 = 'openapi: 3.1.0\ninfo:\n  title: Pets\n  version: "2"\npaths: {}\n';
const STORE = '{"openapi":"3.0.3","info":{"title":"Store","version":"1"},"paths":{}}';

const MANIFEST = `apiVersion: docops/v1
kind: OpenAPISpec
metadata: { organization: ${ORG} }
spec:
  slug: public-api
  source: { url: https://example.com/openapi.json }
---
apiVersion: docops/v1
kind: OpenAPISpec
metadata: { organization: ${ORG} }
spec:
  slug: pets
  source: { file: specs/petstore.yaml }
---
apiVersion: docops/v1
kind: OpenAPISpec
metadata: { organization: ${ORG} }
spec:
  slug: store
  source: { file: specs/store.json }
`;

function writeManifests(dir: string, pets = PETS_V1): void {
  mkdirSync(join(dir, 'specs'), { recursive: true });
  writeFileSync(join(dir, 'openapi.yaml'), MANIFEST);
  writeFileSync(join(dir, 'specs', 'petstore.yaml'), pets);
  writeFileSync(join(dir, 'specs', 'store.json'), STORE);
}

const versionsOf = (sb: RunningSandbox, slug: string): number => {
  const spec = openApiSpecs(sb.store).where((s) => s.orgId === ORG && s.slug === slug)[0];
  return spec ? openApiVersions(sb.store).where((v) => v.specId === spec.id).length : 0;
};

describe('OpenAPISpec against the sandbox', () => {
  it('creates three specs in one apply, plans nothing next, and an edited file publishes exactly one version', async () => {
    const { sb, client, dir } = await start();
    writeManifests(dir);
    const first = await planOnce(client, await loadDesired(dir));
    expect(first.steps.map((s) => `${s.id} ${s.note ?? ''}`)).toEqual([
      `OpenAPISpec/${ORG}/pets#create publishes its first version`,
      `OpenAPISpec/${ORG}/public-api#create publishes its first version`,
      `OpenAPISpec/${ORG}/store#create publishes its first version`,
    ]);
    // The plan shows the file and its digest, never its content.
    const pets = first.steps[0]!;
    expect(pets.after).toEqual({
      slug: 'pets',
      source: { file: 'specs/petstore.yaml', sha256: expect.stringMatching(/^sha256:[0-9a-f]{12}$/) },
    });
    expect(JSON.stringify([pets.before, pets.after, pets.note])).not.toContain('Pets');
    const report = await applyPlan(client, first);
    expect(report.failed).toEqual([]);
    expect(report.applied).toHaveLength(3);
    expect(['public-api', 'pets', 'store'].map((s) => versionsOf(sb, s))).toEqual([1, 1, 1]);

    sb.resetStats();
    const second = await planOnce(client, await loadDesired(dir));
    expect(second.steps).toEqual([]);
    expect(second.blocked).toEqual([]);
    // One list, and one raw-content read per file-sourced spec: the URL spec costs nothing more.
    expect(sb.stats().byRoute).toEqual({
      'GET /v1/orgs/:organizationId/openapi': 1,
      'GET /v1/orgs/:organizationId/openapi/:specSlug/versions/latest/content/raw': 2,
    });

    writeFileSync(join(dir, 'specs', 'petstore.yaml'), PETS_V2);
    const third = await planOnce(client, await loadDesired(dir));
    expect(third.steps).toHaveLength(1);
    const edit = third.steps[0]!;
    expect(edit.id).toBe(`OpenAPISpec/${ORG}/pets#update`);
    expect(edit.note).toMatch(/^publishes a new version; now: latest version oasv-\d+, processing complete$/);
    expect(edit.before).toEqual({ source: { file: 'specs/petstore.yaml', sha256: expect.stringMatching(/^sha256:/) } });
    expect(edit.after).not.toEqual(edit.before);
    expect(edit.requests).toEqual([
      expect.objectContaining({
        method: 'PUT',
        path: `/orgs/${ORG}/openapi/pets`,
        body: { source: { text: PETS_V2 } },
      }),
    ]);
    expect((await applyPlan(client, third)).failed).toEqual([]);
    expect(['public-api', 'pets', 'store'].map((s) => versionsOf(sb, s))).toEqual([1, 2, 1]);
    expect((await planOnce(client, await loadDesired(dir))).steps).toEqual([]);
  });

  it('a text the platform cannot parse fails its step with the error code and message; the next plan retries it', async () => {
    const { sb, client, dir } = await start();
    writeManifests(dir, 'openapi: [unclosed\n');
    const plan = await planOnce(client, await loadDesired(dir));
    const report = await applyPlan(client, plan);
    expect(report.applied.sort()).toEqual([`OpenAPISpec/${ORG}/public-api#create`, `OpenAPISpec/${ORG}/store#create`]);
    expect(report.failed).toEqual([
      {
        stepId: `OpenAPISpec/${ORG}/pets#create`,
        message: expect.stringMatching(
          /^processing the new source of OpenAPI spec pets failed: lastProcessErrorCode PARSE_ERROR \(the text is neither JSON nor YAML: .+\)$/,
        ),
      },
    ]);
    expect(versionsOf(sb, 'pets')).toBe(0);
    // The spec exists, in an error state: it differs from its manifest until a source is published.
    const again = await planOnce(client, await loadDesired(dir));
    expect(again.steps.map((s) => s.id)).toEqual([`OpenAPISpec/${ORG}/pets#update`]);
    expect(again.steps[0]!.before).toEqual({ source: null, lastProcessErrorCode: 'PARSE_ERROR' });
    expect(again.steps[0]!.after).toEqual({
      source: { file: 'specs/petstore.yaml', sha256: expect.any(String) },
      lastProcessErrorCode: null,
    });
    expect(again.steps[0]!.note).toMatch(
      /^publishes a new version; now: no version yet, processing complete; last processing failed: PARSE_ERROR \(the text is neither JSON nor YAML/,
    );
    writeFileSync(join(dir, 'specs', 'petstore.yaml'), PETS_V1);
    expect((await applyPlan(client, await planOnce(client, await loadDesired(dir)))).failed).toEqual([]);
    expect(versionsOf(sb, 'pets')).toBe(1);
    expect((await planOnce(client, await loadDesired(dir))).steps).toEqual([]);
  });

  it('exports URL specs as {url} and text specs as files beside the manifests; the export plans no change', async () => {
    const { client, dir } = await start();
    writeManifests(dir);
    expect((await applyPlan(client, await planOnce(client, await loadDesired(dir)))).failed).toEqual([]);
    const out = join(dir, 'export');
    const result = await exportOrganization(client, KINDS, ORG, out);
    expect(
      result.files
        .map((f) => f.slice(out.length + 1))
        .filter((f) => f.includes('openapi'))
        .sort(),
    ).toEqual(['openapi/pets.yaml', 'openapi/store.json', 'openapispecs.yaml']);
    expect(readFileSync(join(out, 'openapi', 'pets.yaml'), 'utf8')).toBe(PETS_V1);
    expect(readFileSync(join(out, 'openapi', 'store.json'), 'utf8')).toBe(STORE);
    const yaml = readFileSync(join(out, 'openapispecs.yaml'), 'utf8');
    expect(yaml).toContain('source:\n    file: openapi/pets.yaml');
    expect(yaml).toContain('source:\n    url: https://example.com/openapi.json');
    const plan = await planOnce(client, await loadDesired(out));
    expect(plan.steps).toEqual([]);
    expect(plan.blocked).toEqual([]);
  });

  it('export leaves out a spec it has no source for (a URL version, then a text that failed), listed as unmanaged', async () => {
    const { client, dir } = await start();
    writeManifests(dir);
    expect((await applyPlan(client, await planOnce(client, await loadDesired(dir)))).failed).toEqual([]);
    // The failed text clears sourceURL and keeps the URL version: the API has no raw text for its latest version.
    await client.request('PUT', `/orgs/${ORG}/openapi/public-api`, { body: { source: { text: 'nope: [' } } });
    const out = join(dir, 'export');
    const result = await exportOrganization(client, KINDS, ORG, out);
    expect(result.counts['OpenAPISpec']).toBe(2);
    const yaml = readFileSync(join(out, 'openapispecs.yaml'), 'utf8');
    expect(yaml).not.toContain('public-api');
    const plan = await planOnce(client, await loadDesired(out));
    expect(plan.steps).toEqual([]);
    expect(plan.unmanaged.filter((u) => u.kind === 'OpenAPISpec').map((u) => u.key)).toEqual(['public-api']);
  });

  it('a later export --overwrite removes the spec file of a spec deleted since (it would load as a manifest)', async () => {
    const { client, dir } = await start();
    writeManifests(dir);
    expect((await applyPlan(client, await planOnce(client, await loadDesired(dir)))).failed).toEqual([]);
    const out = join(dir, 'export');
    await exportOrganization(client, KINDS, ORG, out);
    await client.request('DELETE', `/orgs/${ORG}/openapi/pets`);
    await expect(exportOrganization(client, KINDS, ORG, out)).rejects.toThrow(/already exists; pass --overwrite/);
    const again = await exportOrganization(client, KINDS, ORG, out, { overwrite: true });
    expect(again.removed).toEqual([join(out, 'openapi', 'pets.yaml')]);
    expect(readdirSync(join(out, 'openapi'))).toEqual(['store.json']);
    expect((await planOnce(client, await loadDesired(out))).steps).toEqual([]);
  });

  it('prune deletes a spec no manifest names, listing its versions as what the delete takes', async () => {
    const { sb, client, dir } = await start();
    writeManifests(dir);
    expect((await applyPlan(client, await planOnce(client, await loadDesired(dir)))).failed).toEqual([]);
    writeFileSync(join(dir, 'specs', 'petstore.yaml'), PETS_V2);
    expect((await applyPlan(client, await planOnce(client, await loadDesired(dir)))).failed).toEqual([]);
    const pets = openApiSpecs(sb.store).where((s) => s.slug === 'pets')[0]!;
    const ids = openApiVersions(sb.store)
      .where((v) => v.specId === pets.id)
      .map((v) => v.id);
    // A spec file no manifest names is read as a manifest: it goes with its document.
    rmSync(join(dir, 'specs', 'petstore.yaml'));
    writeFileSync(
      join(dir, 'openapi.yaml'),
      MANIFEST.split('---\n')
        .filter((d) => !d.includes('slug: pets'))
        .join('---\n')
        .replace('kind: OpenAPISpec', 'kind: OpenAPISpec\nprune: true'),
    );
    const plan = await planOnce(client, await loadDesired(dir));
    expect(plan.steps.map((s) => s.id)).toEqual([`OpenAPISpec/${ORG}/pets#delete`]);
    const del = plan.steps[0]!;
    expect(del.requests).toEqual([{ method: 'DELETE', path: `/orgs/${ORG}/openapi/pets` }]);
    expect(del.cascades?.map((c) => [c.kind, c.key, c.id]).sort()).toEqual(
      ids.map((id) => ['OpenAPISpecVersion', `pets/${id}`, id]).sort(),
    );
    expect((await applyPlan(client, plan)).failed).toEqual([]);
    expect(versionsOf(sb, 'pets')).toBe(0);
    expect(openApiVersions(sb.store).where((v) => ids.includes(v.id))).toEqual([]);
  });
});
