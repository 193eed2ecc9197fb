/**
 * Site export: one manifest document per live site, ids pinned, defaults omitted. The structure (sections,
 * groups, site spaces), share links and adaptive schema are written for the sites whose structure was fetched
 * (export fetches as if a document wrote every field, see src/export/probe.ts). A space is named by its title
 * when that title is unique among the organization's spaces, else by id. Share links are written by name and
 * active flag only: their URLs carry the share secret. What a manifest cannot express is left out, so it shows
 * as unmanaged instead of failing validation: a space listed twice in one section (the later one), share links
 * sharing a name, a group without sections, and all groups when two share a title.
 */
import { accessSpec } from '../access/export.js';
import { manifestDoc, sameValue } from '../common.js';
import { manifestAdaptiveSchema } from './adaptive-schema.js';
import { exportedCustomization } from './customization.js';
import { liveSpec } from './live-export.js';
import { exportedGitSync } from './git-sync.js';
import {
  EMPTY_ADAPTIVE_SCHEMA,
  SITE_KIND,
  slug,
  type LiveSiteSpace,
  type SiteAux,
  type SiteObject,
  type SiteState,
  type SiteStructure,
} from './model.js';

type SpaceName = (ss: LiveSiteSpace) => string;

/** Titles unique among the organization's spaces name the space; anything else is named by id. */
function spaceNamer(aux: SiteAux): SpaceName {
  const count = new Map<string, number>();
  for (const s of aux.spaces) count.set(s.title, (count.get(s.title) ?? 0) + 1);
  const titleOf = new Map(aux.spaces.map((s) => [s.id, s.title]));
  return (ss) => {
    const title = titleOf.get(ss.spaceId);
    return title !== undefined && count.get(title) === 1 ? title : ss.spaceId;
  };
}

/** A site space as the manifest writes it: just the space, or {space, path, condition, hidden, draft} when they differ from what the server derives. */
function siteSpaceEntry(ss: LiveSiteSpace, name: SpaceName): unknown {
  const extra: Record<string, unknown> = {};
  if (ss.path !== slug(ss.spaceTitle)) extra['path'] = ss.path;
  if (ss.condition !== null) extra['condition'] = ss.condition;
  if (ss.hidden) extra['hidden'] = true;
  if (ss.draft) extra['draft'] = true;
  return Object.keys(extra).length > 0 ? { space: name(ss), ...extra } : name(ss);
}

/** Site spaces of one container, each space once (a manifest lists a space once per section). */
function containerEntries(
  list: readonly LiveSiteSpace[],
  name: SpaceName,
): { entries: unknown[]; kept: LiveSiteSpace[] } {
  const seen = new Set<string>();
  const kept = list.filter((ss) => {
    const n = name(ss);
    if (seen.has(n)) return false;
    seen.add(n);
    return true;
  });
  return { entries: kept.map((ss) => siteSpaceEntry(ss, name)), kept };
}

function structureSpec(s: SiteStructure, name: SpaceName): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  if (s.sections.length > 0) {
    const pathOf = new Map(s.sections.map((x) => [x.id, x.path]));
    spec['sections'] = s.sections.map((x) => {
      const out: Record<string, unknown> = { path: x.path, title: x.title };
      if (x.icon !== null) out['icon'] = x.icon;
      if (x.description !== null) out['description'] = x.description;
      if (x.condition !== null) out['condition'] = x.condition;
      if (x.draft) out['draft'] = true;
      if (x.localizedTitle !== null) out['localizedTitle'] = x.localizedTitle;
      if (x.localizedDescription !== null) out['localizedDescription'] = x.localizedDescription;
      out['spaces'] = containerEntries(
        s.siteSpaces.filter((ss) => ss.section === x.id),
        name,
      ).entries;
      return out;
    });
    const def = s.sections.find((x) => x.default);
    if (def) {
      spec['defaultSection'] = def.path;
      const inDefault = containerEntries(
        s.siteSpaces.filter((ss) => ss.section === def.id),
        name,
      ).kept;
      const defaultSpace = inDefault.find((ss) => ss.default);
      // A new section's first site space is its default: only another one needs writing.
      if (defaultSpace && defaultSpace !== inDefault[0])
        spec['defaultSiteSpace'] = { section: def.path, space: name(defaultSpace) };
    }
    const groups = s.groups.filter((g) => g.sections.length > 0);
    if (groups.length > 0 && new Set(groups.map((g) => g.title)).size === groups.length) {
      spec['sectionGroups'] = groups.map((g) => ({
        title: g.title,
        ...(g.icon !== null ? { icon: g.icon } : {}),
        ...(g.draft ? { draft: true } : {}),
        ...(g.localizedTitle !== null ? { localizedTitle: g.localizedTitle } : {}),
        sections: g.sections.map((id) => pathOf.get(id) ?? id),
      }));
    }
  } else {
    const roots = containerEntries(
      s.siteSpaces.filter((ss) => ss.section === null),
      name,
    );
    if (roots.kept.length > 0) spec['spaces'] = roots.entries;
    const defaultSpace = roots.kept.find((ss) => ss.default);
    // Root site spaces are created concurrently, so which one the server makes the default is unknown.
    if (defaultSpace && roots.kept.length > 1) spec['defaultSiteSpace'] = name(defaultSpace);
  }
  if (s.shareLinks) {
    const count = new Map<string, number>();
    for (const l of s.shareLinks) count.set(l.name, (count.get(l.name) ?? 0) + 1);
    const links = s.shareLinks.filter((l) => count.get(l.name) === 1 && l.name !== '');
    if (links.length > 0)
      spec['shareLinks'] = links.map((l) => (l.active ? { name: l.name } : { name: l.name, active: false }));
  }
  if (
    s.adaptiveSchema !== undefined &&
    s.adaptiveSchema !== null &&
    !sameValue(s.adaptiveSchema, EMPTY_ADAPTIVE_SCHEMA)
  )
    spec['adaptiveSchema'] = manifestAdaptiveSchema(s.adaptiveSchema);
  const customization = exportedCustomization(s.customization);
  if (customization) spec['customization'] = customization;
  return { ...spec, ...liveSpec(s, name) };
}

function siteSpec(o: SiteObject, aux: SiteAux, name: SpaceName): Record<string, unknown> {
  const f = o.fields;
  const spec: Record<string, unknown> = { title: f.title, id: o.id };
  if (f.visibility !== null && f.visibility !== 'public') spec['visibility'] = f.visibility;
  if (f.basename !== null) spec['basename'] = f.basename;
  if (f.proxy !== null) spec['proxy'] = f.proxy;
  if (f.adaptiveContent.enabled) spec['adaptiveContent'] = { enabled: true };
  if (f.agentsContext !== null && f.agentsContext !== 'excluded') spec['agentsContext'] = f.agentsContext;
  if (f.published) spec['published'] = true;
  const structure = aux.structures[o.id];
  return {
    ...spec,
    ...exportedGitSync(aux.gitSync?.[o.id]),
    ...(structure ? structureSpec(structure, name) : {}),
    ...accessSpec(aux, o.id),
  };
}

export function exportSites(org: string, live: SiteState): object[] {
  const aux = live.aux ?? { structures: {}, spaces: [] };
  const name = spaceNamer(aux);
  return live.objects
    .filter((o) => o.kind === SITE_KIND)
    .sort((a, b) => a.key.localeCompare(b.key) || a.id.localeCompare(b.id))
    .map((o) => manifestDoc(SITE_KIND, org, siteSpec(o, aux, name)));
}
