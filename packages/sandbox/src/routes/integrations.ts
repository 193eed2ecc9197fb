/**
 * Integrations (management-api.md "Integrations"): list with the spec's filters, get by name, publish (create, or
 * a new version of one the same organization owns), unpublish (204, like SAML providers and teams) and the
 * installations of one. Who sees what: public integrations everybody; private and unlisted ones the members of
 * their owner (unlisted ones are got by name by anybody, never listed to others). Publishing and unpublishing take
 * an admin of the owner (403 otherwise).
 */
import { param, type RequestContext } from '../context.js';
import { badRequest, forbidden, noContent, notFound, ok } from '../http.js';
import { queryBoolean, queryEnum, queryString } from '../query.js';
import type { InstallationRec, IntegrationRec } from '../integration-records.js';
import {
  INTEGRATION_CATEGORIES,
  INTEGRATION_SCOPES,
  INTEGRATION_TARGETS,
  INTEGRATION_VISIBILITIES,
  installations,
  integrations,
} from '../integration-records.js';
import { memberKey, members, orgs, type OrgRec } from '../records.js';
import { array, isPlainObject, object, oneOf, record, string, type Validator } from '../validate.js';
import { isOrgAdmin } from './common.js';
import { list, listPage, read, remove } from './crud.js';
import { presentOrg } from './orgs.js';
import { route, type RouteTable } from './table.js';

const LIST = '/v1/integrations';
const ONE = `${LIST}/:integrationName`;
const NAME = /^[a-zA-Z0-9-_.]+$/;

const anyObject: Validator<Record<string, unknown>> = (v, path) => {
  if (!isPlainObject(v)) throw badRequest(`${path}: must be an object`);
  return v;
};
const csp: Validator<string | Record<string, string>> = (v, path) =>
  typeof v === 'string' ? v : record(string())(v, path);

/** PublishIntegration with management-api.md's limits (title 2..30, description ≤ 100, summary ≤ 2048, ≤ 3 preview images). */
const publishBody = object(
  {
    runtime: oneOf(['v1', 'v2']),
    icon: string(),
    title: string({ min: 2, max: 30 }),
    description: string({ max: 100 }),
    summary: string({ max: 2048 }),
    previewImages: array(string(), { max: 3 }),
    visibility: oneOf(INTEGRATION_VISIBILITIES),
    target: oneOf(INTEGRATION_TARGETS),
    scopes: array(oneOf(INTEGRATION_SCOPES)),
    categories: array(oneOf(INTEGRATION_CATEGORIES)),
    blocks: array(anyObject),
    contentSources: array(anyObject),
    externalLinks: array(object({ url: string({ format: 'uri' }), label: string() }, ['url', 'label']), { max: 5 }),
    configurations: anyObject,
    script: string(),
    organization: string({ min: 1 }),
    secrets: record(string()),
    contentSecurityPolicy: csp,
  },
  ['title', 'description', 'scopes', 'script', 'organization'],
);

const isMember = (ctx: RequestContext, orgId: string): boolean => members(ctx.store).has(memberKey(orgId, ctx.userId));

function integrationName(ctx: RequestContext): string {
  const name = param(ctx, 'integrationName');
  if (name.length > 100 || !NAME.test(name))
    throw badRequest(`path.integrationName: must be at most 100 characters matching ${NAME.source} (got "${name}")`);
  return name;
}

/** The integration named by the path, if the caller may see it (private ones: members of the owner only). */
function requireIntegration(ctx: RequestContext): IntegrationRec {
  const name = integrationName(ctx);
  const i = integrations(ctx.store).get(name);
  if (!i || (i.visibility === 'private' && !isMember(ctx, i.orgId))) throw notFound(`integration "${name}" not found`);
  return i;
}

