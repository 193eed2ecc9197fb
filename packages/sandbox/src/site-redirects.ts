/**
 * A site's redirect rules (official spec, tag `site-redirects`; management-api.md does not list them): records,
 * their table, and what the routes share — the destination check, the bulk upsert of one item, the presenter and
 * the lookup of the rule a path hits. A rule is identified by (site, source, draft): one live and one draft rule
 * may share a source.
 */
import type { RequestContext } from './context.js';
import { badRequest } from './http.js';
import type { SiteRec } from './site-records.js';
import { siteSections, siteSpaces } from './site-records.js';
import type { SandboxStore } from './store.js';
import { boolean, isPlainObject, literal, nullable, object, oneOf, string, type Validator } from './validate.js';

import { type RedirectDestination, type RedirectRec, siteRedirects } from './site-redirect-records.js';

export { siteRedirects, type RedirectDestination, type RedirectRec };

/** The input-only variant: a page by its path in a space's revision. */
export type InputDestination = RedirectDestination | { kind: 'path'; spaceId: string; path: string };

/** The bulk upsert's limit (official spec `maxItems`). */
export const MAX_BULK_REDIRECTS = 500;

/** The spec's SiteRedirectSourcePath: at most 512 characters, a path with an optional trailing `*` or `/*`. */
export const redirectSource = string({
  max: 512,
  pattern:
    /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/,
});

const id = string({ min: 1 });
const variants: Record<string, Validator<InputDestination>> = {
  'site-section': object({ kind: literal('site-section'), siteSectionId: id }, ['kind', 'siteSectionId']),
  'site-space': object({ kind: literal('site-space'), siteSpaceId: id }, ['kind', 'siteSpaceId']),
  'site-page': object({ kind: literal('site-page'), siteSpaceId: id, pageId: id }, ['kind', 'siteSpaceId', 'pageId']),
  external: object({ kind: literal('external'), url: string({ max: 2048, format: 'uri' }) }, ['kind', 'url']),
  path: object({ kind: literal('path'), spaceId: id, path: string() }, ['kind', 'spaceId', 'path']),
};

/** A destination by its `kind`; `path` only where the spec's SiteRedirectInputDestination allows it. */
export function destination(allowPath: boolean): Validator<InputDestination> {
  const kinds = Object.keys(variants).filter((k) => allowPath || k !== 'path');
  return (v, path) => {
    if (!isPlainObject(v)) throw badRequest(`${path}: must be an object`);
    const kind = oneOf(kinds)(v['kind'], `${path}.kind`);
    return variants[kind]!(v, path);
  };
}

export const createRedirectBody = object(
  {
    source: redirectSource,
    destination: destination(true),
    captureWildcard: boolean(),
    draft: boolean(),
    permanent: boolean(),
  },
  ['source', 'destination'],
);

export const patchRedirectBody = object({
  source: redirectSource,
  destination: destination(false),
  captureWildcard: boolean(),
  draft: boolean(),
  permanent: boolean(),
});

/** One item of the bulk PUT: publish a draft, or upsert (a destination) / delete (`destination: null`) by source and intent. */
export type BulkItem =
  | { source: string; intent: 'publish' }
  | {
      source: string;
      intent?: 'live' | 'draft';
      captureWildcard?: boolean;
      permanent?: boolean;
      destination: InputDestination | null;
    };

const publishItem = object({ source: redirectSource, intent: literal('publish') }, ['source', 'intent']);
const upsertItem = object(
  {
    source: redirectSource,
    intent: oneOf(['live', 'draft']),
    captureWildcard: boolean(),
    permanent: boolean(),
    destination: nullable(destination(true)),
  },
  ['source', 'destination'],
);

export const bulkItem: Validator<BulkItem> = (v, path) =>
  isPlainObject(v) && v['intent'] === 'publish' ? publishItem(v, path) : upsertItem(v, path);

/**
 * The stored destination of an input one, or why it names nothing in the site (a message for a 400 or a bulk
 * item's error). A `path` destination names a page of a space's content, which the sandbox does not hold.
 */
export function resolveDestination(
  store: SandboxStore,
  site: SiteRec,
  d: InputDestination,
): RedirectDestination | { error: string } {
  const siteSpaceOf = (x: string): boolean => siteSpaces(store).get(x)?.siteId === site.id;
  switch (d.kind) {
    case 'site-section':
      return siteSections(store).get(d.siteSectionId)?.siteId === site.id
        ? d
        : { error: `site section "${d.siteSectionId}" not found in site "${site.id}"` };
    case 'site-space':
    case 'site-page':
      return siteSpaceOf(d.siteSpaceId) ? d : { error: `site space "${d.siteSpaceId}" not found in site "${site.id}"` };
    case 'external':
      return d;
    case 'path':
      return { error: `no page at path "${d.path}" in space "${d.spaceId}" (the sandbox holds no page content)` };
  }
}

