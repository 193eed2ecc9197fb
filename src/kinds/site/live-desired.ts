/**
 * What a Site document's going-live and navigation fields need beyond the schema (issue 29): `publishingAuth`'s
 * private key read into its text and fingerprint (never kept as written), `redirects` positioned with their
 * destination's form, `externalLinks` positioned; and the checks the schema cannot make (one rule per source and
 * draft flag, one link per title).
 */
import type { Report } from '../../model/kind.js';
import type { ManifestDocument } from '../../model/document.js';
import { isFileContent } from '../../manifests/file-refs.js';
import type { Redirect, SiteManifestSpec } from '../generated/site.js';
import { keyFingerprint } from './live-reads.js';
import type { ExternalLinkSpec, PublishingAuthSpec, RedirectSpec, RedirectTarget } from './live-model.js';

type Written<K extends keyof SiteManifestSpec> = NonNullable<SiteManifestSpec[K]>;

/** `${VAR}` (a string) or `{file}` as the loader read it (`{file, text, sha256}`): its text and fingerprint. */
function readPrivateKey(written: Written<'publishingAuth'>['privateKey']): PublishingAuthSpec['privateKey'] {
  if (typeof written === 'string') return { text: written, fingerprint: keyFingerprint(written) };
  if (isFileContent(written))
    return { text: written.text, fingerprint: keyFingerprint(written.text), file: written.file };
  return undefined;
}

/** The settings as written, the private key read into its text and fingerprint (the schema gives the rest). */
export function readPublishingAuth(written: Written<'publishingAuth'>): PublishingAuthSpec {
  const { privateKey, ...settings } = written;
  const key = readPrivateKey(privateKey);
  return key ? { ...settings, privateKey: key } : settings;
}

/** A destination as written: a URL string is `{url}`, so each form is told by its members. */
const readTarget = (written: Redirect['destination']): RedirectTarget =>
  typeof written === 'string' ? { url: written } : written;

/** The rules as written, each with its position, its destination's form and whether it is a draft (left out: live). */
export function readRedirects(written: Written<'redirects'>): RedirectSpec[] {
  return written.map(({ destination, draft, ...rule }, i) => ({
    ...rule,
    destination: readTarget(destination),
    draft: draft === true,
    at: ['spec', 'redirects', i],
  }));
}

/** A source has at most one live and one draft rule. */
export function checkRedirects(doc: ManifestDocument, redirects: readonly RedirectSpec[], report: Report): void {
  const seen = new Set<string>();
  for (const r of redirects) {
    const id = `${r.draft ? 'draft' : 'live'} ${r.source}`;
    if (seen.has(id))
      report(
        doc.pos([...r.at, 'source']),
        `${r.draft ? 'a draft' : 'a live'} redirect from "${r.source}" is listed twice`,
      );
    seen.add(id);
  }
}

/** The links as written, each with its position. */
export function readExternalLinks(written: Written<'externalLinks'>): ExternalLinkSpec[] {
  return written.map((l, i) => ({ ...l, at: ['spec', 'externalLinks', i] }));
}

/** Link titles are unique in a site (a link's group is checked when planning: it may be a live group the manifest does not list). */
export function checkExternalLinks(doc: ManifestDocument, links: readonly ExternalLinkSpec[], report: Report): void {
  const seen = new Set<string>();
  for (const l of links) {
    if (seen.has(l.title)) report(doc.pos([...l.at, 'title']), `external link "${l.title}" is listed twice`);
    seen.add(l.title);
  }
}
