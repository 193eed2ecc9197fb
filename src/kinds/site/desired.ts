/**
 * The manifest side of the Site kind: a schema-valid spec → one desired entry (the nested sections, groups,
 * site spaces and share links travel inside its spec), and the checks the schema cannot express, each
 * reported at its file:line:column.
 */
import type { DesiredEntry, IdentityLookup, Report } from '../../core/kind.js';
import type { ManifestDocument } from '../../manifests/document.js';
import { isFileContent } from '../../manifests/file-refs.js';
import type { DocPath } from '../../manifests/paths.js';
import { crossValidateAccess, parseAccess } from '../access/parse.js';
import { isRecord, nullableString, titledEntry } from '../common.js';
import { mustExistLive, namesManifest } from '../manifest-refs.js';
import { readCustomizationFile } from './customization-file.js';
import { parseGitSync, warnStructureUnderGitSync } from './git-sync.js';
import { SITE_KIND, type GroupSpec, type SectionSpec, type ShareLinkSpec, type SiteSpaceSpec, type SiteSpec } from './model.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function siteSpace(raw: unknown, at: DocPath): SiteSpaceSpec {
  if (typeof raw === 'string') return { space: raw, at };
  const o = isRecord(raw) ? raw : {};
  const out: SiteSpaceSpec = { space: String(o['space'] ?? ''), at: [...at, 'space'] };
  if (typeof o['path'] === 'string') out.path = o['path'];
  const condition = nullableString(o['condition']);
  if (condition !== undefined) out.condition = condition;
  return out;
}

function siteSpaces(raw: unknown, at: DocPath): SiteSpaceSpec[] {
  return Array.isArray(raw) ? raw.map((s, i) => siteSpace(s, [...at, i])) : [];
}

function parseSections(raw: unknown[]): SectionSpec[] {
  return raw.map((r, i) => {
    const o = isRecord(r) ? r : {};
    const at: DocPath = ['spec', 'sections', i];
    const s: SectionSpec = { path: String(o['path'] ?? ''), spaces: siteSpaces(o['spaces'], [...at, 'spaces']), at };
    if (typeof o['title'] === 'string') s.title = o['title'];
    for (const k of ['icon', 'description', 'condition'] as const) {
      const v = nullableString(o[k]);
      if (v !== undefined) s[k] = v;
    }
    return s;
  });
}

function parseGroups(raw: unknown[]): GroupSpec[] {
  return raw.map((r, i) => {
    const o = isRecord(r) ? r : {};
    const g: GroupSpec = { title: String(o['title'] ?? ''), sections: Array.isArray(o['sections']) ? o['sections'].map(String) : [], at: ['spec', 'sectionGroups', i] };
    const icon = nullableString(o['icon']);
    if (icon !== undefined) g.icon = icon;
    return g;
  });
}

function parseShareLinks(raw: unknown[]): ShareLinkSpec[] {
  return raw.map((r, i) => {
    const o = isRecord(r) ? r : {};
    const l: ShareLinkSpec = { name: String(o['name'] ?? ''), at: ['spec', 'shareLinks', i] };
    if (typeof o['active'] === 'boolean') l.active = o['active'];
    return l;
  });
}