function presentIntegration(ctx: RequestContext, i: IntegrationRec): Record<string, unknown> {
  const owner = orgs(ctx.store).get(i.orgId);
  if (!owner) throw new Error(`store is inconsistent: integration ${i.id} names missing organization ${i.orgId}`);
  const assets = ctx.appUrl(`/integrations/${i.id}/assets`);
  const endpoint = `https://integrations.sandbox.test/v1/integrations/${i.id}/integration`;
  return {
    object: 'integration',
    name: i.id,
    version: i.version,
    title: i.title,
    description: i.description,
    ...(i.summary !== undefined ? { summary: i.summary } : {}),
    previewImages: i.previewImages.map((_, n) => `${assets}/preview-${n + 1}.png`),
    target: i.target,
    verified: i.verified,
    visibility: i.visibility,
    scopes: [...i.scopes],
    categories: [...i.categories],
    blocks: structuredClone(i.blocks),
    contentSources: structuredClone(i.contentSources),
    externalLinks: structuredClone(i.externalLinks),
    ...(i.configurations ? { configurations: structuredClone(i.configurations) } : {}),
    owner: presentOrg(ctx, owner),
    urls: {
      location: ctx.apiUrl(`/integrations/${i.id}`),
      ...(i.hasIcon ? { icon: `${assets}/icon.png` } : {}),
      app: ctx.appUrl(`/integrations/${i.id}`),
      assets,
      publicEndpoint: endpoint,
      publicContentEndpoint: `${endpoint}/content`,
    },
    permissions: { admin: isOrgAdmin(ctx, i.orgId), install: true },
    ...(i.contentSecurityPolicy !== undefined
      ? { contentSecurityPolicy: structuredClone(i.contentSecurityPolicy) }
      : {}),
  };
}

/** The spec's list filters: search (name or title), category, blockDomain, blocks, contentSources, owner, scope, target. */
function listed(ctx: RequestContext): IntegrationRec[] {
  const search = queryString(ctx.query, 'search')?.toLowerCase();
  const category = queryEnum(ctx.query, 'category', INTEGRATION_CATEGORIES);
  const blockDomain = queryString(ctx.query, 'blockDomain');
  if (blockDomain !== undefined && (blockDomain.length > 100 || !NAME.test(blockDomain)))
    throw badRequest(`query.blockDomain: must be at most 100 characters matching ${NAME.source}`);
  const blocks = queryBoolean(ctx.query, 'blocks');
  const sources = queryBoolean(ctx.query, 'contentSources');
  const owner = queryString(ctx.query, 'owner');
  const scope = queryEnum(ctx.query, 'scope', INTEGRATION_SCOPES);
  const target = queryEnum(ctx.query, 'target', INTEGRATION_TARGETS);
  const unfurls = (i: IntegrationRec): string[] =>
    i.blocks.flatMap((b) => (Array.isArray(b['urlUnfurl']) ? (b['urlUnfurl'] as unknown[]).map(String) : []));
  return integrations(ctx.store).where(
    (i) =>
      (i.visibility === 'public' || isMember(ctx, i.orgId)) &&
      (search === undefined || i.id.toLowerCase().includes(search) || i.title.toLowerCase().includes(search)) &&
      (category === undefined || i.categories.includes(category)) &&
      (blockDomain === undefined || unfurls(i).some((u) => u.includes(blockDomain))) &&
      (blocks === undefined || blocks === i.blocks.length > 0) &&
      (sources === undefined || sources === i.contentSources.length > 0) &&
      (owner === undefined || i.orgId === owner) &&
      (scope === undefined || i.scopes.includes(scope)) &&
      (target === undefined || i.target === target || i.target === 'all'),
  );
}

/** The organization a publish names, by id or hostname: one the caller administers (400 unknown, 403 not admin). */
function publisher(ctx: RequestContext, ref: string): OrgRec {
  const org = orgs(ctx.store).get(ref) ?? orgs(ctx.store).where((o) => o.hostname === ref)[0];
  if (!org || !isMember(ctx, org.id)) throw badRequest(`body.organization: organization "${ref}" not found`);
  if (!isOrgAdmin(ctx, org.id))
    throw forbidden(`publishing an integration of organization "${org.id}" takes an admin of it`);
  return org;
}

