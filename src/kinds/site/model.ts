/**
 * Shapes of the Site kind shared by its manifest side (desired.ts), its fetch (fetch.ts) and its diff
 * (diff.ts and friends): the desired spec, the live structure, kind names, waves and API paths.
 */
import type { LiveKindState, LiveObject } from '../../model/kind.js';
import type { DocPath } from '../../manifests/paths.js';
import {
  SITE_ACCESS_KIND,
  type AccessAux,
  type AccessEntry,
  type AccessObject,
  type AccessTarget,
} from '../access/model.js';
import { orgPath, seg } from '../common.js';
import type {
  ExternalLinkSpec,
  LiveExternalLink,
  LivePublishingAuth,
  LiveRedirect,
  PublishingAuthSpec,
  RedirectFields,
  RedirectSpec,
} from './live-model.js';
import type { EXTERNAL_LINK_KIND, PUBLICATION_KIND, REDIRECT_KIND } from './live-model.js';
import type { SiteManifestSpec, SiteSpace as WrittenSiteSpace } from '../generated/site.js';

/** A field of the spec as written. */
type Written<K extends keyof SiteManifestSpec> = NonNullable<SiteManifestSpec[K]>;

export const SITE_KIND = 'Site';
export const SECTION_KIND = 'SiteSection';
export const GROUP_KIND = 'SiteSectionGroup';
export const SITE_SPACE_KIND = 'SiteSpace';
export const SHARE_LINK_KIND = 'SiteShareLink';
export const SITE_DEPTH = 30;

/**
 * Waves (30..39). Creates and updates run in ascending wave, deletes in descending wave, so every
 * dependency sits in an earlier group.
 */
export const WAVE = {
  site: 30,
  section: 31,
  siteSpace: 32,
  shareLink: 32,
  group: 33,
  /** Update phase: sections leave groups (33), then join groups (34) and sections get a new default site space. */
  ungroup: 33,
  groupAdd: 34,
  sectionDefault: 34,
  order: 35,
  defaults: 36,
  /** A site goes live last, once its structure is built (update phase); redirects once their targets exist. */
  publish: 37,
  redirect: 34,
  /** Delete phase: rules the manifest no longer lists; then (lowest wave, last) an unpublish. */
  deleteRedirect: 38,
  unpublish: 30,
  /** Delete phase (after every update): a root site space replaced by its new section's first site space. */
  replaceRoot: 39,
  /** Prune phase (descending): site spaces, sections, groups, share links, then the site. */
  pruneSiteSpace: 39,
  pruneSection: 38,
  pruneGroup: 37,
  pruneShareLink: 36,
  /** External links: created once their groups exist; pruned with the share links. */
  externalLink: 34,
  pruneExternalLink: 36,
  pruneSite: 30,
} as const;

/** One site space as a manifest writes it (a bare space reference is `{space}`): the space (Space manifest title or space id), its own fields, and where it is written. */
export type SiteSpaceSpec = Exclude<WrittenSiteSpace, string> & { at: DocPath };

export type SectionSpec = Omit<Written<'sections'>[number], 'spaces'> & { spaces: SiteSpaceSpec[]; at: DocPath };

/** A section group: its member section paths in order. */
export type GroupSpec = Written<'sectionGroups'>[number] & { at: DocPath };

export type ShareLinkSpec = Written<'shareLinks'>[number] & { at: DocPath };

/** The default site space (a bare space reference is `{space}`: a site without sections), and where it is written. */
export type DefaultSiteSpaceSpec = Exclude<Written<'defaultSiteSpace'>, string> & { at: DocPath };

/** Site fields compared one to one with the live site (partial management: only the written ones). */
export const SITE_FIELDS = ['title', 'visibility', 'basename', 'proxy', 'adaptiveContent', 'agentsContext'] as const;
/** Of those, what POST /sites cannot set (sent by a PATCH in the create step). */
export const PATCH_ONLY_FIELDS = ['basename', 'proxy', 'adaptiveContent', 'agentsContext'] as const;
/** What a new site has (contract): a PATCH of these values is not needed. */
export const CREATED_SITE_DEFAULTS: Record<string, unknown> = {
  proxy: null,
  adaptiveContent: { enabled: false },
  agentsContext: 'excluded',
  visibility: 'public',
};
/** The adaptive schema of a new site. */
export const EMPTY_ADAPTIVE_SCHEMA: Written<'adaptiveSchema'> = {
  type: 'object',
  properties: {},
  additionalProperties: false,
};

