/**
 * The manifest side of the Site kind: a schema-valid spec → one desired entry (the nested sections, groups,
 * site spaces and share links travel inside its spec), and the checks the schema cannot express, each
 * reported at its file:line:column.
 */
import type { DesiredEntry, Report } from '../../model/kind.js';
import type { ManifestDocument } from '../../model/document.js';
import { isFileContent } from '../../manifests/file-refs.js';
import type { DocPath } from '../../manifests/paths.js';
import { crossValidateAccess, parseAccess } from '../access/parse.js';
import { titledEntry } from '../match.js';
import type { SiteManifestSpec, SiteSpace as WrittenSiteSpace } from '../generated/site.js';
import { mustExistLive, namesManifest } from '../manifest-refs.js';
import { readCustomizationFile } from './customization-file.js';
import {
  checkExternalLinks,
  checkRedirects,
  readExternalLinks,
  readPublishingAuth,
  readRedirects,
} from './live-desired.js';
import { warnStructureUnderGitSync } from './git-sync.js';
import { SITE_KIND, type SectionSpec, type SiteSpaceSpec, type SiteSpec } from './model.js';
import type { CrossValidate } from '../common.js';

type Written<K extends keyof SiteManifestSpec> = NonNullable<SiteManifestSpec[K]>;

/** A site space as written, positioned: a bare space reference is `{space}`. */
function siteSpace(written: WrittenSiteSpace, at: DocPath): SiteSpaceSpec {
  return typeof written === 'string' ? { space: written, at } : { ...written, at: [...at, 'space'] };
}

const siteSpaces = (list: readonly WrittenSiteSpace[], at: DocPath): SiteSpaceSpec[] =>
  list.map((s, i) => siteSpace(s, [...at, i]));

function parseSections(list: Written<'sections'>): SectionSpec[] {
  return list.map(({ spaces, ...section }, i) => {
    const at: DocPath = ['spec', 'sections', i];
    return { ...section, spaces: siteSpaces(spaces, [...at, 'spaces']), at };
  });
}

/** The customization a document writes inline, or the one its `{file}` holds (that file's problems reported). */
function readCustomization(
  doc: ManifestDocument<SiteManifestSpec>,
  written: Written<'customization'>,
  report?: Report,
): Record<string, unknown> | undefined {
  if (!isFileContent(written)) return structuredClone(written);
  const read = readCustomizationFile(doc, written);
  for (const i of read.issues) report?.(i, i.message);
  return read.value ? structuredClone(read.value) : undefined;
}

/** Site specs by their document: how another kind reads a Site entry (siteSpecOf). */
const parsed = new WeakMap<object, SiteSpec>();

/** The spec of a schema-valid Site document: the one place a Site document becomes a SiteSpec (duplicate access entries and a customization file's problems reported). */
export function parseSiteSpec(doc: ManifestDocument<SiteManifestSpec>, report?: Report): SiteSpec {
  const {
    defaultSiteSpace,
    sections,
    sectionGroups,
    spaces,
    shareLinks,
    adaptiveSchema,
    customization,
    access: _access,
    publishingAuth,
    redirects,
    externalLinks,
    ...written
  } = doc.spec;
  const spec: SiteSpec = written;
  if (typeof defaultSiteSpace === 'string')
    spec.defaultSiteSpace = { space: defaultSiteSpace, at: ['spec', 'defaultSiteSpace'] };
  else if (defaultSiteSpace) spec.defaultSiteSpace = { ...defaultSiteSpace, at: ['spec', 'defaultSiteSpace', 'space'] };
  if (sections) spec.sections = parseSections(sections);
  if (sectionGroups) spec.sectionGroups = sectionGroups.map((g, i) => ({ ...g, at: ['spec', 'sectionGroups', i] }));
  if (spaces) spec.spaces = siteSpaces(spaces, ['spec', 'spaces']);
  if (shareLinks) spec.shareLinks = shareLinks.map((l, i) => ({ ...l, at: ['spec', 'shareLinks', i] }));
  if (adaptiveSchema) spec.adaptiveSchema = structuredClone(adaptiveSchema);
  const custom = customization && readCustomization(doc, customization, report);
  if (custom) spec.customization = custom;
  const access = parseAccess(doc, report);
  if (access !== undefined) spec.access = access;
  if (publishingAuth) spec.publishingAuth = readPublishingAuth(publishingAuth);
  if (redirects) spec.redirects = readRedirects(redirects);
  if (externalLinks) spec.externalLinks = readExternalLinks(externalLinks);
  parsed.set(doc, spec);
  return spec;
}

/**
 * A Site entry seen from another kind (ctx.desired gives entries with their spec's type forgotten): its spec, as
 * parseSiteSpec read it from the entry's document. Undefined for an entry of another kind.
 */
export function siteSpecOf(entry: DesiredEntry): SiteSpec | undefined {
  return parsed.get(entry.doc);
}

export function toDesired(doc: ManifestDocument<SiteManifestSpec>, report: Report): DesiredEntry<SiteSpec>[] {
  const spec = parseSiteSpec(doc, report);
  checkStructure(doc, spec, report);
  return [titledEntry(SITE_KIND, doc, spec)];
}

