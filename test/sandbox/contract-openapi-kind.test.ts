/**
 * CONTRACT CHECK of the OpenAPISpec kind: the request bodies its plans send — POST on create with a `{url}`, a
 * file's `{text}` and an inline `{text}`, PUT with each kind of source on update — validate against the official
 * spec's request schemas, and the sandbox takes them; a prune's DELETE sends no body.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import type { Plan } from '../../src/model/plan.js';
import { startSandbox } from '@docops/sandbox';
import { fastClient, loadDesired, planOnce } from '../helpers/pipeline.js';
import { requestValidator } from './contract-spec.js';

const O = 'org-demo';
const LIST = '/orgs/{organizationId}/openapi';
const ONE = `${LIST}/{specSlug}`;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

async function world() {
  const sb = await startSandbox();
  const client = fastClient(sb);
  const dir = mkdtempSync(join(tmpdir(), 'docops-contract-openapi-'));
  open.push({
    close: async () => (await client.close(), await sb.close(), rmSync(dir, { recursive: true, force: true })),
  });
  return { client, dir };
}

const doc = (slug: string, source: string, prune = false): string =>
  `apiVersion: docops/v1\nkind: OpenAPISpec\nmetadata: { organization: ${O} }\n${prune ? 'prune: true\n' : ''}spec:\n  slug: ${slug}\n  source: ${source}\n`;

const requests = (plan: Plan): { method: string; body: unknown }[] =>
  plan.steps.flatMap((s) => s.requests.map((r) => ({ method: r.method, body: r.body })));

function expectValid(method: string, specPath: string, body: unknown): void {
  const validate = requestValidator(method, specPath);
  const valid = validate(body);
  expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
  expect(valid).toBe(true);
}

describe('contract: the OpenAPISpec kind’s request bodies match the official spec', () => {
  it('creates from a URL, a file and inline text, updates each to the other kind of source, prunes; the sandbox takes them all', async () => {
    const { client, dir } = await world();
    mkdirSync(join(dir, 'specs'));
    writeFileSync(join(dir, 'specs', 'pets.yaml'), 'openapi: 3.1.0\ninfo: { title: Pets, version: "1" }\npaths: {}\n');
    const inline = '{"openapi":"3.0.3","info":{"title":"Inline","version":"1"},"paths":{}}';
    writeFileSync(
      join(dir, 'm.yaml'),
      [
        doc('from-url', '{ url: "https://example.com/a.json" }'),
        doc('from-file', '{ file: specs/pets.yaml }'),
        doc('inline', `{ text: '${inline}' }`),
      ].join('---\n'),
    );
    const first = await planOnce(client, await loadDesired(dir));
    const created = requests(first);
    expect(created.map((r) => [r.method, Object.keys((r.body as { source: object }).source)])).toEqual([
      ['POST', ['text']],
      ['POST', ['url']],
      ['POST', ['text']],
    ]);
    for (const r of created) expectValid('POST', LIST, r.body);
    expect((await applyPlan(client, first)).failed).toEqual([]);

    // Each spec changes its kind of source: URL → file, file → inline text, inline text → URL.
    writeFileSync(
      join(dir, 'm.yaml'),
      [
        doc('from-url', '{ file: specs/pets.yaml }'),
        doc('from-file', `{ text: '${inline}' }`),
        doc('inline', '{ url: "https://example.com/b.yaml" }'),
      ].join('---\n'),
    );
    const second = await planOnce(client, await loadDesired(dir));
    const updated = requests(second);
    expect(
      updated.map((r) => [r.method, Object.keys(r.body as object), Object.keys((r.body as { source: object }).source)]),
    ).toEqual([
      ['PUT', ['source'], ['text']],
      ['PUT', ['source'], ['text']],
      ['PUT', ['source'], ['url']],
    ]);
    for (const r of updated) expectValid('PUT', ONE, r.body);
    expect((await applyPlan(client, second)).failed).toEqual([]);
    expect((await planOnce(client, await loadDesired(dir))).steps).toEqual([]);

    // The validator can fail: the manifest's `{file}` form is not an API source.
    expect(requestValidator('PUT', ONE)({ source: { file: 'specs/pets.yaml' } })).toBe(false);

    // A YAML file no manifest names any more would be read as a manifest: it goes with its document.
    rmSync(join(dir, 'specs', 'pets.yaml'));
    writeFileSync(join(dir, 'm.yaml'), doc('from-file', `{ text: '${inline}' }`, true));
    const third = await planOnce(client, await loadDesired(dir));
    expect(requests(third)).toEqual([
      { method: 'DELETE', body: undefined },
      { method: 'DELETE', body: undefined },
    ]);
    expect((await applyPlan(client, third)).failed).toEqual([]);
  });
});
