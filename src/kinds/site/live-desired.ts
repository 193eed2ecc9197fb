/**
 * Readers of a Site document's going-live fields (issue 29), one small function per field: `published`,
 * `publishingAuth` (its private key as text and fingerprint, never kept as written), `redirects`; and the check the
 * schema cannot make (one rule per source and draft flag).
 */
import type { Report } from '../../core/kind.js';
import type { ManifestDocument } from '../../manifests/document.js';
import { isFileContent } from '../../manifests/file-refs.js';
import { isRecord, nullableString } from '../common.js';
import { keyFingerprint } from './live-reads.js';
import type { ExternalLinkSpec, PublishingAuthSpec, RedirectSpec, RedirectTarget } from './live-model.js';

export function readPublished(raw: unknown): boolean | undefined {
  return typeof raw === 'boolean' ? raw : undefined;
}

/** `${VAR}` (a string) or `{file}` read by the loader (`{file, text, sha256}`). */
function readPrivateKey(raw: unknown): PublishingAuthSpec['privateKey'] {
  if (typeof raw === 'string') return { text: raw, fingerprint: keyFingerprint(raw) };
  if (isFileContent(raw)) return { text: raw.text, fingerprint: keyFingerprint(raw.text), file: raw.file };
  return undefined;
}

export function readPublishingAuth(raw: unknown): PublishingAuthSpec | undefined {
  if (!isRecord(raw)) return undefined;
  const out: PublishingAuthSpec = {};
  if (typeof raw['backend'] === 'string') out.backend = raw['backend'];
  for (const k of ['fallbackURL', 'logoutURL'] as const) {
    const v = nullableString(raw[k]);
    if (v !== undefined) out[k] = v;
  }
  const key = readPrivateKey(raw['privateKey']);
  if (key) out.privateKey = key;
  return out;
}

function readTarget(raw: unknown): RedirectTarget {
  if (typeof raw === 'string') return { url: raw };
  const o = isRecord(raw) ? raw : {};
  const str = (k: string): string | undefined => (typeof o[k] === 'string' ? o[k] : undefined);
  const [section, space, page] = [str('section'), str('space'), str('page')];
  if (space === undefined) return { section: section ?? '' };
  return { ...(section !== undefined ? { section } : {}), space, ...(page !== undefined ? { page } : {}) };
}

export function readRedirects(raw: unknown): RedirectSpec[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  return raw.map((r, i) => {
    const o = isRecord(r) ? r : {};
    const out: RedirectSpec = { source: String(o['source'] ?? ''), destination: readTarget(o['destination']), draft: o['draft'] === true, at: ['spec', 'redirects', i] };
    if (typeof o['permanent'] === 'boolean') out.permanent = o['permanent'];
    if (typeof o['captureWildcard'] === 'boolean') out.captureWildcard = o['captureWildcard'];
    return out;
  });
}

/** A source has at most one live and one draft rule. */
export function checkRedirects(doc: ManifestDocument, redirects: readonly RedirectSpec[], report: Report): void {
  const seen = new Set<string>();
  for (const r of redirects) {
    const id = `${r.draft ? 'draft' : 'live'} ${r.source}`;
    if (seen.has(id)) report(doc.pos([...r.at, 'source']), `${r.draft ? 'a draft' : 'a live'} redirect from "${r.source}" is listed twice`);
    seen.add(id);
  }
}

/** A written localized text map (language → text). */
function localizedTexts(v: unknown): Record<string, string> | undefined {
  return isRecord(v) ? Object.fromEntries(Object.entries(v).map(([lang, text]) => [lang, String(text)])) : undefined;
}

export function readExternalLinks(raw: unknown): ExternalLinkSpec[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  return raw.map((r, i) => {
    const o = isRecord(r) ? r : {};
    const out: ExternalLinkSpec = { title: String(o['title'] ?? ''), url: String(o['url'] ?? ''), at: ['spec', 'externalLinks', i] };
    for (const k of ['description', 'icon', 'condition', 'group'] as const) {
      const v = nullableString(o[k]);
      if (v !== undefined) out[k] = v;
    }
    if (typeof o['draft'] === 'boolean') out.draft = o['draft'];
    for (const k of ['localizedTitle', 'localizedDescription'] as const) {
      const v = localizedTexts(o[k]);
      if (v !== undefined) out[k] = v;
    }
    return out;
  });
}

/** Link titles are unique in a site (a link's group is checked when planning: it may be a live group the manifest does not list). */
export function checkExternalLinks(doc: ManifestDocument, links: readonly ExternalLinkSpec[], report: Report): void {
  const seen = new Set<string>();
  for (const l of links) {
    if (seen.has(l.title)) report(doc.pos([...l.at, 'title']), `external link "${l.title}" is listed twice`);
    seen.add(l.title);
  }
}
