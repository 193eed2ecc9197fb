/**
 * OpenAPI specs, keyed by slug: list, create (POST), get, create-or-update (PUT), visibility (PATCH), delete;
 * the version routes are in openapi-versions.ts. Every POST/PUT processes its source at once (see
 * openapi-processing.ts): the answer already shows `processingState: complete` and the outcome — a new version
 * and `lastVersion`, or `lastProcessErrorCode` and `lastProcessedErrors` with `lastVersion` left as it was.
 */
import type { RequestContext } from '../context.js';
import { param } from '../context.js';
import { OPENAPI_TEXT_MAX_BYTES } from '@docops/api-shared';
import { badRequest, created, HttpError, ok, type Reply } from '../http.js';
import { loadYaml, processText, processUrl, type OpenApiSource, type Processed } from '../openapi-processing.js';
import { OPENAPI_VISIBILITIES, openApiSpecs, openApiVersions, type OpenApiSpecRec } from '../openapi-records.js';
import type { OrgRec } from '../records.js';
import type { RouteDef } from '../router.js';
import { isPlainObject, object, oneOf, string, type Validator } from '../validate.js';
import { inOrg, requireOrg } from './common.js';
import { SPEC, SPECS, findSpec, presentSpec, requireSpec } from './openapi-common.js';
import { openApiVersionRoutes } from './openapi-versions.js';
import { list, newId, read, remove, update } from './crud.js';
import { route, type RouteTable } from './table.js';

/** management-api.md: lower case only (the spec also allows upper case). */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const slug = string({ min: 1, max: 100, pattern: SLUG });
const urlSource = object({ url: string({ max: 2048, format: 'uri' }) }, ['url']);
/**
 * A spec's text: the API gives no limit beyond `minLength: 1`; the sandbox takes what docops reads from a spec
 * file (OPENAPI_TEXT_MAX_BYTES, src/api/limits.ts) and refuses more with 413, as a platform's body limit would.
 */
const specText: Validator<string> = (v, path) => {
  const text = string({ min: 1 })(v, path);
  const size = Buffer.byteLength(text);
  if (size > OPENAPI_TEXT_MAX_BYTES)
    throw new HttpError(413, `${path}: ${size} bytes; at most ${OPENAPI_TEXT_MAX_BYTES / (1024 * 1024)} MiB`);
  return text;
};
/** Room for the largest text as a JSON string (escapes, e.g. a JSON spec's quotes, at most double it in practice). */
const SPEC_BODY_MAX_BYTES = 2 * OPENAPI_TEXT_MAX_BYTES + 64 * 1024;
const textSource = object({ text: specText }, ['text']);

/** The spec's oneOf: `{url}` or `{text}`, exactly one of them. */
const source: Validator<OpenApiSource> = (v, path) => {
  if (isPlainObject(v) && 'url' in v) return urlSource(v, path);
  if (isPlainObject(v) && 'text' in v) return textSource(v, path);
  throw badRequest(`${path}: must be {"url": URI} or {"text": string}`);
};
const createBody = object({ slug, source }, ['slug', 'source']);
const putBody = object({ source }, ['source']);
const patchBody = object({ visibility: oneOf(OPENAPI_VISIBILITIES) }, ['visibility']);

type ParseYaml = Awaited<ReturnType<typeof loadYaml>>;

/** Load YAML before the handler touches the store, so the write itself stays synchronous (atomic). */
const yamlFor = async (src: OpenApiSource): Promise<ParseYaml | undefined> => ('text' in src ? loadYaml() : undefined);

