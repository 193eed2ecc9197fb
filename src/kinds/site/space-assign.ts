/**
 * Which live site space each desired site space of a site becomes: the one of the same space already in its
 * section (or taken over from the root), one of another section moved in, or a new one. Then the moves the API
 * cannot make in any order are turned into something it can:
 * - a section whose only staying site space is its default cannot let it go before another one has arrived; when
 *   the arrivals wait the same way on other sections (two sections swapping their spaces, a rotation of three …),
 *   no sequence of moves exists. Each site space of such a cycle stays where it is and is **re-pointed** at the
 *   space the manifest wants there (PATCH `spaceId`, keeping the path and condition the moved one had): the same
 *   navigation, with no site space created or deleted;
 * - a pruned section's default site space moving elsewhere: the section first gets another default; when every
 *   site space of it moves out, the default one is created anew in its target instead (the section, deleted
 *   later, must keep one).
 */
import { inSection } from './layout.js';
import { slug, type LiveSiteSpace, type SiteSpaceSpec } from './model.js';
import type { Resolve } from './root-spaces.js';
import type { SiteScope } from './scope.js';
import type { Nav } from './nav.js';
import type { SpaceTarget } from './space-ref.js';

export type Source = 'posted' | 'hit' | 'moved' | 'repoint' | 'create';

/** One desired site space and where it comes from. */
export interface Want {
  s: SiteSpaceSpec;
  t: SpaceTarget;
  /** posted: created by its new section's POST; hit: the live one in place; moved: a live one of another section. */
  source: Source;
  /** hit, moved, repoint: the live site space that becomes this one. */
  live?: LiveSiteSpace;
  /** repoint, or a create that replaces a move: the live site space whose move it replaces (its path and condition are kept). */
  carried?: LiveSiteSpace;
}

/** A container the manifest lists site spaces for: a desired section, or the root. */
export interface Managed {
  container: string;
  sectionPath: string | null;
  /** The live section, absent for a new section and the root. */
  liveSection?: string;
  wants: Want[];
  /** Live site spaces in it. */
  here: LiveSiteSpace[];
}

export interface Assignment {
  managed: Managed[];
  /** Live site spaces used in place (hit or re-pointed). */
  matched: Set<string>;
  /** Live site spaces of managed sections that no desired one takes. */
  leftover: LiveSiteSpace[];
  /** Pruned section id → the site space made its default before its default one moves out. */
  prunedDefaults: Map<string, LiveSiteSpace>;
  /** Sections whose site spaces cannot be reached, with the reason (the site is blocked). */
  problems: { at: SiteSpaceSpec['at']; message: string }[];
}

export function assignSiteSpaces(scope: SiteScope, nav: Nav, resolved: Resolve): Assignment {
  const { live } = scope;
  const liveIn = (sectionId: string | null): LiveSiteSpace[] => live.siteSpaces.filter((x) => x.section === sectionId);
  const matched = new Set<string>();
  const managed: Managed[] = [];
  for (const s of nav.sections) {
    const here = s.live ? liveIn(s.live.id) : [];
    managed.push({
      container: inSection(s.id),
      sectionPath: s.path,
      ...(s.live ? { liveSection: s.live.id } : {}),
      wants: wantsOf(s.spec.spaces, resolved, here, s.live === undefined, s.posted, nav, matched),
      here,
    });
  }
  if (scope.spec.spaces) {
    const here = liveIn(null);
    managed.push({
      container: 'root',
      sectionPath: null,
      wants: wantsOf(scope.spec.spaces, resolved, here, false, undefined, nav, matched),
      here,
    });
  }

  // Live site spaces no desired (section, space) claims: candidates for a move into another section.
  const managedSections = new Set([
    ...managed.flatMap((m) => (m.liveSection ? [m.liveSection] : [])),
    ...nav.prunedSections,
  ]);
  const candidates = live.siteSpaces.filter(
    (x) => !matched.has(x.id) && x.section !== null && managedSections.has(x.section),
  );
  for (const m of managed) {
    if (m.sectionPath === null) continue;
    for (const w of m.wants) {
      if (w.source !== 'create') continue;
      const moved = candidates.find((x) => x.spaceId === w.t.id);
      if (!moved) continue;
      candidates.splice(candidates.indexOf(moved), 1);
      nav.leaving.add(moved.id);
      w.source = 'moved';
      w.live = moved;
    }
  }
  const out: Assignment = { managed, matched, leftover: candidates, prunedDefaults: new Map(), problems: [] };
  releasePrunedDefaults(scope, nav, out);
  breakCycles(scope, nav, out);
  return out;
}