/** Report the second and later occurrences of a name. */
function unique<T>(
  items: readonly T[],
  name: (t: T) => string,
  at: (t: T) => DocPath,
  what: (n: string) => string,
  doc: ManifestDocument,
  report: Report,
): void {
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
  if (spec.sections && spec.spaces)
    report(doc.pos(['spec', 'spaces']), 'a site has either sections or root spaces, not both');
  checkNamesUnique(doc, spec, report);

  const paths = new Set(sections.map((s) => s.path));
  const groupOf = new Map<string, string>();
  for (const g of spec.sectionGroups ?? []) {
    g.sections.forEach((p, i) => {
      const at = doc.pos([...g.at, 'sections', i]);
      if (spec.sections && !paths.has(p))
        report(at, `section group "${g.title}" names section "${p}", which is not in sections`);
      else if (groupOf.has(p)) report(at, `section "${p}" is already in section group "${groupOf.get(p)}"`);
      groupOf.set(p, g.title);
    });
  }
  if (spec.defaultSection !== undefined) {
    if (spec.spaces)
      report(doc.pos(['spec', 'defaultSection']), 'a site with root spaces has no sections to default to');
    else if (spec.sections && !paths.has(spec.defaultSection))
      report(doc.pos(['spec', 'defaultSection']), `default section "${spec.defaultSection}" is not in sections`);
  }
  checkDefaultSiteSpace(doc, spec, report);
  checkRedirects(doc, spec.redirects ?? [], report);
  checkExternalLinks(doc, spec.externalLinks ?? [], report);
  if (spec.externalLinks && spec.spaces)
    report(
      doc.pos(['spec', 'externalLinks']),
      'a site with root spaces has no sections: its navigation holds no external links',
    );
}

/** Each identity once in its container: section paths, spaces and site-space paths, group titles, share link names. */
function checkNamesUnique(doc: ManifestDocument, spec: SiteSpec, report: Report): void {
  const sections = spec.sections ?? [];
  unique(
    sections,
    (s) => s.path,
    (s) => [...s.at, 'path'],
    (n) => `section path "${n}"`,
    doc,
    report,
  );
  for (const s of sections)
    unique(
      s.spaces,
      (x) => x.space,
      (x) => x.at,
      (n) => `space "${n}" of section "${s.path}"`,
      doc,
      report,
    );
  unique(
    spec.spaces ?? [],
    (x) => x.space,
    (x) => x.at,
    (n) => `root space "${n}"`,
    doc,
    report,
  );
  // Paths are unique in their container: two site spaces written with one path can never both have it.
  const pathAt = (x: SiteSpaceSpec): DocPath => [...x.at.slice(0, -1), 'path'];
  const withPath = (list: readonly SiteSpaceSpec[]): SiteSpaceSpec[] => list.filter((x) => x.path !== undefined);
  for (const s of sections)
    unique(
      withPath(s.spaces),
      (x) => x.path!,
      pathAt,
      (n) => `site-space path "${n}" in section "${s.path}"`,
      doc,
      report,
    );
  unique(
    withPath(spec.spaces ?? []),
    (x) => x.path!,
    pathAt,
    (n) => `root site-space path "${n}"`,
    doc,
    report,
  );
  unique(
    spec.sectionGroups ?? [],
    (g) => g.title,
    (g) => [...g.at, 'title'],
    (n) => `section group "${n}"`,
    doc,
    report,
  );
  unique(
    spec.shareLinks ?? [],
    (l) => l.name,
    (l) => [...l.at, 'name'],
    (n) => `share link "${n}"`,
    doc,
    report,
  );
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
    report(
      at,
      `defaultSiteSpace must be in the default section "${spec.defaultSection}" (the API sets the default site space of the default section)`,
    );
  }
  if (spec.sections && !spec.sections.some((s) => s.path === d.section))
    report(at, `section "${d.section}" is not in sections`);
}

/** Every space reference of a site spec's site spaces, with its position. */
export function spaceRefs(spec: SiteSpec): { space: string; at: DocPath }[] {
  return [...(spec.sections ?? []).flatMap((s) => s.spaces), ...(spec.spaces ?? [])].map((s) => ({
    space: s.space,
    at: s.at,
  }));
}

/** `spaceRefs` plus the default site space's space and redirect destinations: every place a site spec names a space. */
export function allSpaceRefs(spec: SiteSpec): { space: string; at: DocPath }[] {
  const refs = spaceRefs(spec);
  const d = spec.defaultSiteSpace;
  if (d) refs.push({ space: d.space, at: d.at });
  for (const r of spec.redirects ?? [])
    if ('space' in r.destination) refs.push({ space: r.destination.space, at: [...r.at, 'destination', 'space'] });
  return refs;
}

/**
 * A space reference that names no Space manifest is a certain mistake when the organization's Space documents
 * prune: such a space would be deleted. Otherwise it must name a live space: a warning (plan checks it, and
 * blocks the site when it names nothing).
 */
export const crossValidate: CrossValidate<SiteSpec> = (entries, all, report, index, warn) => {
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
    for (const r of allSpaceRefs(e.spec)) {
      if (known(e.org, r.space)) continue;
      if (prunes(e.org))
        report(
          e.doc.pos(r.at),
          `space "${r.space}" is not in the Space manifests of ${e.org}, which prune every other space`,
        );
      else warn?.(e.doc.pos(r.at), mustExistLive('space', r.space, 'Space', e.org));
    }
  }
};
