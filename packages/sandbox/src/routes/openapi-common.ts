/** Lookups and presenters shared by the OpenAPI spec and version routes. */
import { param, type RequestContext } from '../context.js';
import { notFound } from '../http.js';
import type { OpenApiSpecRec, OpenApiVersionRec } from '../openapi-records.js';
import { openApiSpecs } from '../openapi-records.js';
import type { OrgRec } from '../records.js';
import { isOrgAdmin, requireOrg } from './common.js';

export const SPECS = '/v1/orgs/:organizationId/openapi';
export const SPEC = `${SPECS}/:specSlug`;

export function findSpec(ctx: RequestContext, org: OrgRec, slug: string): OpenApiSpecRec | undefined {
  return openApiSpecs(ctx.store).where((s) => s.orgId === org.id && s.slug === slug)[0];
}

export function requireSpec(ctx: RequestContext): OpenApiSpecRec {
  const org = requireOrg(ctx);
  const slug = param(ctx, 'specSlug');
  const spec = findSpec(ctx, org, slug);
  if (!spec) throw notFound(`OpenAPI specification "${slug}" not found in organization "${org.id}"`);
  return spec;
}

const specPath = (s: OpenApiSpecRec): string =>
  `/orgs/${encodeURIComponent(s.orgId)}/openapi/${encodeURIComponent(s.slug)}`;

/** Where a public spec is served (the spec's `urls.published`). */
export const publishedUrl = (ctx: RequestContext, s: OpenApiSpecRec): string => ctx.appUrl(`/public${specPath(s)}`);

export function presentSpec(ctx: RequestContext, s: OpenApiSpecRec): Record<string, unknown> {
  const errors = s.lastProcessedErrors ?? [];
  return {
    object: 'openapi-spec',
    id: s.id,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    slug: s.slug,
    ...(s.sourceURL !== undefined ? { sourceURL: s.sourceURL } : {}),
    processingState: s.processingState,
    visibility: s.visibility,
    ...(s.lastVersion !== undefined ? { lastVersion: s.lastVersion } : {}),
    ...(s.lastProcessedAt !== undefined ? { lastProcessedAt: s.lastProcessedAt } : {}),
    ...(s.lastProcessErrorCode !== undefined ? { lastProcessErrorCode: s.lastProcessErrorCode } : {}),
    ...(s.lastProcessedErrors !== undefined ? { lastProcessedErrors: errors.map((e) => ({ ...e })) } : {}),
    lastProcessedErrorCount: errors.length,
    permissions: { view: true, edit: isOrgAdmin(ctx, s.orgId) },
    urls: {
      location: ctx.apiUrl(specPath(s)),
      app: ctx.appUrl(`/o/${encodeURIComponent(s.orgId)}/openapi/${encodeURIComponent(s.slug)}`),
      ...(s.visibility === 'public' ? { published: publishedUrl(ctx, s) } : {}),
    },
  };
}

/** The file name of a text version in its filesystem and stored URL. */
export const versionFileName = (v: OpenApiVersionRec): string => `openapi.${v.format ?? 'json'}`;

/** Where a version's document is: the source URL, or where the platform stored the submitted text. */
export function versionUrl(ctx: RequestContext, s: OpenApiSpecRec, v: OpenApiVersionRec): string {
  return v.sourceURL ?? ctx.appUrl(`/files${specPath(s)}/versions/${encodeURIComponent(v.id)}/${versionFileName(v)}`);
}

export function presentVersion(ctx: RequestContext, s: OpenApiSpecRec, v: OpenApiVersionRec): Record<string, unknown> {
  return {
    object: 'openapi-spec-version',
    id: v.id,
    createdAt: v.createdAt,
    url: versionUrl(ctx, s, v),
    urls: { location: ctx.apiUrl(`${specPath(s)}/versions/${encodeURIComponent(v.id)}`) },
  };
}
