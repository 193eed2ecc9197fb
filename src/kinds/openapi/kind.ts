/**
 * OpenAPISpec: an organization's OpenAPI specifications, identity by slug (the API's key). `source` is a URL the
 * platform fetches, a file next to the manifest (read by the loader, sent as the official `{text}` source), or
 * text written inline. A new version is published only when the source differs (diff.ts); versions are read-only.
 */
import { OPENAPI_TEXT_MAX_BYTES } from '@docops/api-shared';
import type { DesiredEntry, FetchContext, KindDefinition, Report } from '../../model/kind.js';
import type { ManifestDocument } from '../../model/document.js';
import { isFileContent, lazySha256 } from '../../manifests/file-refs.js';
import { openapispecSchema, type OpenAPISpecManifestSpec } from '../generated/openapispec.js';
import { diffSpecs } from './diff.js';
import { exportSpecs } from './export.js';
import {
  digestOf,
  mayHaveRawText,
  OPENAPI_DEPTH,
  OPENAPI_KIND,
  readLatestRaw,
  specPath,
  specObject,
  specsPath,
  versionIds,
  type OpenApiAux,
  type OpenApiObject,
  type OpenApiSpecSpec,
  type OpenApiState,
  type SpecSource,
} from './model.js';
import { openApiUndo, snapshotSpec } from './snapshot.js';
import { openApiInformer } from './informer.js';

/**
 * The source as written: a `{file}` the loader read (its content), one it did not (export's probes), a URL or a text.
 * Undefined only for export's first probe, which writes none (src/export/probe.ts).
 */
function sourceOf(doc: ManifestDocument<OpenAPISpecManifestSpec>, report: Report): SpecSource | undefined {
  const raw: OpenAPISpecManifestSpec['source'] | undefined = doc.spec.source;
  if (raw === undefined) return undefined;
  if (isFileContent(raw)) {
    if (raw.text === '')
      report(
        doc.pos(['spec', 'source', 'file']),
        `source.file "${raw.file}": is empty; the API needs a non-empty text`,
      );
    return textSource(raw.text, raw.file);
  }
  if ('file' in raw) return { type: 'unread', file: raw.file };
  return 'url' in raw ? { type: 'url', url: raw.url } : textSource(raw.text);
}

/** A text source; its digest is computed when the diff first reads it (`validate` never does). */
function textSource(text: string, file?: string): SpecSource {
  const source: SpecSource = lazySha256({ type: 'text' as const, text }, () => text);
  if (file !== undefined) source.file = file;
  return source;
}

function toDesired(doc: ManifestDocument<OpenAPISpecManifestSpec>, report: Report): DesiredEntry<OpenApiSpecSpec>[] {
  const { source: _written, ...written } = doc.spec;
  const source = sourceOf(doc, report);
  const spec: OpenApiSpecSpec = source ? { ...written, source } : written;
  return [{ kind: OPENAPI_KIND, org: doc.metadata.organization, key: spec.slug, spec, source: doc.pos(['spec']), doc }];
}

/**
 * The spec list; for each spec a manifest gives a text or file source, the latest version's raw text (one GET,
 * kept by spec id for export and undo, compared by digest); under prune, the version list of each spec that would
 * be deleted (what its delete takes along). Export's first probe (an entry without a source: a manifest always
 * has one) reads the raw text of every spec that may have one, so export knows at once which specs it can write,
 * and its later passes ask only for those (a spec it leaves out is never asked about again).
 */
async function fetch(ctx: FetchContext, org: string, desired: DesiredEntry<OpenApiSpecSpec>[]): Promise<OpenApiState> {
  const items = await ctx.list(specsPath(org));
  const objects = items.map((item) => specObject(org, item)).filter((o): o is OpenApiObject => o !== undefined);
  const bySlug = new Map(objects.map((o) => [o.key, o]));
  const aux: OpenApiAux = {};
  const texts: NonNullable<OpenApiAux['texts']> = {};
  const probing = desired.some((e) => e.spec.source === undefined);
  const wanted = probing
    ? objects.filter((o) => mayHaveRawText(o.fields))
    : desired.filter((e) => e.spec.source !== undefined && e.spec.source.type !== 'url').map((e) => bySlug.get(e.key));
  await Promise.all(
    [...new Set(wanted)].map(async (o) => {
      if (!o) return;
      const raw = await readLatestRaw(ctx, o);
      o.fields.latestSha256 = raw ? digestOf(raw.text) : null;
      if (raw) texts[o.id] = raw;
    }),
  );
  if (Object.keys(texts).length > 0) aux.texts = texts;
  if (ctx.prune(OPENAPI_KIND, org)) {
    const slugs = new Set(desired.map((e) => e.key));
    const versions: Record<string, string[]> = {};
    await Promise.all(
      objects
        .filter((o) => !slugs.has(o.key) && o.fields.lastVersion !== null)
        .map(async (o) => {
          versions[o.id] = versionIds(await ctx.list(`${specPath(org, o.key)}/versions`));
        }),
    );
    aux.versions = versions;
  }
  return { objects, ...(Object.keys(aux).length > 0 ? { aux } : {}) };
}

export const openApiSpecKind: KindDefinition<OpenApiSpecSpec, OpenApiObject, OpenApiAux, OpenAPISpecManifestSpec> = {
  kind: OPENAPI_KIND,
  identity: 'slug (the API keys specs by slug)',
  fileFields: [{ path: ['source'], holds: 'an OpenAPI spec', maxBytes: OPENAPI_TEXT_MAX_BYTES }],
  schema: openapispecSchema,
  depth: OPENAPI_DEPTH,
  // Scoped reconciles: its diff reads no other kind, and no kind reads it.
  scope: {},
  toDesired,
  fetch,
  diff: diffSpecs,
  export: exportSpecs,
  snapshot: snapshotSpec,
  undo: openApiUndo,
  informer: openApiInformer,
};
