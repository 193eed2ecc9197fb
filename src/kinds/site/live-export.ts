/**
 * Export of a site's going-live settings (issue 29): its redirect rules (destinations by section path and space, as
 * its sections name them) and its visitor sign-in settings when they differ from a new site's. The private key is
 * never exported: it would put the secret in the repository (write `privateKey: ${VAR}` to have plans check it).
 */
import { manifestDestination } from './live-reads.js';
import type { LiveRedirect, LivePublishingAuth } from './live-model.js';
import type { LiveSiteSpace, SiteStructure } from './model.js';

function redirectEntry(r: LiveRedirect, s: SiteStructure, spaceName: (spaceId: string) => string): Record<string, unknown> {
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

/** `redirects` (when read and any) and `publishingAuth` (when read and not a new site's). */
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
  return spec;
}