/** The spec of a schema-valid Site document: the one place a Site document becomes a SiteSpec (duplicate access entries and a customization file's problems reported). */
export function parseSiteSpec(doc: ManifestDocument, report?: Report): SiteSpec {
  const s = doc.spec;
  const spec: SiteSpec = { title: String(s['title'] ?? '') };
  for (const k of ['id', 'visibility', 'basename', 'agentsContext', 'defaultSection'] as const) {
    const v = str(s[k]);
    if (v !== undefined) spec[k] = v;
  }
  if (s['proxy'] !== undefined) spec.proxy = nullableString(s['proxy']) ?? null;
  if (isRecord(s['adaptiveContent'])) spec.adaptiveContent = { enabled: s['adaptiveContent']['enabled'] === true };
  const d = s['defaultSiteSpace'];
  if (typeof d === 'string') spec.defaultSiteSpace = { space: d };
  else if (isRecord(d)) spec.defaultSiteSpace = { space: String(d['space'] ?? ''), ...(typeof d['section'] === 'string' ? { section: d['section'] } : {}) };
  if (Array.isArray(s['sections'])) spec.sections = parseSections(s['sections']);
  if (Array.isArray(s['sectionGroups'])) spec.sectionGroups = parseGroups(s['sectionGroups']);
  if (Array.isArray(s['spaces'])) spec.spaces = siteSpaces(s['spaces'], ['spec', 'spaces']);
  if (Array.isArray(s['shareLinks'])) spec.shareLinks = parseShareLinks(s['shareLinks']);
  if (isRecord(s['adaptiveSchema'])) spec.adaptiveSchema = structuredClone(s['adaptiveSchema']);
  const customization = s['customization'];
  if (isFileContent(customization)) {
    const read = readCustomizationFile(doc, customization);
    for (const i of read.issues) report?.(i, i.message);
    if (read.value) spec.customization = structuredClone(read.value);
  } else if (isRecord(customization)) spec.customization = structuredClone(customization);
  const access = parseAccess(doc, report);
  if (access !== undefined) spec.access = access;
  const gitSync = parseGitSync(s['gitSync']);
  if (gitSync !== undefined) spec.gitSync = gitSync;
  return spec;
}

/**
 * A Site entry seen from another kind (ctx.desired gives entries with their spec's type forgotten): its spec,
 * parsed again from the entry's validated document.
 */
export function siteSpecOf(entry: DesiredEntry): SiteSpec {
  return parseSiteSpec(entry.doc);
}

export function toDesired(doc: ManifestDocument, report: Report): DesiredEntry<SiteSpec>[] {
  const spec = parseSiteSpec(doc, report);
  checkStructure(doc, spec, report);
  return [titledEntry(SITE_KIND, doc, spec)];
}

/** Report the second and later occurrences of a name. */
function unique<T>(items: readonly T[], name: (t: T) => string, at: (t: T) => DocPath, what: (n: string) => string, doc: ManifestDocument, report: Report): void {
  const seen = new Set<string>();
  for (const t of items) {
    const n = name(t);
    if (seen.has(n)) report(doc.pos(at(t)), `${what(n)} is listed twice`);
    seen.add(n);
  }
}

/** Checks inside one site: unique identities, group members, defaults naming what the site has. */
function checkStructure(doc: ManifestDocument, spec: SiteSpec, report: Report): void {
  const sections = spec.sections ?? [];
  if (spec.sections && spec.spaces) report(doc.pos(['spec', 'spaces']), 'a site has either sections or root spaces, not both');
  unique(sections, (s) => s.path, (s) => [...s.at, 'path'], (n) => `section path "${n}"`, doc, report);
  for (const s of sections) unique(s.spaces, (x) => x.space, (x) => x.at, (n) => `space "${n}" of section "${s.path}"`, doc, report);
  unique(spec.spaces ?? [], (x) => x.space, (x) => x.at, (n) => `root space "${n}"`, doc, report);
  // Paths are unique in their container: two site spaces written with one path can never both have it.
  const pathAt = (x: SiteSpaceSpec): DocPath => [...x.at.slice(0, -1), 'path'];
  const withPath = (list: readonly SiteSpaceSpec[]): SiteSpaceSpec[] => list.filter((x) => x.path !== undefined);
  for (const s of sections) unique(withPath(s.spaces), (x) => x.path!, pathAt, (n) => `site-space path "${n}" in section "${s.path}"`, doc, report);
  unique(withPath(spec.spaces ?? []), (x) => x.path!, pathAt, (n) => `root site-space path "${n}"`, doc, report);
  unique(spec.sectionGroups ?? [], (g) => g.title, (g) => [...g.at, 'title'], (n) => `section group "${n}"`, doc, report);
  unique(spec.shareLinks ?? [], (l) => l.name, (l) => [...l.at, 'name'], (n) => `share link "${n}"`, doc, report);

  const paths = new Set(sections.map((s) => s.path));
  const groupOf = new Map<string, string>();
  for (const g of spec.sectionGroups ?? []) {
    g.sections.forEach((p, i) => {
      const at = doc.pos([...g.at, 'sections', i]);
      if (spec.sections && !paths.has(p)) report(at, `section group "${g.title}" names section "${p}", which is not in sections`);
      else if (groupOf.has(p)) report(at, `section "${p}" is already in section group "${groupOf.get(p)}"`);
      groupOf.set(p, g.title);
    });
  }
  if (spec.defaultSection !== undefined) {
    if (spec.spaces) report(doc.pos(['spec', 'defaultSection']), 'a site with root spaces has no sections to default to');
    else if (spec.sections && !paths.has(spec.defaultSection)) report(doc.pos(['spec', 'defaultSection']), `default section "${spec.defaultSection}" is not in sections`);
  }
  checkDefaultSiteSpace(doc, spec, report);
}

