/**
 * Site: a published docs site with its navigation (sections, section groups, site spaces), share links and
 * adaptive schema, identity by title or pinned id. The manifest side is in desired.ts, fetching in
 * fetch.ts, the diff in diff.ts and the files it names, export in export.ts. Sub-objects are
 * LiveObjects of the kinds SiteSection, SiteSectionGroup, SiteSpace and SiteShareLink, keyed
 * `<site title>/<path|title|name>`.
 */
import type { KindDefinition } from '../../model/kind.js';
import { siteSchema, type SiteManifestSpec } from '../generated/site.js';
import { CUSTOMIZATION_FILE_MAX_BYTES } from './customization-file.js';
import { crossValidate, toDesired } from './desired.js';
import { diffSites } from './diff.js';
import { exportSites } from './export.js';
import { fetchSites } from './fetch.js';
import { siteUndo, snapshotSite } from './snapshot.js';
import { SITE_DEPTH, SITE_KIND, type SiteAux, type SiteSpec, type SiteStateObject } from './model.js';
import { siteInformer } from './informer.js';
import { PRIVATE_KEY_FILE_MAX_BYTES } from './live-model.js';

export const siteKind: KindDefinition<SiteSpec, SiteStateObject, SiteAux, SiteManifestSpec> = {
  kind: SITE_KIND,
  identity:
    'title, or the pinned spec.id (which allows renaming); sections by path, groups by title, site spaces by (section, space), share links by name',
  schema: siteSchema,
  fileFields: [
    { path: ['customization'], holds: 'a customization', maxBytes: CUSTOMIZATION_FILE_MAX_BYTES },
    { path: ['publishingAuth', 'privateKey'], holds: 'a private key', maxBytes: PRIVATE_KEY_FILE_MAX_BYTES },
  ],
  depth: SITE_DEPTH,
  lists: ['sections', 'sectionGroups', 'spaces', 'shareLinks', 'access', 'redirects'],
  // A site grant with a null role is an override that takes the team's or member's access away.
  nullMeanings: { SiteAccess: { role: 'no access' } },
  needs: ['Space'],
  // Scoped reconciles: `needs` says it all (reads Space's ids, affected by Space's plan).
  scope: {},
  toDesired,
  crossValidate,
  fetch: fetchSites,
  diff: diffSites,
  export: exportSites,
  snapshot: snapshotSite,
  undo: siteUndo,
  informer: siteInformer,
};
