/**
 * Site redirects (official spec): list (draft filter, search, orderBy), create, the bulk upsert of up to 500
 * operations with a status per item, patch, delete (205, or 204 when absent) and the lookup by source path.
 */
import type { RequestContext } from '../context.js';
import { HttpError, badRequest, notFound, ok } from '../http.js';
import { queryBoolean, queryEnum, queryString } from '../query.js';
import type { SiteRec } from '../site-records.js';
import { siteSections, siteSpaces } from '../site-records.js';
import {
  MAX_BULK_REDIRECTS,
  applyBulkItem,
  bulkItem,
  createRedirectBody,
  findRedirect,
  newRedirect,
  patchRedirectBody,
  presentRedirect,
  redirectFor,
  redirectSource,
  redirectsOf,
  resolveDestination,
  siteRedirects,
  type RedirectRec,
} from '../site-redirects.js';
import { array, object } from '../validate.js';
import { SITE, requireSite, siteUrl } from './site-common.js';
import { changeChild, childOf, removeChild } from './site-children.js';
import { assignWritten, create, listPage } from './crud.js';
import { route, type RouteTable } from './table.js';

const REDIRECTS = `${SITE}/redirects`;
const REDIRECT = `${REDIRECTS}/:siteRedirectId`;

const bulkBody = object({ redirects: array(bulkItem, { max: MAX_BULK_REDIRECTS }) }, ['redirects']);

const ORDER_BY = ['createdAt', 'updatedAt', 'source'] as const;

/** The list's order: newest created (or updated) first, later inserts first among equal times; or by source. */
function ordered(list: RedirectRec[], by: (typeof ORDER_BY)[number]): RedirectRec[] {
  const newestFirst = (time: (r: RedirectRec) => string): RedirectRec[] =>
    list
      .map((r, i) => ({ r, i }))
      .sort((a, b) => (time(a.r) < time(b.r) ? 1 : time(a.r) > time(b.r) ? -1 : b.i - a.i))
      .map((x) => x.r);
  if (by === 'source') return [...list].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return by === 'updatedAt' ? newestFirst((r) => r.updatedAt ?? r.createdAt) : newestFirst((r) => r.createdAt);
}

function requireDestination<T>(resolved: T | { error: string }, path: string): T {
  if (resolved !== null && typeof resolved === 'object' && 'error' in resolved)
    throw badRequest(`${path}: ${String(resolved.error)}`);
  return resolved as T;
}

/** Two rules cannot share (source, draft). */
function conflict(source: string, draft: boolean): HttpError {
  return new HttpError(409, `a ${draft ? 'draft' : 'live'} redirect from "${source}" already exists`);
}

/** Where a rule sends a visitor (the lookup's `target`): `rest` is what a wildcard source matched. */
function targetOf(ctx: RequestContext, site: SiteRec, r: RedirectRec, rest: string): string {
  const root = siteUrl(ctx, site);
  const suffix = r.captureWildcard ? rest : '';
  const d = r.destination;
  if (d.kind === 'external') return d.url + suffix;
  if (d.kind === 'site-section')
    return `${root}/${encodeURIComponent(siteSections(ctx.store).get(d.siteSectionId)?.path ?? d.siteSectionId)}${suffix}`;
  const ss = siteSpaces(ctx.store).get(d.siteSpaceId);
  const section = ss?.section === undefined ? undefined : siteSections(ctx.store).get(ss.section);
  const at = [
    root,
    ...(section ? [encodeURIComponent(section.path)] : []),
    encodeURIComponent(ss?.path ?? d.siteSpaceId),
  ].join('/');
  return (d.kind === 'site-page' ? `${at}/${encodeURIComponent(d.pageId)}` : at) + suffix;
}

export const siteRedirectRoutes: RouteTable = {
  listSiteRedirects: listPage(REDIRECTS, (ctx) => {
    const site = requireSite(ctx);
    // `draft` defaults to false: the list shows live rules unless asked for the drafts.
    const draft = queryBoolean(ctx.query, 'draft') ?? false;
    const search = queryString(ctx.query, 'search')?.toLowerCase();
    const by = queryEnum(ctx.query, 'orderBy', ORDER_BY) ?? 'createdAt';
    const found = redirectsOf(ctx.store, site.id).filter(
      (r) => r.draft === draft && (!search || r.source.toLowerCase().includes(search)),
    );
    return [ordered(found, by), presentRedirect];
  }),
  createSiteRedirect: create(
    REDIRECTS,
    createRedirectBody,
    (ctx, b) => {
      const site = requireSite(ctx);
      const draft = b.draft ?? false;
      if (findRedirect(ctx.store, site.id, b.source, draft)) throw conflict(b.source, draft);
      const destination = requireDestination(resolveDestination(ctx.store, site, b.destination), 'body.destination');
      return newRedirect(ctx, site, {
        source: b.source,
        draft,
        captureWildcard: b.captureWildcard ?? false,
        permanent: b.permanent ?? false,
        destination,
      });
    },
    (_ctx, r) => presentRedirect(r),
  ),
  bulkUpsertSiteRedirects: route({
    method: 'PUT',
    pattern: REDIRECTS,
    body: bulkBody,
    handler: (ctx, b) => {
      const site = requireSite(ctx);
      if (b.redirects.length === 0) throw badRequest('body.redirects: must have at least 1 item');
      // Each item on its own: one that fails is its result, the others stand.
      return ok({ results: b.redirects.map((item) => applyBulkItem(ctx, site, item)) });
    },
  }),
  updateSiteRedirectById: changeChild(
    'PATCH',
    REDIRECT,
    patchRedirectBody,
    childOf(siteRedirects, 'siteRedirectId', 'redirect'),
    (ctx, site, have, b) => {
      const next: RedirectRec = { ...have, updatedAt: ctx.now().toISOString() };
      if (b.destination !== undefined)
        next.destination = requireDestination(resolveDestination(ctx.store, site, b.destination), 'body.destination');
      assignWritten(next, b, ['source', 'draft', 'captureWildcard', 'permanent']);
      const clash = findRedirect(ctx.store, site.id, next.source, next.draft);
      if (clash && clash.id !== have.id) throw conflict(next.source, next.draft);
      return siteRedirects(ctx.store).put(next);
    },
    (_ctx, _site, r) => presentRedirect(r),
  ),
  deleteSiteRedirectById: removeChild(REDIRECT, siteRedirects, 'siteRedirectId'),
  getSiteRedirectBySource: route({
    method: 'GET',
    pattern: `${SITE}/redirect`,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const source = queryString(ctx.query, 'source');
      if (source === undefined) throw badRequest('query.source: is required');
      redirectSource(source, 'query.source');
      const hit = redirectFor(ctx.store, site.id, source);
      if (!hit) throw notFound(`no live redirect from "${source}" in site "${site.id}"`);
      return ok({ redirect: presentRedirect(hit.rule), target: targetOf(ctx, site, hit.rule, hit.rest) });
    },
  }),
};

/** Deleting a site deletes its redirects. */
export function dropSiteRedirects(ctx: RequestContext, siteId: string): void {
  for (const r of redirectsOf(ctx.store, siteId)) siteRedirects(ctx.store).delete(r.id);
}
