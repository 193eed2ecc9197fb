/**
 * Export of a site's going-live settings (issue 29): its redirect rules (destinations by section path and space, as
 * its sections name them) and its visitor sign-in settings when they differ from a new site's. The private key is
 * never exported: it would put the secret in the repository (write `privateKey: ${VAR}` to have plans check it).
 */
import { manifestDestination } from './live-reads.js';
import {
  EXTERNAL_LINK_FIELDS,
  type LiveExternalLink,
  type LivePublishingAuth,
  type LiveRedirect,
} from './live-model.js';
import type { LiveSiteSpace, SiteStructure } from './model.js';

function redirectEntry(
  r: LiveRedirect,
  s: SiteStructure,
  spaceName: (spaceId: string) => string,
): Record<string, unknown> {
  return {
    source: r.source,
    destination: manifestDestination(r.destination, s, spaceName),
    ...(r.permanent ? { permanent: true } : {}),
    ...(r.captureWildcard ? { captureWildcard: true } : {}),
    ...(r.draft ? { draft: true } : {}),
  };
}

function authEntry(a: LivePublishingAuth): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  if (a.backend !== 'custom') out['backend'] = a.backend;
  if (a.fallbackURL !== null) out['fallbackURL'] = a.fallbackURL;
  if (a.logoutURL !== null) out['logoutURL'] = a.logoutURL;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A link as written: title and URL, the fields set, and its group by title (when it is in one). */
function linkEntry(l: LiveExternalLink, groupTitle: ReadonlyMap<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { title: l.title, url: l.url };
  for (const f of EXTERNAL_LINK_FIELDS) {
    const v = l[f];
    if (v !== null && v !== false && f !== 'url') out[f] = v;
  }
  if (l.group !== null) out['group'] = groupTitle.get(l.group) ?? l.group;
  return out;
}

/** `redirects` (when read and any), `publishingAuth` (when read and not a new site's), `externalLinks` (when read and any). */
export function liveSpec(s: SiteStructure, name: (ss: LiveSiteSpace) => string): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  const spaceName = (spaceId: string): string => {
    const ss = s.siteSpaces.find((x) => x.spaceId === spaceId);
    return ss ? name(ss) : spaceId;
  };
  const rules = (s.redirects ?? []).map((r) => redirectEntry(r, s, spaceName));
  // A written list is complete: when a rule's target cannot be named (a section or site space that is gone), the
  // site's rules are not exported at all (they stay unmanaged) rather than exported without it (a delete).
  const named = rules.every((r) => typeof r['destination'] === 'string' || !('kind' in (r['destination'] as object)));
  if (rules.length > 0 && named) spec['redirects'] = rules;
  const auth = s.publishingAuth ? authEntry(s.publishingAuth) : undefined;
  if (auth) spec['publishingAuth'] = auth;
  // Links sharing a title cannot be named apart: they are left out (unmanaged).
  const titles = new Map<string, number>();
  for (const l of s.externalLinks ?? []) titles.set(l.title, (titles.get(l.title) ?? 0) + 1);
  const groupTitle = new Map(s.groups.map((g) => [g.id, g.title]));
  const links = (s.externalLinks ?? []).filter((l) => titles.get(l.title) === 1).map((l) => linkEntry(l, groupTitle));
  if (links.length > 0) spec['externalLinks'] = links;
  return spec;
}