/** The spec as written, with its site spaces, sections, groups and share links positioned, its customization read and its access list parsed (desired.ts). */
export type SiteSpec = Omit<
  SiteManifestSpec,
  | 'defaultSiteSpace'
  | 'sections'
  | 'sectionGroups'
  | 'spaces'
  | 'shareLinks'
  | 'customization'
  | 'access'
  | 'publishingAuth'
  | 'redirects'
  | 'externalLinks'
> & {
  defaultSiteSpace?: DefaultSiteSpaceSpec;
  sections?: SectionSpec[];
  sectionGroups?: GroupSpec[];
  /** Root site spaces (a site without sections). */
  spaces?: SiteSpaceSpec[];
  shareLinks?: ShareLinkSpec[];
  /** Only the members written are managed (customization.ts); written as `{file}`, what the file holds. */
  customization?: Record<string, unknown>;
  /** Absent: grants are not managed (not even read). Present (even empty): the complete list. */
  access?: AccessEntry[];
  published?: boolean;
  publishingAuth?: PublishingAuthSpec;
  /** Written: the complete list of the site's redirect rules (live and draft). */
  redirects?: RedirectSpec[];
  /** Written: the navigation's external links (unlisted ones are unmanaged, or deleted under prune). */
  externalLinks?: ExternalLinkSpec[];
};

/** What docops keeps of a site's GitSyncState (git-sync.ts). */
export interface GitSyncInfo {
  /** `repoName` (e.g. `acme/docs`), when the API gives it. */
  repository?: string;
  provider: string;
  /** `active`, `pending` or `unauthenticated`: any of them means Git Sync is connected and owns the structure. */
  status: string;
}

/** Live site fields, normalised to manifest names (proxy read back from proxy.origin). */
export interface SiteFields {
  title: string;
  visibility: string | null;
  basename: string | null;
  proxy: string | null;
  adaptiveContent: { enabled: boolean };
  agentsContext: string | null;
  published: boolean;
}

export interface LiveSection {
  id: string;
  path: string;
  title: string;
  icon: string | null;
  description: string | null;
  condition: string | null;
  /** Id of the containing group, null at the top level. */
  group: string | null;
  default: boolean;
  draft: boolean;
  localizedTitle: Record<string, string> | null;
  localizedDescription: Record<string, string> | null;
}

export interface LiveSiteSpace {
  id: string;
  spaceId: string;
  spaceTitle: string;
  /** Section id, null at the root. */
  section: string | null;
  path: string;
  condition: string | null;
  /** Default of its container (section or root). */
  default: boolean;
  hidden: boolean;
  draft: boolean;
}

export interface LiveGroup {
  id: string;
  title: string;
  icon: string | null;
  draft: boolean;
  localizedTitle: Record<string, string> | null;
  /** Member section ids, in order. */
  sections: string[];
}

/** Share links as docops keeps them: never `urls` (the secret lives in urls.published). */
export interface LiveShareLink {
  id: string;
  name: string;
  active: boolean;
}

/** The structure of one managed site, in navigation order. */
export interface SiteStructure {
  sections: LiveSection[];
  groups: LiveGroup[];
  siteSpaces: LiveSiteSpace[];
  /** Only fetched when the manifest writes shareLinks. */
  shareLinks?: LiveShareLink[];
  /** Only fetched when the manifest writes adaptiveSchema. */
  adaptiveSchema?: unknown;
  /** Only fetched when the manifest writes customization: the whole object GET answers. */
  customization?: unknown;
  /** Only fetched when the manifest writes redirects: live rules, then draft ones. */
  redirects?: LiveRedirect[];
  /** Only fetched when the manifest writes publishingAuth (the private key as its fingerprint). */
  publishingAuth?: LivePublishingAuth;
  /** Only fetched when the manifest writes externalLinks (from the site's structure). */
  externalLinks?: LiveExternalLink[];
}