/** Process `src` for `spec` and store the outcome (and a version when it succeeded). */
function publish(
  ctx: RequestContext,
  spec: OpenApiSpecRec,
  src: OpenApiSource,
  parseYaml: ParseYaml | undefined,
): OpenApiSpecRec {
  const now = ctx.now().toISOString();
  let result: Processed;
  if ('url' in src) result = processUrl(src.url);
  else if (parseYaml) result = processText(src.text, parseYaml);
  else throw new Error('YAML parser not loaded for a text source');
  const { sourceURL: _url, lastProcessErrorCode: _code, lastProcessedErrors: _errors, ...rest } = spec;
  const next: OpenApiSpecRec = { ...rest, updatedAt: now, processingState: 'complete', lastProcessedAt: now };
  if ('url' in src) next.sourceURL = src.url;
  if (result.ok) {
    const id = newId(ctx, openApiVersions(ctx.store), 'oasv');
    openApiVersions(ctx.store).put({
      id,
      specId: spec.id,
      createdAt: now,
      ...('url' in src ? { sourceURL: src.url } : { text: src.text, format: result.format ?? 'json' }),
    });
    next.lastVersion = id;
  } else {
    next.lastProcessErrorCode = result.code;
    next.lastProcessedErrors = result.errors;
  }
  return openApiSpecs(ctx.store).put(next);
}

/** A new specification of the organization under `slugValue`, published from `src`: 201. */
function publishNew(
  ctx: RequestContext,
  orgId: string,
  slugValue: string,
  src: OpenApiSource,
  parseYaml: ParseYaml | undefined,
): Reply {
  const now = ctx.now().toISOString();
  const id = newId(ctx, openApiSpecs(ctx.store), 'oas');
  const spec: OpenApiSpecRec = {
    id,
    orgId,
    slug: slugValue,
    createdAt: now,
    updatedAt: now,
    visibility: 'private',
    processingState: 'pending',
  };
  return created(presentSpec(ctx, publish(ctx, spec, src, parseYaml)));
}

/** A POST or PUT taking a spec's source: the YAML parser loaded first (for a text), then `write` on the path's organization. */
function withSource<B extends { source: OpenApiSource }>(
  method: 'POST' | 'PUT',
  pattern: string,
  body: Validator<B>,
  write: (ctx: RequestContext, b: B, org: OrgRec, parseYaml: ParseYaml | undefined) => Reply,
): RouteDef {
  return route({
    method,
    pattern,
    body,
    maxBodyBytes: SPEC_BODY_MAX_BYTES,
    handler: async (ctx, b) => {
      const parseYaml = await yamlFor(b.source);
      return write(ctx, b, requireOrg(ctx), parseYaml);
    },
  });
}

export const openApiRoutes: RouteTable = {
  listOpenAPISpecs: list(SPECS, (ctx) => inOrg(ctx, openApiSpecs(ctx.store)), presentSpec),
  createOpenAPISpec: withSource('POST', SPECS, createBody, (ctx, b, org, parseYaml) => {
    if (findSpec(ctx, org, b.slug))
      throw badRequest(
        `body.slug: "${b.slug}" is already used by an OpenAPI specification of organization "${org.id}" (PUT …/openapi/${b.slug} updates it)`,
      );
    return publishNew(ctx, org.id, b.slug, b.source, parseYaml);
  }),
  getOpenAPISpecBySlug: read(SPEC, requireSpec, presentSpec),
  createOrUpdateOpenAPISpecBySlug: withSource('PUT', SPEC, putBody, (ctx, b, org, parseYaml) => {
    const existing = findSpec(ctx, org, param(ctx, 'specSlug'));
    if (existing) return ok(presentSpec(ctx, publish(ctx, existing, b.source, parseYaml)));
    // Creating: the path names the new slug.
    return publishNew(ctx, org.id, slug(param(ctx, 'specSlug'), 'path.specSlug'), b.source, parseYaml);
  }),
  updateOpenAPISpecBySlug: update(
    SPEC,
    patchBody,
    (ctx, b) =>
      openApiSpecs(ctx.store).put({
        ...requireSpec(ctx),
        visibility: b.visibility,
        updatedAt: ctx.now().toISOString(),
      }),
    presentSpec,
  ),
  deleteOpenAPISpecBySlug: remove(SPEC, (ctx) => {
    const spec = findSpec(ctx, requireOrg(ctx), param(ctx, 'specSlug'));
    if (!spec) return false;
    for (const v of openApiVersions(ctx.store).where((x) => x.specId === spec.id))
      openApiVersions(ctx.store).delete(v.id);
    return openApiSpecs(ctx.store).delete(spec.id);
  }),
  ...openApiVersionRoutes,
};
