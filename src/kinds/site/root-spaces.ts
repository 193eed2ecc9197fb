/**
 * Root site spaces of a site that gets its first sections. The server moves every root site space into the
 * first section created (contract), and a section can only be created with a space (its POST makes the
 * section's first, and default, site space). So, for each new section:
 * - the root site spaces it lists are taken over (same id, moved by the reorder step), except that
 * - when ALL its spaces are root ones, its POST necessarily creates a second site space for one of them (the
 *   first written): that root site space is then replaced, not taken over. An update step of the delete
 *   phase (the manifest lists the space once, the site would show it twice) deletes the root one after the
 *   reorder step, then gives the section's one the root one's path (or the written path): it
 *   could not take it earlier, the root one held it in the same section. The written (else the root one's)
 *   condition is set right after the POST, so the space is never shown more widely than before.
 * Root site spaces listed nowhere stay where the server put them (unmanaged, or pruned by the caller).
 */
import { ref } from '../../model/refs.js';
import { seg, stepId } from '../common.js';
import {
  SECTION_KIND,
  SITE_SPACE_KIND,
  WAVE,
  sectionKey,
  siteSpaceKey,
  slug,
  type LiveSiteSpace,
  type SectionSpec,
  type SiteSpaceSpec,
} from './model.js';
import { base, push, warn, type SiteScope } from './scope.js';
import type { SpaceTarget } from './space-ref.js';

export type Resolve = (list: SiteSpaceSpec[]) => { s: SiteSpaceSpec; t: SpaceTarget }[];

/** Root site spaces the desired sections list, matched by space in manifest order (each root once). */
export function claimRoots(
  roots: readonly LiveSiteSpace[],
  sections: readonly SectionSpec[],
  resolved: Resolve,
): Map<SiteSpaceSpec, LiveSiteSpace> {
  const claims = new Map<SiteSpaceSpec, LiveSiteSpace>();
  const free = [...roots];
  for (const d of sections) {
    for (const { s, t } of resolved(d.spaces)) {
      const i = free.findIndex((x) => x.spaceId === t.id);
      if (i < 0) continue;
      claims.set(s, free[i]!);
      free.splice(i, 1);
    }
  }
  return claims;
}

/**
 * The space a new section is POSTed with: one that is not a claimed root site space when it has one (nothing
 * shows twice), else its first space, whose root site space it then replaces.
 */
export function postedSpace<T extends { s: SiteSpaceSpec }>(
  spaces: readonly T[],
  claims: ReadonlyMap<SiteSpaceSpec, LiveSiteSpace>,
): { first: T; replaces?: LiveSiteSpace } | undefined {
  const free = spaces.find((x) => !claims.has(x.s));
  if (free) return { first: free };
  const first = spaces[0];
  if (!first) return undefined;
  const replaces = claims.get(first.s);
  return replaces ? { first, replaces } : { first };
}

/** The condition PATCHed on a new section's first site space that replaces `root`: the written one, else the root one's. */
export function replacementCondition(s: SiteSpaceSpec, root: LiveSiteSpace): string | undefined {
  if (typeof s.condition === 'string') return s.condition;
  return s.condition === undefined && root.condition !== null ? root.condition : undefined;
}

/**
 * The path the replacing site space takes once the root one is gone: the written one, else the root one's,
 * unless another site space of the section is written with that path (then it keeps the one the server derived).
 */
export function replacementPath(d: SectionSpec, first: SiteSpaceSpec, root: LiveSiteSpace): string | undefined {
  if (first.path !== undefined) return first.path;
  return d.spaces.some((x) => x !== first && x.path === root.path) ? undefined : root.path;
}

/** Delete phase: the root site space goes, then the section's first site space gets the path it should have. */
export function replaceRoot(
  scope: SiteScope,
  d: SectionSpec,
  first: { s: SiteSpaceSpec; t: SpaceTarget },
  root: LiveSiteSpace,
): void {
  const section = d.path;
  const create = stepId(SECTION_KIND, scope.org, sectionKey(scope.title, section), 'create');
  const path = replacementPath(d, first.s, root);
  const requests = [{ method: 'DELETE' as const, path: `${base(scope)}/site-spaces/${seg(root.id)}` }];
  // The POST derived the slug of the space title (the section was empty then).
  const patch =
    path !== undefined && path !== slug(first.t.title)
      ? [
          {
            method: 'PATCH' as const,
            path: `${base(scope)}/site-spaces/${ref(create, 'firstSiteSpace')}`,
            body: { path },
          },
        ]
      : [];
  // Two root site spaces of same-titled spaces would share a key (and a step id): add the id then.
  const twin = scope.live.siteSpaces.some(
    (x) => x.section === null && x.id !== root.id && x.spaceTitle === root.spaceTitle,
  );
  push(scope, {
    kind: SITE_SPACE_KIND,
    key: siteSpaceKey(scope.liveTitle, null, twin ? `${root.spaceTitle} (${root.id})` : root.spaceTitle),
    suffix: 'replace',
    // An update of the delete phase: the space stays in the site (in its new section); only the site space
    // object changes. The safety gate counts it as an update, the journal keeps the deleted root one.
    action: 'update',
    phase: 'delete',
    wave: WAVE.replaceRoot,
    before: { space: root.spaceTitle, section: null, path: root.path },
    after: { space: root.spaceTitle, section, path: path ?? slug(first.t.title) },
    requests: [...requests, ...patch],
    at: first.s.at,
    deps: [create],
    note: `replaced by the site space section "${section}" is created with${patch.length > 0 ? `, which then takes the path "${path}"` : ''}`,
  });
}

export function warnRootsMove(
  scope: SiteScope,
  roots: readonly LiveSiteSpace[],
  unclaimed: readonly LiveSiteSpace[],
  replaced: readonly LiveSiteSpace[],
): void {
  const names = (list: readonly LiveSiteSpace[]): string => list.map((x) => `"${x.spaceTitle}"`).join(', ');
  let message = `the site has root site spaces (${names(roots)}): the first section this plan creates receives them (API rule), then each is moved to the section that lists it`;
  if (replaced.length > 0)
    message += `; replaced by the site space their new section is created with (a section is created with a space): ${names(replaced)}`;
  if (unclaimed.length > 0)
    message += `; not listed in any section: ${names(unclaimed)} (${scope.prune ? 'deleted' : 'left in that section, unmanaged'})`;
  warn(scope, scope.title, message);
}
