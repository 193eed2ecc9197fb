/**
 * Reading a site's redirect rules and visitor sign-in settings (live-model.ts), and the live objects the safety gate
 * and the journal count: a SiteRedirect per rule (its parent is the site: the gate measures a removal against that
 * site's rules) and a SitePublication per published site (one organization-wide population: unpublishing every
 * published site is a delete-all). The private key of the sign-in settings is dropped here, right after it is read:
 * only its fingerprint is kept, and the key is registered as a secret so that no printer shows it.
 */
import type { FetchContext, LiveObject } from '../../model/kind.js';
import { registerSecret } from '../../secrets.js';
import { isRecord, stringOrNull } from '../common.js';
import { certificateFingerprint } from '../certificate.js';
import {
  EXTERNAL_LINK_KIND,
  PUBLICATION_KIND,
  REDIRECT_KIND,
  externalLinkKey,
  redirectKey,
  type LiveExternalLink,
  type ApiDestination,
  type LivePublishingAuth,
  type LiveRedirect,
  type RedirectFields,
} from './live-model.js';
import { SITE_KIND, sitePath, type SiteObject, type SiteStructure } from './model.js';

/**
 * `sha256:<hex>` of a private key (of the DER bytes of a PEM key, else of the text trimmed with LF line endings:
 * the rule SAML certificates are compared by); '' for none.
 */
export const keyFingerprint = (text: string): string => certificateFingerprint(text);

function apiDestination(x: unknown): ApiDestination | undefined {
  if (!isRecord(x)) return undefined;
  const str = (k: string): string | undefined => (typeof x[k] === 'string' ? x[k] : undefined);
  const [url, section, siteSpace, page] = [str('url'), str('siteSectionId'), str('siteSpaceId'), str('pageId')];
  if (x['kind'] === 'external' && url !== undefined) return { kind: 'external', url };
  if (x['kind'] === 'site-section' && section !== undefined) return { kind: 'site-section', siteSectionId: section };
  if (x['kind'] === 'site-space' && siteSpace !== undefined) return { kind: 'site-space', siteSpaceId: siteSpace };
  if (x['kind'] === 'site-page' && siteSpace !== undefined && page !== undefined)
    return { kind: 'site-page', siteSpaceId: siteSpace, pageId: page };
  // A kind a newer API added (not a known one with a field missing): the rule is kept, its destination as sent.
  const known = ['external', 'site-section', 'site-space', 'site-page'];
  return typeof x['kind'] === 'string' && !known.includes(x['kind']) ? { kind: 'newer', raw: { ...x } } : undefined;
}

export function liveRedirect(x: unknown): LiveRedirect | undefined {
  if (!isRecord(x) || typeof x['id'] !== 'string' || typeof x['source'] !== 'string') return undefined;
  const destination = apiDestination(x['destination']);
  if (!destination) return undefined;
  return {
    id: x['id'],
    source: x['source'],
    draft: x['draft'] === true,
    permanent: x['permanent'] === true,
    captureWildcard: x['captureWildcard'] === true,
    destination,
  };
}

/** Every rule of a site: the live ones, then the drafts (the list shows one or the other: `draft` defaults to false). */
export async function readRedirects(ctx: FetchContext, org: string, siteId: string): Promise<LiveRedirect[]> {
  const path = `${sitePath(org, siteId)}/redirects`;
  const [live, drafts] = await Promise.all([ctx.list(path, { draft: false }), ctx.list(path, { draft: true })]);
  return [...live, ...drafts].map(liveRedirect).filter((r): r is LiveRedirect => r !== undefined);
}

export async function readPublishingAuth(ctx: FetchContext, org: string, siteId: string): Promise<LivePublishingAuth> {
  const raw = await ctx.get<unknown>(`${sitePath(org, siteId)}/publishing/auth`);
  const a = isRecord(raw) ? raw : {};
  const key = typeof a['privateKey'] === 'string' ? a['privateKey'] : '';
  registerSecret(key, 'payload');
  return {
    backend: String(a['backend'] ?? 'custom'),
    fallbackURL: stringOrNull(a['fallbackURL']),
    logoutURL: stringOrNull(a['logoutURL']),
    privateKey: keyFingerprint(key),
  };
}

/**
 * A destination as a manifest names it: a URL, `{section}` by path, `{section, space, page}` for a site space or one
 * of its pages (`space` named by `spaceName`); the API's form when the structure read does not hold its target.
 */
