/**
 * Stored records of published sites and their children, and their tables. The navigation ORDER lives in
 * the parents (site.nav, site.rootSpaces, group.sections, section.siteSpaces); site-structure.ts is the only
 * code that changes it, so the invariants (one container per child, defaults exist) hold in one place.
 */
import type { DefaultLevel } from './records.js';
import type { SandboxStore, Table } from './store.js';

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export type SiteType = (typeof SITE_TYPES)[number];
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];
export const AGENTS_CONTEXTS = ['included', 'excluded'] as const;
export type AgentsContext = (typeof AGENTS_CONTEXTS)[number];

/** A top-level navigation item of a site. */
export interface NavRef {
  type: 'section' | 'group';
  id: string;
}

export interface SiteRec {
  id: string;
  orgId: string;
  type: SiteType;
  title: string;
  visibility: SiteVisibility;
  published: boolean;
  hostname?: string;
  basename?: string;
  /** As written by PATCH (e.g. `acme.test/docs`); read back as `{origin, target}`. */
  proxy?: string;
  agentsContext: AgentsContext;
  /** Absent: null. */
  defaultLevel?: DefaultLevel;
  /** Id of the style-guide space (official spec; answered as `{kind: space, space}`). */
  styleguide?: string;
  adaptiveContent: boolean;
  adaptiveSchema: Record<string, unknown>;
  adaptiveSchemaUpdatedAt: string;
  createdAt: string;
  /** Top-level sections and section groups, in navigation order. */
  nav: NavRef[];
  /** Site spaces of a site without sections, in order (empty once the site has a section). */
  rootSpaces: string[];
  defaultRootSpace?: string;
  defaultSection?: string;
  /** The official spec's GitSyncState when a repository owns the site's structure (set through /_sandbox, git-sync.ts). */
  gitSync?: Record<string, unknown>;
}

export interface SectionRec {
  id: string;
  siteId: string;
  title: string;
  path: string;
  description?: string;
  condition?: string;
  icon?: string;
  draft?: boolean;
  localizedTitle?: Record<string, string>;
  localizedDescription?: Record<string, string>;
  /** In order; never empty. */
  siteSpaces: string[];
  defaultSiteSpace: string;
}

export interface GroupRec {
  id: string;
  siteId: string;
  title: string;
  icon?: string;
  draft?: boolean;
  localizedTitle?: Record<string, string>;
  /** In order. */
  sections: string[];
  /** Id of the group this one is nested in (official spec); absent at the top level. */
  parent?: string;
  /** Groups nested in this one, in order; they follow its sections (site-structure.ts). */
  groups?: string[];
}

export interface SiteSpaceRec {
  id: string;
  siteId: string;
  spaceId: string;
  path: string;
  condition?: string;
  /** Absent for a root site space. */
  section?: string;
  /** Official spec: the site-specific title (else the space's), custom home page, draft and hidden flags. */
  title?: string;
  pageId?: string;
  draft?: boolean;
  hidden?: boolean;
}

export interface ShareLinkRec {
  id: string;
  siteId: string;
  name: string;
  active: boolean;
  /** Appears only inside urls.published. */
  secret: string;
  createdAt: string;
}

export const sites = (s: SandboxStore): Table<SiteRec> => s.table('sites');
export const siteSections = (s: SandboxStore): Table<SectionRec> => s.table('siteSections');
export const siteSectionGroups = (s: SandboxStore): Table<GroupRec> => s.table('siteSectionGroups');
export const siteSpaces = (s: SandboxStore): Table<SiteSpaceRec> => s.table('siteSpaces');
export const siteShareLinks = (s: SandboxStore): Table<ShareLinkRec> => s.table('siteShareLinks');

/** The adaptive schema of a new site. */
export const emptyAdaptiveSchema = (): Record<string, unknown> => ({
  type: 'object',
  properties: {},
  additionalProperties: false,
});

/** `Getting Started!` → `getting-started`; `fallback` when nothing is left. At most 100 characters. */
export function slugify(text: string, fallback: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}

/** `base` if free, else `base-2`, `base-3` … (kept within 100 characters). */
export function uniquePath(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, 100 - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