function wantsOf(
  specs: SiteSpaceSpec[],
  resolved: Resolve,
  here: LiveSiteSpace[],
  isNew: boolean,
  posted: SiteSpaceSpec | undefined,
  nav: Nav,
  matched: Set<string>,
): Want[] {
  return resolved(specs).map(({ s, t }): Want => {
    if (s === posted) return { s, t, source: 'posted' };
    const hit = isNew
      ? nav.rootClaims.get(s)
      : stableHit(
          here.filter((x) => x.spaceId === t.id && !matched.has(x.id)),
          s,
          t,
        );
    if (!hit) return { s, t, source: 'create' };
    matched.add(hit.id);
    return { s, t, source: 'hit', live: hit };
  });
}

/**
 * Of several live site spaces of one space in a container (a duplicate the manifest lists once), the one that
 * becomes the desired one: the same across plans whatever their order (which this plan may change), so a second
 * plan never picks the other one: the one with the wanted path, else the lowest id.
 */
function stableHit(same: LiveSiteSpace[], s: SiteSpaceSpec, t: SpaceTarget): LiveSiteSpace | undefined {
  if (same.length <= 1) return same[0];
  const path = s.path ?? slug(t.title);
  return same.find((x) => x.path === path) ?? [...same].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0];
}

const movedWants = (a: Assignment): Want[] => a.managed.flatMap((m) => m.wants.filter((w) => w.source === 'moved'));

/** A pruned section's default site space that moves out: another default first, or a new site space instead of the move. */
function releasePrunedDefaults(scope: SiteScope, nav: Nav, a: Assignment): void {
  const moving = new Map(movedWants(a).map((w) => [w.live!.id, w]));
  for (const id of nav.prunedSections) {
    const inIt = scope.live.siteSpaces.filter((x) => x.section === id);
    const def = inIt.find((x) => x.default);
    const w = def && moving.get(def.id);
    if (!def || !w) continue;
    const stays = inIt.find((x) => !moving.has(x.id));
    if (stays) {
      a.prunedDefaults.set(id, stays);
      continue;
    }
    w.source = 'create';
    w.carried = def;
    delete w.live;
    nav.leaving.delete(def.id);
  }
}

/**
 * Sections that cannot let their default site space go (no site space of theirs stays, and every one that should
 * arrive is itself the default of such a section) form cycles: re-point each site space of a cycle at the space
 * its own section wants from the cycle, until every section can proceed.
 */
function breakCycles(scope: SiteScope, nav: Nav, a: Assignment): void {
  const defaultOf = new Map(
    scope.live.siteSpaces.flatMap((x) => (x.section !== null && x.default ? [[x.section, x] as const] : [])),
  );
  const bySection = new Map(a.managed.flatMap((m) => (m.liveSection ? [[m.liveSection, m] as const] : [])));
  for (;;) {
    const ready = readySections(a, defaultOf, bySection);
    const stuck = a.managed.filter((m) => m.liveSection !== undefined && !ready.has(m));
    if (stuck.length === 0) return;
    const chain: Managed[] = [];
    const via: Want[] = [];
    let at: Managed | undefined = stuck[0]!;
    while (at && !chain.includes(at)) {
      const from: Managed = at;
      const w = from.wants.find((x) => x.source === 'moved' && !ready.has(bySection.get(x.live!.section!)!));
      const section = nav.sections.find((s) => s.live?.id === from.liveSection)!;
      if (!w) {
        a.problems.push({
          at: section.spec.at,
          message: `section "${from.sectionPath}" would be left without a site space: its site spaces all move to other sections and none of its own exists or can be added; list one space of it that exists`,
        });
        return;
      }
      chain.push(from);
      via.push(w);
      at = bySection.get(w.live!.section!);
    }
    const start = chain.indexOf(at!);
    chain.slice(start).forEach((m, i) => {
      const w = via[start + i]!;
      const own = defaultOf.get(m.liveSection!)!;
      w.carried = w.live!;
      w.live = own;
      w.source = 'repoint';
      a.matched.add(own.id);
      nav.leaving.delete(own.id);
    });
  }
}

/** Live desired sections whose default site space can leave (or need not). */
function readySections(
  a: Assignment,
  defaultOf: ReadonlyMap<string, LiveSiteSpace>,
  bySection: ReadonlyMap<string, Managed>,
): Set<Managed> {
  const movingIds = new Set(movedWants(a).map((w) => w.live!.id));
  const ready = new Set<Managed>();
  const free = (w: Want): boolean => {
    const from = w.live!.section!;
    if (defaultOf.get(from)?.id !== w.live!.id || a.prunedDefaults.has(from)) return true;
    const m = bySection.get(from);
    return m !== undefined && ready.has(m);
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const m of a.managed) {
      if (m.liveSection === undefined || ready.has(m)) continue;
      const def = defaultOf.get(m.liveSection);
      const stays = m.wants.some((w) => w.source === 'hit' || w.source === 'create' || w.source === 'repoint');
      if (stays || !def || !movingIds.has(def.id) || m.wants.some((w) => w.source === 'moved' && free(w))) {
        ready.add(m);
        changed = true;
      }
    }
  }
  return ready;
}
