/**
 * Shapes of a site's going-live settings (issue 29): whether it is published, its visitor sign-in settings
 * (publishing auth) and its redirect rules — as a manifest writes them and as the fetch keeps them. Redirects and
 * the publication are live objects of their own kinds (SiteRedirect, SitePublication) for the safety gate and the
 * journal: removing a rule or unpublishing a site is a delete.
 */
import type { DocPath } from '../../manifests/paths.js';
import type { Redirect, SiteManifestSpec } from '../generated/site.js';

type Written<K extends keyof SiteManifestSpec> = NonNullable<SiteManifestSpec[K]>;

export const REDIRECT_KIND = 'SiteRedirect';
export const PUBLICATION_KIND = 'SitePublication';
export const EXTERNAL_LINK_KIND = 'SiteExternalLink';

/** The bulk upsert's limit (official spec: `maxItems` 500 per `PUT …/redirects`). */
export const MAX_REDIRECTS_PER_REQUEST = 500;

/** The largest `{file}` a private key is read from (the API never receives it: a generous bound for a PEM key). */
export const PRIVATE_KEY_FILE_MAX_BYTES = 64 * 1024;

/** Where a redirect sends visitors, as a manifest writes it. */
export type RedirectTarget =
  /** An absolute URL. */
  | { url: string }
  /** A section of the site, by path. */
  | { section: string }
  /** A site space (by its section's path and its space; no section at a site's root), or one of its pages by id. */
  | { section?: string; space: string; page?: string };

/** A rule as written, positioned: its destination in the form above, `draft` false when left out (identity is (source, draft)). */
export type RedirectSpec = Omit<Redirect, 'destination' | 'draft'> & {
  destination: RedirectTarget;
  draft: boolean;
  at: DocPath;
};

/** The API's SiteRedirectDestination. */
export type ApiDestination =
  | { kind: 'external'; url: string }
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string }
  /** A kind of destination a newer API added: kept as the API sent it (shown and exported so, never dropped). */
  | { kind: 'newer'; raw: Record<string, unknown> };

export interface LiveRedirect {
  id: string;
  source: string;
  draft: boolean;
  permanent: boolean;
  captureWildcard: boolean;
  destination: ApiDestination;
}

/** Fields of a SiteRedirect live object: the rule with its destination as a manifest names it (where known). */
export interface RedirectFields {
  source: string;
  draft: boolean;
  permanent: boolean;
  captureWildcard: boolean;
  destination: unknown;
}

/** Visitor sign-in settings as written; the private key as `{text, fingerprint}` once read (never shown). */
export type PublishingAuthSpec = Omit<Written<'publishingAuth'>, 'privateKey'> & {
  privateKey?: { text: string; fingerprint: string; file?: string };
};

/** The live settings as kept: the private key only as its fingerprint (the key itself is dropped when read). */
export interface LivePublishingAuth {
  backend: string;
  fallbackURL: string | null;
  logoutURL: string | null;
  privateKey: string;
}

/** `<site>/<source>`, `<site>/<source> (draft)` for a draft rule. */
export const redirectKey = (site: string, source: string, draft: boolean): string =>
  `${site}/${source}${draft ? ' (draft)' : ''}`;

/** An external link of the navigation, as written (identity: its title within the site; `group`: a group's title, null the top level). */
export type ExternalLinkSpec = Written<'externalLinks'>[number] & { at: DocPath };

export interface LiveExternalLink {
  id: string;
  title: string;
  url: string;
  description: string | null;
  icon: string | null;
  condition: string | null;
  draft: boolean;
  localizedTitle: Record<string, string> | null;
  localizedDescription: Record<string, string> | null;
  /** Id of the section group holding it, null at the top level. */
  group: string | null;
}

/** The fields compared one to one (its group is compared by title). */
export const EXTERNAL_LINK_FIELDS = [
  'url',
  'description',
  'icon',
  'condition',
  'draft',
  'localizedTitle',
  'localizedDescription',
] as const;

export const externalLinkKey = (site: string, title: string): string => `${site}/${title}`;
