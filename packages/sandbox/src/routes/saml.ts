/**
 * SAML providers (`/orgs/{o}/saml`: list, create, get, patch, delete) and the SSO login entries
 * (`/orgs/{o}/sso`, not paginated). Bodies and limits per management-api.md "SAML and SSO"; the response shape
 * is the spec's OrganizationSAMLProvider, with `defaultTeam` embedded as the Team object.
 */
import { param, type RequestContext } from '../context.js';
import { badRequest, noContent, notFound, ok } from '../http.js';
import { MEMBER_ROLES, teams, type OrgRec, type TeamRec } from '../records.js';
import { UNSET_SSO_URL, isSamlActive, samlProviders, type SamlProviderRec } from '../sso-records.js';
import { nullable, object, oneOf, string } from '../validate.js';
import { findInOrg, inOrg, requireOrg } from './common.js';
import { presentTeam } from './teams.js';
import { create, dropBuried, list, newId, read, remove, update, written } from './crud.js';
import { route, type RouteTable } from './table.js';

const LIST = '/v1/orgs/:organizationId/saml';
const ONE = `${LIST}/:samlProviderId`;
const SSO = '/v1/orgs/:organizationId/sso';

const fields = {
  label: string({ min: 1, max: 30 }),
  entityID: string({ max: 1024 }),
  certificate: string({ max: 10000 }),
  ssoURL: string({ max: 2048, format: 'uri' }),
  defaultTeam: string(),
  defaultRole: nullable(oneOf(MEMBER_ROLES)),
};
const createBody = object(fields, ['label']);
const patchBody = object(fields);

/** The team a provider names, if it still exists in the provider's organization. */
function defaultTeamOf(ctx: RequestContext, p: SamlProviderRec): TeamRec | undefined {
  if (p.defaultTeam === undefined) return undefined;
  const team = teams(ctx.store).get(p.defaultTeam);
  return team && team.orgId === p.orgId ? team : undefined;
}

/** The service-provider side (the platform's SAML endpoints for this provider); fixed per provider. */
function serviceOf(ctx: RequestContext, p: SamlProviderRec): { acsURL: string; startURL: string; entityID: string } {
  const base = `/saml/${encodeURIComponent(p.orgId)}/${encodeURIComponent(p.id)}`;
  return {
    acsURL: ctx.appUrl(`${base}/acs`),
    startURL: ctx.appUrl(`${base}/start`),
    entityID: ctx.appUrl(`${base}/metadata`),
  };
}

function presentProvider(ctx: RequestContext, p: SamlProviderRec): Record<string, unknown> {
  const team = defaultTeamOf(ctx, p);
  return {
    object: 'saml-provider',
    id: p.id,
    label: p.label,
    ssoURL: p.ssoURL === '' ? UNSET_SSO_URL : p.ssoURL,
    entityID: p.entityID,
    certificate: p.certificate,
    ...(team ? { defaultTeam: presentTeam(ctx, team) } : {}),
    defaultRole: p.defaultRole,
    createdAt: p.createdAt,
    status: isSamlActive(p) ? 'active' : 'pending',
    service: serviceOf(ctx, p),
    urls: { location: ctx.apiUrl(`/orgs/${encodeURIComponent(p.orgId)}/saml/${encodeURIComponent(p.id)}`) },
  };
}

const find = (ctx: RequestContext): SamlProviderRec | undefined =>
  findInOrg(ctx, samlProviders(ctx.store), 'samlProviderId');

/** Like the other ids in a body: a team that is not a team of this organization ⇒ 400. */
function checkTeam(ctx: RequestContext, org: OrgRec, id: string | undefined): void {
  if (id === undefined) return;
  const team = teams(ctx.store).get(id);
  if (!team || team.orgId !== org.id)
    throw badRequest(`body.defaultTeam: "${id}" is not a team of organization "${org.id}"`);
}

type Fields = ReturnType<typeof patchBody>;

const applyFields = (p: SamlProviderRec, b: Fields): SamlProviderRec =>
  written(p, b, ['label', 'entityID', 'certificate', 'ssoURL', 'defaultTeam', 'defaultRole']);

function requireProvider(ctx: RequestContext, org: OrgRec): SamlProviderRec {
  const p = find(ctx);
  if (!p) throw notFound(`SAML provider "${param(ctx, 'samlProviderId')}" not found in organization "${org.id}"`);
  return p;
}

export const samlRoutes: RouteTable = {
  listSAMLProvidersInOrganizationById: list(LIST, (ctx) => inOrg(ctx, samlProviders(ctx.store)), presentProvider),
  createOrganizationSAMLProvider: create(
    LIST,
    createBody,
    (ctx, b) => {
      const org = requireOrg(ctx);
      checkTeam(ctx, org, b.defaultTeam);
      const id = newId(ctx, samlProviders(ctx.store), 'saml', 'saml');
      const blank: SamlProviderRec = {
        id,
        orgId: org.id,
        label: b.label,
        ssoURL: '',
        entityID: '',
        certificate: '',
        defaultRole: null,
        createdAt: ctx.now().toISOString(),
      };
      return samlProviders(ctx.store).put(applyFields(blank, b));
    },
    presentProvider,
    { location: (p) => `/orgs/${p.orgId}/saml/${p.id}` },
  ),
  getOrganizationSAMLProviderById: read(ONE, (ctx) => requireProvider(ctx, requireOrg(ctx)), presentProvider),
  updateOrganizationSAMLProvider: update(
    ONE,
    patchBody,
    (ctx, b) => {
      const org = requireOrg(ctx);
      const p = requireProvider(ctx, org);
      checkTeam(ctx, org, b.defaultTeam);
      return samlProviders(ctx.store).put(applyFields(p, b));
    },
    presentProvider,
  ),
  // SAML providers answer 204 whether or not the provider existed (management-api.md).
  deleteOrganizationSAMLProvider: remove(ONE, (ctx) => dropBuried(ctx, 'saml', find(ctx), samlProviders(ctx.store)), {
    deleted: noContent,
  }),
  listSSOProviderLoginsInOrganization: route({
    method: 'GET',
    pattern: SSO,
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const items = samlProviders(ctx.store)
        .where((p) => p.orgId === org.id && isSamlActive(p))
        .map((p) => ({ id: p.id, label: p.label, startURL: serviceOf(ctx, p).startURL }));
      return ok({ items });
    },
  }),
};
