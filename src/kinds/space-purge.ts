/**
 * What deleting a space takes with it later. A space delete is a soft delete (management-api.md: restorable for
 * 7 days, then permanently removed); management-api.md says nothing about the sites that show it. The sandbox
 * keeps a deleted space's site spaces until the space is purged, then drops them, and drops a section left
 * without site spaces (docs/dev/api-differences.md). So a space delete — a Space prune, or a collection delete that
 * takes the space — lists those site spaces and sections as cascades, noted as happening at the purge.
 *
 * Fetch: only when a space delete can happen, the sites list and each site's sections and site spaces
 * (memoised, shared with the Site kind). A live space a Site manifest shows is managed for this purpose: the
 * Space kind never prunes it (the delete is blocked), the Collection kind moves it out of a collection it deletes.
 *
 * Shared by Space and Collection (both delete spaces), it reads a site's structure the way Site does: the one
 * module of src/kinds that imports a kind's files other than model.ts (eslint.config.js says so).
 */
import type { SourcePos } from '../model/errors.js';
import type { DiffContext, FetchContext, LiveObject } from '../model/kind.js';
import type { CascadeObject } from '../model/plan.js';
import { withDisplayKeys, matchByIdOrTitle } from './match.js';
import { siteSpecOf, spaceRefs } from './site/desired.js';
import { childObjects, readStructure, siteObject } from './site/structure.js';
import {
  SECTION_KIND,
  SITE_KIND,
  SITE_SPACE_KIND,
  sectionKey,
  siteSpaceKey,
  sitesPath,
  type LiveSection,
  type LiveSiteSpace,
} from './site/model.js';

export const PURGE_NOTE = 'when the space is purged, 7 days after its delete, unless restored';
const SECTION_PURGE_NOTE = 'when its last space is purged, 7 days after the delete, unless restored';

export interface UsageSite {
  id: string;
  title: string;
  sections: LiveSection[];
  siteSpaces: LiveSiteSpace[];
}

/** Where the organization's spaces are shown: every site's sections and site spaces. */
export interface SpaceUsage {
  sites: UsageSite[];
}

export async function readSpaceUsage(ctx: FetchContext, org: string): Promise<SpaceUsage> {
  const sites = (await ctx.list(sitesPath(org))).map((s) => siteObject(org, s)).filter((s) => s !== undefined);
  return {
    sites: await Promise.all(
      sites.map(async (site) => {
        const { sections, siteSpaces } = await readStructure(ctx, org, site.id, { structure: true, groups: false });
        return { id: site.id, title: site.key, sections, siteSpaces };
      }),
    ),
  };
}

/** The sections and site spaces read, as live objects for the gate's counts. */
export function usageObjects(org: string, usage: SpaceUsage): LiveObject[] {
  return usage.sites.flatMap((s) =>
    childObjects(org, { id: s.id, key: s.title }, { sections: s.sections, groups: [], siteSpaces: s.siteSpaces }),
  );
}

/** Space names (titles or ids) the org's Site manifests show, each with where it is first written. */
export function siteNamedSpaces(ctx: DiffContext, org: string): Map<string, SourcePos> {
  const named = new Map<string, SourcePos>();
  for (const site of ctx.desired(SITE_KIND, org)) {
    const spec = siteSpecOf(site);
    for (const r of spec ? spaceRefs(spec) : []) if (!named.has(r.space)) named.set(r.space, site.doc.pos(r.at));
  }
  return named;
}

/**
 * Per deleted space (of `mine`, the spaces this kind's steps delete, in step order): the site spaces that show it,
 * and each section all of whose site spaces show a deleted space (`deleted`, which may hold spaces another kind
 * deletes) — listed with the first of `mine` in it. A section a Site manifest writes is never listed: the
 * manifest keeps it, with spaces it names (and those are never deleted).
 */
export function purgeCascades(
  ctx: DiffContext,
  org: string,
  usage: SpaceUsage | undefined,
  mine: readonly string[],
  deleted: ReadonlySet<string>,
): Map<string, CascadeObject[]> {
  const out = new Map<string, CascadeObject[]>();
  if (!usage || mine.length === 0) return out;
  const rank = new Map(mine.map((id, i) => [id, i]));
  const add = (spaceId: string, c: CascadeObject): void => void out.set(spaceId, [...(out.get(spaceId) ?? []), c]);
  const described = describedSections(ctx, org, usage);
  for (const site of usage.sites) {
    const pathOf = new Map(site.sections.map((s) => [s.id, s.path]));
    for (const ss of site.siteSpaces) {
      if (!rank.has(ss.spaceId)) continue;
      const section = ss.section === null ? null : (pathOf.get(ss.section) ?? ss.section);
      add(ss.spaceId, {
        kind: SITE_SPACE_KIND,
        org,
        key: siteSpaceKey(site.title, section, ss.spaceTitle),
        id: ss.id,
        note: PURGE_NOTE,
      });
    }
    for (const section of site.sections) {
      const inside = site.siteSpaces.filter((ss) => ss.section === section.id);
      if (
        inside.length === 0 ||
        described.has(`${site.id}\u0000${section.path}`) ||
        !inside.every((ss) => deleted.has(ss.spaceId))
      )
        continue;
      const first = inside
        .map((ss) => ss.spaceId)
        .filter((id) => rank.has(id))
        .sort((a, b) => rank.get(a)! - rank.get(b)!)[0];
      if (first !== undefined)
        add(first, {
          kind: SECTION_KIND,
          org,
          key: sectionKey(site.title, section.path),
          id: section.id,
          note: SECTION_PURGE_NOTE,
        });
    }
  }
  return out;
}

/** `${site id}\0${section path}` of every section a Site manifest writes. */
function describedSections(ctx: DiffContext, org: string, usage: SpaceUsage): Set<string> {
  const entries = withDisplayKeys(ctx.desired(SITE_KIND, org));
  if (entries.length === 0) return new Set();
  const live: LiveObject[] = usage.sites.map((s) => ({ kind: SITE_KIND, org, key: s.title, id: s.id, fields: {} }));
  const out = new Set<string>();
  for (const [e, o] of matchByIdOrTitle(SITE_KIND, entries, live).matched) {
    for (const s of siteSpecOf(e)?.sections ?? []) out.add(`${o.id}\u0000${s.path}`);
  }
  return out;
}