export function manifestDestination(
  d: ApiDestination,
  s: SiteStructure,
  spaceName: (spaceId: string) => string,
): unknown {
  if (d.kind === 'external') return d.url;
  if (d.kind === 'newer') return { ...d.raw };
  if (d.kind === 'site-section') {
    const section = s.sections.find((x) => x.id === d.siteSectionId);
    return section ? { section: section.path } : { ...d };
  }
  const ss = s.siteSpaces.find((x) => x.id === d.siteSpaceId);
  if (!ss) return { ...d };
  const section = ss.section === null ? undefined : s.sections.find((x) => x.id === ss.section);
  if (ss.section !== null && !section) return { ...d };
  return {
    ...(section ? { section: section.path } : {}),
    space: spaceName(ss.spaceId),
    ...(d.kind === 'site-page' ? { page: d.pageId } : {}),
  };
}

export function redirectFields(
  r: LiveRedirect,
  s: SiteStructure,
  spaceName: (spaceId: string) => string,
): RedirectFields {
  return {
    source: r.source,
    draft: r.draft,
    permanent: r.permanent,
    captureWildcard: r.captureWildcard,
    destination: manifestDestination(r.destination, s, spaceName),
  };
}

/** The rules as live objects of SiteRedirect, keyed `<site>/<source>` (`… (draft)`), their parent the site. */
export function redirectObjects(
  org: string,
  site: { id: string; key: string },
  s: SiteStructure,
): LiveObject<RedirectFields, typeof REDIRECT_KIND>[] {
  const parent = { kind: SITE_KIND, id: site.id, key: site.key };
  const title = new Map(s.siteSpaces.map((x) => [x.spaceId, x.spaceTitle]));
  return (s.redirects ?? []).map((r) => ({
    kind: REDIRECT_KIND,
    org,
    key: redirectKey(site.key, r.source, r.draft),
    id: r.id,
    fields: redirectFields(r, s, (id) => title.get(id) ?? id),
    parent,
  }));
}

/** One SitePublication per published site (keyed and identified like the site). */
export function publicationObjects(
  sites: readonly SiteObject[],
): LiveObject<{ site: string }, typeof PUBLICATION_KIND>[] {
  return sites
    .filter((s) => s.fields.published)
    .map((s) => ({ kind: PUBLICATION_KIND, org: s.org, key: s.key, id: s.id, fields: { site: s.key } }));
}

function localizedMap(v: unknown): Record<string, string> | null {
  if (!isRecord(v)) return null;
  const out = Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return Object.keys(out).length > 0 ? out : null;
}

function externalLink(x: Record<string, unknown>, group: string | null): LiveExternalLink | undefined {
  if (typeof x['id'] !== 'string' || typeof x['title'] !== 'string' || typeof x['url'] !== 'string') return undefined;
  return {
    id: x['id'],
    title: x['title'],
    url: x['url'],
    description: stringOrNull(x['description']),
    icon: stringOrNull(x['icon']),
    condition: stringOrNull(x['condition']),
    draft: x['draft'] === true,
    localizedTitle: localizedMap(x['localizedTitle']),
    localizedDescription: localizedMap(x['localizedDescription']),
    group: typeof x['sectionGroup'] === 'string' ? x['sectionGroup'] : group,
  };
}

/** The site's external links, from its structure (`GET …/structure`: no list of them exists), groups walked. */
export async function readExternalLinks(ctx: FetchContext, org: string, siteId: string): Promise<LiveExternalLink[]> {
  const raw = await ctx.get<unknown>(`${sitePath(org, siteId)}/structure`);
  const out: LiveExternalLink[] = [];
  const walk = (items: unknown, group: string | null): void => {
    for (const x of Array.isArray(items) ? items : []) {
      if (!isRecord(x)) continue;
      if (x['object'] === 'site-external-link') {
        const l = externalLink(x, group);
        if (l) out.push(l);
      } else if (x['object'] === 'site-section-group' && typeof x['id'] === 'string') walk(x['children'], x['id']);
    }
  };
  if (isRecord(raw) && raw['type'] === 'sections') walk(raw['structure'], null);
  return out;
}

/** The links as live objects of SiteExternalLink, keyed `<site>/<title>`, their parent the site. */
export function externalLinkObjects(
  org: string,
  site: { id: string; key: string },
  s: SiteStructure,
): LiveObject<{ title: string; url: string; group: string | null }, typeof EXTERNAL_LINK_KIND>[] {
  const parent = { kind: SITE_KIND, id: site.id, key: site.key };
  const title = new Map(s.groups.map((g) => [g.id, g.title]));
  return (s.externalLinks ?? []).map((l) => ({
    kind: EXTERNAL_LINK_KIND,
    org,
    key: externalLinkKey(site.key, l.title),
    id: l.id,
    fields: { title: l.title, url: l.url, group: l.group === null ? null : (title.get(l.group) ?? l.group) },
    parent,
  }));
}
