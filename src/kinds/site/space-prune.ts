/**
 * Live site spaces of a site's managed containers that no manifest entry wants: unmanaged (with a warning when
 * the manifest lists the same space in that container once more), or prune-phase deletes under prune.
 */
import { seg } from '../common.js';
import { uniqueKeys, unmatchedLive } from '../unmatched.js';
import { SITE_SPACE_KIND, WAVE, siteSpaceKey, type LiveSiteSpace } from './model.js';
import { base, warn, type SiteScope } from './scope.js';
import type { Nav } from './nav.js';

/** Live site spaces of managed containers that no entry wants (those of pruned sections go with them). */
export function pruneSiteSpaces(
  scope: SiteScope,
  nav: Nav,
  managedLive: LiveSiteSpace[],
  matched: ReadonlySet<string>,
  leftover: LiveSiteSpace[],
): void {
  const pathOf = new Map(scope.live.sections.map((s) => [s.id, s.path]));
  const seen = new Set<string>();
  const unwanted = [...managedLive, ...leftover].filter((x) => {
    if (matched.has(x.id) || seen.has(x.id) || nav.leaving.has(x.id)) return false;
    seen.add(x.id);
    return x.section === null || !nav.prunedSections.has(x.section);
  });
  if (scope.prune) for (const x of unwanted) nav.leaving.add(x.id);
  else
    warnDuplicates(
      scope,
      unwanted,
      managedLive.filter((x) => matched.has(x.id)),
      pathOf,
    );
  // Same-titled spaces in one container would share a key (and a step id): those get the id.
  const key = uniqueKeys(unwanted, (x) =>
    siteSpaceKey(scope.liveTitle, x.section === null ? null : (pathOf.get(x.section) ?? x.section), x.spaceTitle),
  );
  unmatchedLive(scope.result, {
    kind: SITE_SPACE_KIND,
    org: scope.org,
    prune: scope.prune,
    objects: unwanted,
    key,
    wave: () => WAVE.pruneSiteSpace,
    path: (x) => `${base(scope)}/site-spaces/${seg(x.id)}`,
    before: (x) => ({ space: x.spaceTitle, path: x.path }),
  });
}

/**
 * A space the manifest lists once in a section that holds it twice (e.g. an apply stopped before a root site
 * space was replaced): with prune off the extra site space stays, so say so rather than only listing it.
 */
function warnDuplicates(
  scope: SiteScope,
  unwanted: readonly LiveSiteSpace[],
  kept: readonly LiveSiteSpace[],
  pathOf: ReadonlyMap<string, string>,
): void {
  const listed = new Set(kept.map((x) => `${x.section ?? ''}\u0000${x.spaceId}`));
  for (const x of unwanted) {
    if (!listed.has(`${x.section ?? ''}\u0000${x.spaceId}`)) continue;
    const where = x.section === null ? 'at the site root' : `in section "${pathOf.get(x.section) ?? x.section}"`;
    warn(
      scope,
      scope.title,
      `space "${x.spaceTitle}" is ${where} twice; the manifest lists it once: site space ${x.id} is left (unmanaged) — delete it, or turn prune on`,
    );
  }
}