function publish(ctx: RequestContext, b: ReturnType<typeof publishBody>): Record<string, unknown> {
  const name = integrationName(ctx);
  const org = publisher(ctx, b.organization);
  const before = integrations(ctx.store).get(name);
  if (before && before.orgId !== org.id) throw forbidden(`integration "${name}" is owned by another organization`);
  const next: IntegrationRec = {
    id: name,
    orgId: org.id,
    version: (before?.version ?? 0) + 1,
    runtime: b.runtime ?? 'v1',
    title: b.title,
    description: b.description,
    ...(b.summary !== undefined ? { summary: b.summary } : {}),
    previewImages: b.previewImages ?? [],
    hasIcon: b.icon !== undefined,
    target: b.target ?? 'all',
    visibility: b.visibility ?? 'private',
    verified: before?.verified ?? false,
    scopes: b.scopes,
    categories: b.categories ?? [],
    blocks: b.blocks ?? [],
    contentSources: b.contentSources ?? [],
    externalLinks: b.externalLinks ?? [],
    ...(b.configurations !== undefined ? { configurations: b.configurations } : {}),
    ...(b.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: b.contentSecurityPolicy } : {}),
    script: b.script,
    secrets: b.secrets ?? {},
  };
  return presentIntegration(ctx, integrations(ctx.store).put(next));
}

/** The installations of the integration the caller may see: all for an admin of its owner, else their organizations'. */
function visibleInstallations(ctx: RequestContext, i: IntegrationRec): InstallationRec[] {
  const externalId = queryString(ctx.query, 'externalId');
  const owner = isOrgAdmin(ctx, i.orgId);
  return installations(ctx.store).where(
    (x) =>
      x.integration === i.id &&
      (owner || isMember(ctx, x.orgId)) &&
      (externalId === undefined || x.externalIds.includes(externalId)),
  );
}

function presentInstallation(ctx: RequestContext, i: IntegrationRec, x: InstallationRec): Record<string, unknown> {
  const location = ctx.apiUrl(`/integrations/${i.id}/installations/${x.id}`);
  const endpoint = `https://integrations.sandbox.test/v1/integrations/${i.id}/installations/${x.id}`;
  return {
    id: x.id,
    status: x.status,
    space_selection: 'all',
    site_selection: 'all',
    spaces: 0,
    configuration: structuredClone(x.configuration),
    createdAt: x.createdAt,
    updatedAt: x.updatedAt,
    externalIds: [...x.externalIds],
    target: { organization: x.orgId },
    urls: {
      location,
      app: ctx.appUrl(`/o/${x.orgId}/integrations/${i.id}`),
      publicEndpoint: endpoint,
      publicContentEndpoint: `${endpoint}/content`,
    },
  };
}

export const integrationRoutes: RouteTable = {
  listIntegrations: list(LIST, listed, presentIntegration),
  getIntegrationByName: read(ONE, requireIntegration, presentIntegration),
  publishIntegration: route({
    method: 'POST',
    pattern: ONE,
    body: publishBody,
    handler: (ctx, b) => ok(publish(ctx, b)),
  }),
  // management-api.md: unpublishing answers 204 (the spec: 205, or 204 when absent).
  unpublishIntegration: remove(
    ONE,
    (ctx) => {
      const name = integrationName(ctx);
      const i = integrations(ctx.store).get(name);
      if (!i || !isMember(ctx, i.orgId)) return false;
      if (!isOrgAdmin(ctx, i.orgId))
        throw forbidden(`unpublishing integration "${name}" takes an admin of its organization`);
      integrations(ctx.store).delete(name);
      for (const x of installations(ctx.store).where((x) => x.integration === name))
        installations(ctx.store).delete(x.id);
      return true;
    },
    { deleted: noContent },
  ),
  listIntegrationInstallations: listPage(`${ONE}/installations`, (ctx) => {
    const i = requireIntegration(ctx);
    return [visibleInstallations(ctx, i), (x: InstallationRec) => presentInstallation(ctx, i, x)];
  }),
};