function checkDefaultSiteSpace(doc: ManifestDocument, spec: SiteSpec, report: Report): void {
  const d = spec.defaultSiteSpace;
  if (!d) return;
  const at = doc.pos(['spec', 'defaultSiteSpace']);
  if (d.section === undefined) {
    // Whether the space is one of the site's is checked when planning: a title and an id may name one space.
    if (spec.sections) report(at, 'defaultSiteSpace of a site with sections names its section: {section, space}');
    return;
  }
  if (spec.spaces) report(at, 'a site with root spaces has no sections: write defaultSiteSpace as just the space');
  if (spec.defaultSection !== undefined && d.section !== spec.defaultSection) {
    report(at, `defaultSiteSpace must be in the default section "${spec.defaultSection}" (the API sets the default site space of the default section)`);
  }
  if (spec.sections && !spec.sections.some((s) => s.path === d.section)) report(at, `section "${d.section}" is not in sections`);
}

/** Every space reference of a site spec's site spaces, with its position. */
export function spaceRefs(spec: SiteSpec): { space: string; at: DocPath }[] {
  return [...(spec.sections ?? []).flatMap((s) => s.spaces), ...(spec.spaces ?? [])].map((s) => ({ space: s.space, at: s.at }));
}

/** `spaceRefs` plus the default site space's space: every place a site spec names a space. */
export function allSpaceRefs(spec: SiteSpec, doc: ManifestDocument): { space: string; at: DocPath }[] {
  const refs = spaceRefs(spec);
  const d = spec.defaultSiteSpace;
  if (d) refs.push({ space: d.space, at: isRecord(doc.spec['defaultSiteSpace']) ? ['spec', 'defaultSiteSpace', 'space'] : ['spec', 'defaultSiteSpace'] });
  return refs;
}

/**
 * A space reference that names no Space manifest is a certain mistake when the organization's Space documents
 * prune: such a space would be deleted. Otherwise it must name a live space: a warning (plan checks it, and
 * blocks the site when it names nothing).
 */
export function crossValidate(entries: DesiredEntry<SiteSpec>[], all: ReadonlyMap<string, DesiredEntry[]>, report: Report, index: IdentityLookup, warn?: Report): void {
  crossValidateAccess(entries, all, report, index, warn);
  warnStructureUnderGitSync(entries, warn);
  const spaces = all.get('Space') ?? [];
  // Per org, once (not per entry: 100 sites × 6,000 spaces): whether any Space document of the org prunes.
  const known = namesManifest(all, 'Space', index);
  const pruning = new Map<string, boolean>();
  const prunes = (org: string): boolean => {
    let p = pruning.get(org);
    if (p === undefined) pruning.set(org, (p = spaces.some((s) => s.org === org && s.doc.prune === true)));
    return p;
  };
  for (const e of entries) {
    for (const r of allSpaceRefs(e.spec, e.doc)) {
      if (known(e.org, r.space)) continue;
      if (prunes(e.org)) report(e.doc.pos(r.at), `space "${r.space}" is not in the Space manifests of ${e.org}, which prune every other space`);
      else warn?.(e.doc.pos(r.at), mustExistLive('space', r.space, 'Space', e.org));
    }
  }
}
