/**
 * The OpenAPISpec kind over fixed live data: what fetch reads (nothing more than the list for URL specs), what
 * differs (the URL, the text's digest, a failed last processing), and a spec the platform is still processing
 * (nothing sent: a warning when what it published is the manifest's, else blocked). The sandbox always answers
 * `complete`, so these paths are only reachable here.
 */
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../src/model/plan.js';
import { openApiSpecKind } from '../../../src/kinds/openapi/kind.js';
import { digestOf } from '../../../src/kinds/openapi/model.js';
import { renderJson } from '../../../src/render/json.js';
import { parsePlanJson } from '../../../src/plan-file/read-plan.js';
import { desiredOf, fakeDiffContext, fakeDoc, fakeFetchContext, reports } from '../helpers.js';

const ORG = 'o1';
const LIST = `/orgs/${ORG}/openapi`;
const RAW = (slug: string): string => `${LIST}/${slug}/versions/latest/content/raw`;
const V1 = 'openapi: 3.1.0\ninfo: { title: A, version: "1" }\npaths: {}\n';
const V2 = 'openapi: 3.1.0\ninfo: { title: A, version: "2" }\npaths: {}\n';

const fileSource = (text: string) => ({ file: 'specs/a.yaml', text, sha256: digestOf(text) });
const desired = (...specs: Record<string, unknown>[]) =>
  desiredOf(
    openApiSpecKind,
    specs.map((s) => fakeDoc('OpenAPISpec', ORG, s)),
  );

function liveSpec(slug: string, fields: Record<string, unknown> = {}) {
  return {
    object: 'openapi-spec',
    id: `oas-${slug}`,
    slug,
    processingState: 'complete',
    lastVersion: `oasv-${slug}`,
    visibility: 'private',
    ...fields,
  };
}

async function planWith(entries: ReturnType<typeof desired>, routes: Record<string, unknown>) {
  const fetchCtx = fakeFetchContext(routes);
  const live = await openApiSpecKind.fetch(fetchCtx, ORG, entries);
  return { asked: fetchCtx.asked, result: openApiSpecKind.diff(fakeDiffContext(), ORG, entries, live) };
}

