/**
 * Versions of an OpenAPI spec (read-only): list (newest first), latest, by id, and their content. Content is
 * `{filesystem, url}` (management-api.md) plus the spec's `urls {source, public}`; the filesystem maps the file
 * name to the parsed document for text versions and is empty for URL versions (the sandbox never fetched them).
 * `…/latest/content/raw` (spec only) answers the submitted text; URL versions have none ⇒ 404.
 */
import { param, type RequestContext } from '../context.js';
import { notFound, ok } from '../http.js';
import { loadYaml, parseStored } from '../openapi-processing.js';
import { openApiVersions, type OpenApiSpecRec, type OpenApiVersionRec } from '../openapi-records.js';
import { SPEC, presentVersion, publishedUrl, requireSpec, versionFileName, versionUrl } from './openapi-common.js';
import { listPage } from './crud.js';
import { route, type RouteTable } from './table.js';

const VERSIONS = `${SPEC}/versions`;

function latest(ctx: RequestContext, spec: OpenApiSpecRec): OpenApiVersionRec {
  const v = spec.lastVersion === undefined ? undefined : openApiVersions(ctx.store).get(spec.lastVersion);
  if (!v) throw notFound(`OpenAPI specification "${spec.slug}" has no version yet`);
  return v;
}

function byId(ctx: RequestContext, spec: OpenApiSpecRec): OpenApiVersionRec {
  const id = param(ctx, 'versionId');
  const v = openApiVersions(ctx.store).get(id);
  if (!v || v.specId !== spec.id) throw notFound(`version "${id}" of OpenAPI specification "${spec.slug}" not found`);
  return v;
}

async function content(ctx: RequestContext, pick: (ctx: RequestContext, spec: OpenApiSpecRec) => OpenApiVersionRec) {
  const parseYaml = await loadYaml(); // before reading the store: the read below is one synchronous step
  const spec = requireSpec(ctx);
  const v = pick(ctx, spec);
  const url = versionUrl(ctx, spec, v);
  const filesystem =
    v.text !== undefined && v.format ? { [versionFileName(v)]: parseStored(v.text, v.format, parseYaml) } : {};
  const publicUrl = spec.visibility === 'public' ? (v.sourceURL ?? publishedUrl(ctx, spec)) : null;
  return ok({ filesystem, url, urls: { source: url, public: publicUrl } });
}

export const openApiVersionRoutes: RouteTable = {
  listOpenAPISpecVersions: listPage(VERSIONS, (ctx) => {
    const spec = requireSpec(ctx);
    return [
      openApiVersions(ctx.store)
        .where((v) => v.specId === spec.id)
        .reverse(),
      (v: OpenApiVersionRec) => presentVersion(ctx, spec, v),
    ];
  }),
  // `latest` routes come before `:versionId` ones: the router takes the first pattern that matches.
  getLatestOpenAPISpecVersion: route({
    method: 'GET',
    pattern: `${VERSIONS}/latest`,
    handler: (ctx) => {
      const spec = requireSpec(ctx);
      return ok(presentVersion(ctx, spec, latest(ctx, spec)));
    },
  }),
  getLatestOpenAPISpecVersionContent: route({
    method: 'GET',
    pattern: `${VERSIONS}/latest/content`,
    handler: (ctx) => content(ctx, latest),
  }),
  getLatestOpenAPISpecVersionContentRaw: route({
    method: 'GET',
    pattern: `${VERSIONS}/latest/content/raw`,
    handler: (ctx) => {
      const spec = requireSpec(ctx);
      const v = latest(ctx, spec);
      if (v.text === undefined || !v.format)
        throw notFound(
          `the latest version of OpenAPI specification "${spec.slug}" came from a URL: no raw text is stored`,
        );
      return ok({ text: v.text, format: v.format });
    },
  }),
  getOpenAPISpecVersionById: route({
    method: 'GET',
    pattern: `${VERSIONS}/:versionId`,
    handler: (ctx) => {
      const spec = requireSpec(ctx);
      return ok(presentVersion(ctx, spec, byId(ctx, spec)));
    },
  }),
  getOpenAPISpecVersionContentById: route({
    method: 'GET',
    pattern: `${VERSIONS}/:versionId/content`,
    handler: (ctx) => content(ctx, byId),
  }),
};