export function presentRedirect(r: RedirectRec): Record<string, unknown> {
  return {
    object: 'site-redirect',
    id: r.id,
    source: r.source,
    draft: r.draft,
    captureWildcard: r.captureWildcard,
    permanent: r.permanent,
    destination: structuredClone(r.destination),
    createdAt: r.createdAt,
    ...(r.updatedAt !== undefined ? { updatedAt: r.updatedAt } : {}),
  };
}

export const redirectsOf = (store: SandboxStore, siteId: string): RedirectRec[] =>
  siteRedirects(store).where((r) => r.siteId === siteId);

export function findRedirect(
  store: SandboxStore,
  siteId: string,
  source: string,
  draft: boolean,
): RedirectRec | undefined {
  return redirectsOf(store, siteId).find((r) => r.source === source && r.draft === draft);
}

export function newRedirect(
  ctx: RequestContext,
  site: SiteRec,
  input: Omit<RedirectRec, 'id' | 'siteId' | 'createdAt'>,
): RedirectRec {
  const table = siteRedirects(ctx.store);
  return table.put({
    id: ctx.store.nextId('rd', (x) => table.has(x)),
    siteId: site.id,
    ...input,
    createdAt: ctx.now().toISOString(),
  });
}

/** The result of one bulk item, in the spec's shape (`status` created / updated / deleted / published / error). */
export type BulkResult = Record<string, unknown> & { status: string };

/** Process one bulk item; its own failures are its result, never the request's. */
export function applyBulkItem(ctx: RequestContext, site: SiteRec, item: BulkItem): BulkResult {
  const table = siteRedirects(ctx.store);
  if (item.intent === 'publish') {
    const draft = findRedirect(ctx.store, site.id, item.source, true);
    if (!draft)
      return {
        status: 'error',
        source: item.source,
        draft: true,
        error: `no draft redirect from "${item.source}" to publish`,
      };
    const live = findRedirect(ctx.store, site.id, item.source, false);
    if (live) table.delete(live.id);
    table.put({ ...draft, draft: false, updatedAt: ctx.now().toISOString() });
    return { status: 'published', source: item.source, draft: false, id: draft.id };
  }
  const draft = item.intent === 'draft';
  const have = findRedirect(ctx.store, site.id, item.source, draft);
  if (item.destination === null) {
    // Deleting what is not there leaves what the item asks for (as a delete answering 204 does): reported deleted.
    if (have) table.delete(have.id);
    return { status: 'deleted', source: item.source, draft };
  }
  const resolved = resolveDestination(ctx.store, site, item.destination);
  if ('error' in resolved) return { status: 'error', source: item.source, draft, error: resolved.error };
  // captureWildcard has a default (false) in the spec; permanent has none: absent keeps the rule's value.
  const captureWildcard = item.captureWildcard ?? false;
  if (have) {
    table.put({
      ...have,
      destination: resolved,
      captureWildcard,
      permanent: item.permanent ?? have.permanent,
      updatedAt: ctx.now().toISOString(),
    });
    return { status: 'updated', source: item.source, draft, id: have.id };
  }
  const made = newRedirect(ctx, site, {
    source: item.source,
    draft,
    captureWildcard,
    permanent: item.permanent ?? false,
    destination: resolved,
  });
  return { status: 'created', source: item.source, draft, id: made.id };
}

/** The live rule a visitor's path hits: its exact source, else the longest wildcard source that covers it. */
export function redirectFor(
  store: SandboxStore,
  siteId: string,
  path: string,
): { rule: RedirectRec; rest: string } | undefined {
  const live = redirectsOf(store, siteId).filter((r) => !r.draft);
  const exact = live.find((r) => r.source === path);
  if (exact) return { rule: exact, rest: '' };
  const covering = live
    .filter((r) => r.source.endsWith('*') && path.startsWith(r.source.slice(0, -1)))
    .sort((a, b) => b.source.length - a.source.length)[0];
  if (!covering) return undefined;
  // `/docs/*` captures `/a/b` of `/docs/a/b` (the slash stays with the suffix); `/docs*` captures what follows `/docs`.
  const kept = covering.source.endsWith('/*') ? covering.source.length - 2 : covering.source.length - 1;
  return { rule: covering, rest: path.slice(kept) };
}