describe('OpenAPISpec', () => {
  it('an unchanged URL reads the list only and sends nothing; a changed one is one PUT {url}', async () => {
    const routes = { [LIST]: [liveSpec('a', { sourceURL: 'https://example.com/a.json' })] };
    const same = await planWith(desired({ slug: 'a', source: { url: 'https://example.com/a.json' } }), routes);
    expect(same.asked).toEqual([LIST]);
    expect(same.result).toEqual({ steps: [], unmanaged: [], warnings: [], blocked: [] });
    const changed = await planWith(desired({ slug: 'a', source: { url: 'https://example.com/b.json' } }), routes);
    expect(
      changed.result.steps.map((s) => [s.before, s.after, s.requests.map((r) => [r.method, r.path, r.body])]),
    ).toEqual([
      [
        { source: { url: 'https://example.com/a.json' } },
        { source: { url: 'https://example.com/b.json' } },
        [['PUT', `${LIST}/a`, { source: { url: 'https://example.com/b.json' } }]],
      ],
    ]);
  });

  it('a file source compares by digest with the latest raw text: equal sends nothing, different sends its text', async () => {
    const routes = { [LIST]: [liveSpec('a')], [RAW('a')]: { text: V1, format: 'yaml' } };
    const same = await planWith(desired({ slug: 'a', source: fileSource(V1) }), routes);
    expect(same.asked).toEqual([LIST, RAW('a')]);
    expect(same.result.steps).toEqual([]);
    const changed = await planWith(desired({ slug: 'a', source: fileSource(V2) }), routes);
    const step = changed.result.steps[0]!;
    expect(step.before).toEqual({ source: { file: 'specs/a.yaml', sha256: `sha256:${digestOf(V1).slice(0, 12)}` } });
    expect(step.after).toEqual({ source: { file: 'specs/a.yaml', sha256: `sha256:${digestOf(V2).slice(0, 12)}` } });
    expect(step.requests).toEqual([
      {
        method: 'PUT',
        path: `${LIST}/a`,
        body: { source: { text: V2 } },
        // After a lost answer: done when the spec's latest version is no longer the one the plan read.
        recover: {
          path: LIST,
          match: [
            { field: 'slug', value: 'a' },
            { field: 'lastVersion', value: 'oasv-a', not: true },
          ],
        },
        settle: {
          path: `${LIST}/a`,
          until: [{ field: 'processingState', value: 'complete' }],
          failWhen: [
            {
              field: 'lastProcessErrorCode',
              message: 'processing the new source of OpenAPI spec a failed',
              detail: 'lastProcessedErrors.0.message',
            },
          ],
          reads: 20,
        },
        masked: { source: `{text: sha256:${digestOf(V2).slice(0, 12)} of specs/a.yaml}` },
      },
    ]);
    // A printed JSON plan shows the digest; the saved plan file (unmasked) keeps the text it applies.
    const plan: Plan = { formatVersion: 1, steps: changed.result.steps, unmanaged: [], warnings: [], blocked: [] };
    expect(renderJson(plan)).not.toContain('version: \\"2\\"');
    expect(renderJson(plan)).toContain(`"source": "{text: sha256:${digestOf(V2).slice(0, 12)} of specs/a.yaml}"`);
    expect(renderJson(plan, { unmasked: true })).toContain('version: \\"2\\"');
    expect(parsePlanJson(renderJson(plan, { unmasked: true }))).toEqual(plan);
  });

  it('a failed last processing differs even when the published text is the manifest’s', async () => {
    const routes = {
      [LIST]: [
        liveSpec('a', { lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrors: [{ message: 'bad\n  indent' }] }),
      ],
      [RAW('a')]: { text: V1, format: 'yaml' },
    };
    const { result } = await planWith(desired({ slug: 'a', source: fileSource(V1) }), routes);
    expect(result.steps.map((s) => [s.id, s.note])).toEqual([
      [
        'OpenAPISpec/o1/a#update',
        'publishes a new version; now: latest version oasv-a, processing complete; last processing failed: PARSE_ERROR (bad indent)',
      ],
    ]);
  });

  it('a spec still processing gets no request: a warning when the published text is the manifest’s, else blocked at source', async () => {
    const routes = {
      [LIST]: [liveSpec('a', { processingState: 'progress' })],
      [RAW('a')]: { text: V1, format: 'yaml' },
    };
    const same = await planWith(desired({ slug: 'a', source: fileSource(V1) }), routes);
    expect(same.result.steps).toEqual([]);
    expect(same.result.blocked).toEqual([]);
    expect(same.result.warnings.map((w) => [w.key, w.message])).toEqual([
      [
        'a',
        'the platform is still processing a source of this spec (latest version oasv-a, processing progress): docops sends no other while it runs; plan again once it completes',
      ],
    ]);
    const changed = await planWith(desired({ slug: 'a', source: fileSource(V2) }), routes);
    expect(changed.result.steps).toEqual([]);
    expect(changed.result.blocked.map((b) => [b.key, b.source, b.message])).toEqual([
      [
        'a',
        { file: 'openapispec.yaml', line: 10, column: 2 },
        expect.stringMatching(/^the platform is still processing a source of this spec/),
      ],
    ]);
  });

  it('an empty file is an error at source.file', () => {
    const r = reports();
    openApiSpecKind.toDesired(fakeDoc('OpenAPISpec', ORG, { slug: 'a', source: fileSource('') }), r.report);
    expect(r.list).toEqual([
      {
        pos: { file: 'openapispec.yaml', line: 10, column: 3 },
        message: 'source.file "specs/a.yaml": is empty; the API needs a non-empty text',
      },
    ]);
  });
});
