/**
 * Going live and visitor sign-in (official spec; management-api.md lists neither): publish and unpublish a site,
 * and the publishing-auth settings (the backend, fallback and logout URLs, and the private key visitors' tokens
 * are signed with, which only `…/regenerate` changes). A publish the organization's plan does not cover answers
 * the spec's checkout session instead of the site (the sandbox's rule: a free plan and a site whose visibility
 * needs a paid one, `share-link` or `visitor-auth`).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { RequestContext } from '../context.js';
import { ok } from '../http.js';
import { orgs } from '../records.js';
import type { SiteRec } from '../site-records.js';
import { sites } from '../site-records.js';
import type { SandboxStore, Table } from '../store.js';
import { nullable, object, oneOf, string } from '../validate.js';
import { SITE, requireSite } from './site-common.js';
import { presentSite } from './site-present.js';
import { read, update, written } from './crud.js';
import { route, type RouteTable } from './table.js';

export const PUBLISHING_BACKENDS = ['custom', 'integration'] as const;

/** id = the site's id. */
export interface PublishingAuthRec {
  id: string;
  backend: (typeof PUBLISHING_BACKENDS)[number];
  privateKey: string;
  fallbackURL?: string;
  logoutURL?: string;
}

export const publishingAuths = (s: SandboxStore): Table<PublishingAuthRec> => s.table('sitePublishingAuth');

/** Plans that cannot publish a site with a paid visibility (the sandbox's rule, see the module comment). */
const FREE_PLANS = new Set(['free_2024']);
const PAID_VISIBILITIES = new Set(['share-link', 'visitor-auth']);

export function needsUpgrade(ctx: RequestContext, site: SiteRec): boolean {
  const plan = orgs(ctx.store).get(site.orgId)?.plan ?? '';
  return FREE_PLANS.has(plan) && PAID_VISIBILITIES.has(site.visibility);
}

const newKey = (): string => randomBytes(32).toString('base64url');

/**
 * The site's settings: stored once changed; until then a custom backend and a key derived from the site, so a
 * read never writes and two sandboxes loading one state file answer the same key.
 */
function authOf(store: SandboxStore, site: SiteRec): PublishingAuthRec {
  const have = publishingAuths(store).get(site.id);
  const derived = createHash('sha256')
    .update(`sandbox publishing key of ${site.id} made ${site.createdAt}`)
    .digest('base64url');
  return have ?? { id: site.id, backend: 'custom', privateKey: derived };
}

function presentAuth(a: PublishingAuthRec): Record<string, unknown> {
  return {
    object: 'publishing-auth',
    backend: a.backend,
    privateKey: a.privateKey,
    ...(a.fallbackURL !== undefined ? { fallbackURL: a.fallbackURL } : {}),
    ...(a.logoutURL !== undefined ? { logoutURL: a.logoutURL } : {}),
  };
}

const url = nullable(string({ format: 'uri', max: 2048 }));
const patchAuth = object({ backend: oneOf(PUBLISHING_BACKENDS), fallbackURL: url, logoutURL: url }, ['backend']);

/** The site published or not, answered as the site. */
function setPublished(ctx: RequestContext, site: SiteRec, published: boolean): Record<string, unknown> {
  sites(ctx.store).put({ ...site, published });
  return presentSite(ctx, { ...site, published });
}

const AUTH = `${SITE}/publishing/auth`;
const authOfSite = (ctx: RequestContext): PublishingAuthRec => authOf(ctx.store, requireSite(ctx));
const asAuth = (_ctx: RequestContext, a: PublishingAuthRec): Record<string, unknown> => presentAuth(a);

export const sitePublishingRoutes: RouteTable = {
  publishSite: route({
    method: 'POST',
    pattern: `${SITE}/publish`,
    handler: (ctx) => {
      const site = requireSite(ctx);
      if (needsUpgrade(ctx, site))
        return ok({ type: 'checkout', sessionId: `cs_sandbox_${randomBytes(12).toString('hex')}` });
      return ok(setPublished(ctx, site, true));
    },
  }),
  unpublishSite: route({
    method: 'POST',
    pattern: `${SITE}/unpublish`,
    handler: (ctx) => ok(setPublished(ctx, requireSite(ctx), false)),
  }),
  getSitePublishingAuthById: read(AUTH, authOfSite, asAuth),
  // Omitted: unchanged; null: unset (the spec's SitePublishingAuthUpdate).
  updateSitePublishingAuthById: update(
    AUTH,
    patchAuth,
    (ctx, b) =>
      publishingAuths(ctx.store).put(
        written(
          { ...authOfSite(ctx), backend: b.backend },
          b,
          ['fallbackURL', 'logoutURL'],
          ['fallbackURL', 'logoutURL'],
        ),
      ),
    asAuth,
  ),
  regenerateSitePublishingAuthById: route({
    method: 'POST',
    pattern: `${AUTH}/regenerate`,
    handler: (ctx) => ok(presentAuth(publishingAuths(ctx.store).put({ ...authOfSite(ctx), privateKey: newKey() }))),
  }),
};

/** Deleting a site deletes its settings. */
export function dropPublishingAuth(store: SandboxStore, siteId: string): void {
  publishingAuths(store).delete(siteId);
}