export interface LiveSpaceRef {
  id: string;
  title: string;
}

/** What a journal snapshot keeps of a site beyond its fetch, per site id (undo reports what cannot come back). */
export interface SiteExtras {
  published: boolean;
  hostname: string | null;
  type: string | null;
  /** The organization's `defaultContent` named this site. */
  defaultContent: boolean;
}

/** Lookup data of the Site diff (and of a journal snapshot, which adds `extras`); access lists in AccessAux's fields. */
export interface SiteAux extends AccessAux {
  /** Site id → its structure (managed sites only). */
  structures: Record<string, SiteStructure>;
  /** The organization's spaces (for space references), when any site names one. */
  spaces: LiveSpaceRef[];
  /** Under prune: the structure of each site no manifest describes (what its delete takes), see cascades.ts. */
  pruned?: Record<string, SiteStructure>;
  /** Snapshot only: site id → what the fetch does not keep. */
  extras?: Record<string, SiteExtras>;
  /** Site id → its Git Sync, for the sites a repository owns the structure of (from the sites list). */
  gitSync?: Record<string, GitSyncInfo>;
}

/*
 * The Site kind's state holds its sites and, for the safety gate, the journal and plan digests, the sites'
 * sub-objects as live objects of their own kinds (keyed `<site title>/<path|title|name>`). The diff reads the
 * structure from `aux`; the sub-objects' fields only say what a count, a journal line or a digest shows.
 */
export interface SectionFields {
  path: string;
  title: string;
  icon: string | null;
  description: string | null;
  condition: string | null;
  /** Title of the containing group (its id when the group is unknown), null at the top level. */
  group: string | null;
}

export interface GroupFields {
  title: string;
  icon: string | null;
  /** Member section paths (ids when unknown), in order. */
  sections: string[];
}

export interface SiteSpaceFields {
  /** The space's title. */
  space: string;
  spaceId: string;
  /** Section path, null at the root. */
  section: string | null;
  path: string;
  condition: string | null;
}

export interface ShareLinkFields {
  name: string;
  active: boolean;
}

export type SiteObject = LiveObject<SiteFields, typeof SITE_KIND>;
export type SiteChildObject =
  | LiveObject<SectionFields, typeof SECTION_KIND>
  | LiveObject<GroupFields, typeof GROUP_KIND>
  | LiveObject<SiteSpaceFields, typeof SITE_SPACE_KIND>
  | LiveObject<ShareLinkFields, typeof SHARE_LINK_KIND>
  | LiveObject<RedirectFields, typeof REDIRECT_KIND>
  | LiveObject<{ title: string; url: string; group: string | null }, typeof EXTERNAL_LINK_KIND>
  | LiveObject<{ site: string }, typeof PUBLICATION_KIND>;
/** An object of the Site kind's state: a site, a sub-object or a grant (src/kinds/access), told apart by `kind`. */
export type SiteStateObject = SiteObject | SiteChildObject | AccessObject;
export type SiteState = LiveKindState<SiteStateObject, SiteAux>;

export const sitesPath = (org: string): string => `${orgPath(org)}/sites`;
export const sitePath = (org: string, site: string): string => `${sitesPath(org)}/${seg(site)}`;
export const spacesPath = (org: string): string => `${orgPath(org)}/spaces`;

/** Identity keys of sub-objects: `<site title>/<section path>` and friends. */
export const sectionKey = (site: string, path: string): string => `${site}/${path}`;
export const groupKey = (site: string, title: string): string => `${site}/${title}`;
export const shareLinkKey = (site: string, name: string): string => `${site}/${name}`;
/** `<site>/<section path>/<space>`, or `<site>/<space>` for a root site space. */
export const siteSpaceKey = (site: string, section: string | null, space: string): string =>
  section === null ? `${site}/${space}` : `${site}/${section}/${space}`;

/** Slug the server derives a path from (contract: "slug of the title"). */
export function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export const SITE_ACCESS: AccessTarget = {
  kind: 'Site',
  accessKind: SITE_ACCESS_KIND,
  base: (org, id) => `${orgPath(org)}/sites/${seg(id)}/permissions`,
  nullRole: true,
  wave: WAVE.site,
  grantWave: WAVE.section,
};
