/**
 * Site spaces of every desired section (or of the root): from the assignment (space-assign.ts), the steps
 * before the reorder step (create, update of path and condition, re-point) and what the reorder step needs
 * (nav.containers, nav.paths). A path is set early only when no other site space of the container holds it at
 * that point; otherwise the reorder step sets it once the holder has moved, left or changed its own path
 * (sequence.ts), so that two site spaces swapping their paths never collide.
 */
import { ref } from '../../model/refs.js';
import { stepId } from '../common.js';
import { ROOT, inSection } from './layout.js';
import { SECTION_KIND, sectionKey, siteSpaceKey, slug, type LiveSiteSpace } from './model.js';
import { uniquePath } from './paths.js';
import { replacementPath, type Resolve } from './root-spaces.js';
import { block, type SiteScope } from './scope.js';
import { createSiteSpace, postedPathEarly, repointSiteSpace, updateSiteSpace } from './site-space-steps.js';
import { assignSiteSpaces, type Assignment, type Managed, type Want } from './space-assign.js';
import { pruneSiteSpaces } from './space-prune.js';
import type { Nav, NavSection, NavSiteSpace } from './nav.js';
import type { DocPath } from '../../manifests/paths.js';

export function diffSiteSpaces(scope: SiteScope, nav: Nav, resolved: Resolve, unclaimedRoots: LiveSiteSpace[]): void {
  const a = assignSiteSpaces(scope, nav, resolved);
  for (const p of a.problems) block(scope, p.at, p.message);
  nav.prunedDefaults = a.prunedDefaults;
  const sectionPathById = new Map(scope.live.sections.map((s) => [s.id, s.path]));
  // Every live site space of a managed container has a known path; the desired ones then add what they want.
  for (const x of scope.live.siteSpaces) nav.paths.set(x.id, { now: x.path });
  const roots =
    scope.live.sections.length === 0 && scope.spec.sections
      ? scope.live.siteSpaces.filter((x) => x.section === null)
      : [];
  if (nav.createdSections.length > 0) predictRootPaths(nav, a, roots);
  const rootPaths = new Set(roots.map((x) => x.path));
  for (const m of a.managed) emitContainer(scope, nav, m, sectionPathById, rootPaths);
  pruneSiteSpaces(
    scope,
    nav,
    a.managed.flatMap((m) => m.here),
    a.matched,
    [...a.leftover, ...unclaimedRoots],
  );
}

/**
 * Paths the creates of a container get from the server: the slug of the space title, made unique against what
 * the container holds. Undefined when that depends on the order of concurrent requests (two creates with one
 * slug, or a slug a root site space that may or may not land here holds).
 */
function derivedPaths(
  m: Managed,
  taken: ReadonlySet<string>,
  maybe: ReadonlySet<string>,
): Map<Want, string | undefined> {
  const creates = m.wants.filter((w) => w.source === 'create');
  const count = new Map<string, number>();
  for (const w of creates) count.set(slug(w.t.title), (count.get(slug(w.t.title)) ?? 0) + 1);
  const derive = (base: string): string | undefined =>
    (count.get(base) ?? 0) > 1 || maybe.has(base) ? undefined : uniquePath(base, taken);
  return new Map(creates.map((w) => [w, derive(slug(w.t.title))]));
}

/** The paths one of `count` creates deriving `base` may get: `base`, `base-2`, … made unique against `taken`. */
function candidatePaths(base: string, count: number, taken: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const used = new Set(taken);
  for (let i = 0; i < count; i++) {
    const p = uniquePath(base, used);
    used.add(p);
    out.push(p);
  }
  return out;
}

/** One container's site spaces as they are emitted: the paths held when the early steps run, and the output. */
interface Emit {
  scope: SiteScope;
  nav: Nav;
  m: Managed;
  sectionPathById: ReadonlyMap<string, string>;
  rootPaths: ReadonlySet<string>;
  /** The container's section in the navigation (undefined: the root). */
  section: NavSection | undefined;
  /** The path the new section's first site space has when the early steps run. */
  postedNow: string | undefined;
  rootsNow: string[];
  certain: ReadonlySet<string>;
  derived: ReadonlyMap<Want, string | undefined>;
  /** The slugs the container's creates derive (one per create). */
  slugs: string[];
  /** Whether `path` can be set before the reorder step on a site space whose path is `own`. */
  early: (path: string, own: string | undefined, soft: boolean) => boolean;
  list: NavSiteSpace[];
  created: string[];
}

function emitContainer(
  scope: SiteScope,
  nav: Nav,
  m: Managed,
  sectionPathById: ReadonlyMap<string, string>,
  rootPaths: ReadonlySet<string>,
): void {
  const e = heldPaths(scope, nav, m, sectionPathById, rootPaths);
  for (const w of m.wants) {
    const name = m.sectionPath === null ? w.s.space : `${m.sectionPath}/${w.s.space}`;
    const pathAt = typeof w.s.at.at(-1) === 'string' ? [...w.s.at.slice(0, -1), 'path'] : w.s.at;
    const item = (id: string, fields: Omit<NavSiteSpace, 'id' | 'name' | 'spaceId'>): void =>
      void e.list.push({ id, name, spaceId: w.t.id, ...fields });
    if (w.source === 'posted') emitPosted(e, w, item, pathAt);
    else if (w.source === 'hit' || w.source === 'moved') emitLive(e, w, item, pathAt);
    else if (w.source === 'repoint') emitRepoint(e, w, item, pathAt, name);
    else emitCreate(e, w, item, pathAt);
  }
  nav.containers.set(m.container, e.list);
  nav.createdSiteSpaces.set(m.container, e.created);
}

type Item = (id: string, fields: Omit<NavSiteSpace, 'id' | 'name' | 'spaceId'>) => void;
const keyOf = (e: Emit, w: Want): string => siteSpaceKey(e.scope.title, e.m.sectionPath, w.s.space);

/**
 * Paths held in the container when the early steps run: every live site space, a new section's first site space
 * and the root site spaces it receives, and the paths creates derive.
 */
function heldPaths(
  scope: SiteScope,
  nav: Nav,
  m: Managed,
  sectionPathById: ReadonlyMap<string, string>,
  rootPaths: ReadonlySet<string>,
): Emit {
  const isNewSection = m.sectionPath !== null && m.liveSection === undefined;
  const section = nav.sections.find((x) => inSection(x.id) === m.container);
  const posted = m.wants.find((w) => w.source === 'posted');
  // (Replacing a root site space, it keeps the derived path until the replace step: see root-spaces.ts.)
  const postedNow =
    posted &&
    (!section?.replaces && postedPathEarly(posted.s, posted.t, rootPaths) ? posted.s.path! : slug(posted.t.title));
  // Root site spaces land in the first new section (with several created at once, any of them): both the paths
  // they had and the ones they may get there are held.
  const predicted = isNewSection
    ? scope.live.siteSpaces
        .flatMap((x) => (x.section === null ? [nav.paths.get(x.id)?.now, ...(nav.paths.get(x.id)?.maybe ?? [])] : []))
        .filter((p): p is string => p !== undefined)
    : [];
  const rootsNow = isNewSection ? [...rootPaths, ...predicted] : [];
  const certain = new Set([
    ...m.here.map((x) => x.path),
    ...(postedNow !== undefined ? [postedNow] : []),
    ...(nav.createdSections.length === 1 ? predicted : []),
  ]);
  const derived = derivedPaths(m, certain, new Set(nav.createdSections.length > 1 ? rootsNow : []));
  // A slug two creates derive is held by one of them (which one is unknown).
  const slugs = m.wants.flatMap((w) => (w.source === 'create' ? [slug(w.t.title)] : []));
  const held = new Set([
    ...certain,
    ...rootsNow,
    ...[...derived.values()].filter((p): p is string => p !== undefined),
    ...slugs.filter((x, i) => slugs.indexOf(x) !== i),
  ]);
  const written = m.wants.flatMap((w) => (w.s.path !== undefined ? [w.s.path] : []));
  const early = (path: string, own: string | undefined, soft: boolean): boolean =>
    (path === own || !held.has(path)) && !(soft && written.includes(path));
  return {
    ...{ scope, nav, m, sectionPathById, rootPaths, section, postedNow, rootsNow, certain, derived, slugs, early },
    ...{ list: [], created: [] },
  };
}

/** The first site space of a new section, created by the section's POST. */
function emitPosted(e: Emit, w: Want, item: Item, pathAt: DocPath): void {
  const { scope, m, section, s } = { ...e, s: w.s };
  const id = ref(stepId(SECTION_KIND, scope.org, sectionKey(scope.title, m.sectionPath!), 'create'), 'firstSiteSpace');
  item(id, { incoming: false, isNew: true, withSection: true });
  // When it replaces a root site space, the replace step gives it its path after the root one is gone: the
  // reorder step only keeps that path free.
  const replaces = section?.replaces;
  const want = replaces ? undefined : s.path;
  const reserved = replaces && replacementPath(section!.spec, s, replaces);
  const reserve = replaces && reserved !== undefined ? { reserve: reserved, replaced: replaces.id } : {};
  e.nav.paths.set(id, { now: e.postedNow, ...(want !== undefined ? { want } : {}), ...reserve, at: pathAt });
}

/** A live site space kept in place (hit) or moved here from another section or the root. */
function emitLive(e: Emit, w: Want, item: Item, pathAt: DocPath): void {
  const { nav, m, s } = { ...e, s: w.s };
  const l = w.live!;
  const fromRoot = l.section === null && m.sectionPath !== null;
  const moved = w.source === 'moved';
  // Where it is when the early steps run (a root site space a new section receives may have been renamed).
  const own = nav.paths.get(l.id)?.now;
  // A moving site space gets its path after the move (the server may change it on the way); so does a root
  // site space when several sections are created (which one receives it is unknown).
  const somewhere = fromRoot && nav.createdSections.length > 1;
  const setPath =
    s.path !== undefined && own !== undefined && s.path !== own && !moved && !somewhere && e.early(s.path, own, false);
  const note = moved
    ? `moves from section "${e.sectionPathById.get(l.section!) ?? l.section}"`
    : fromRoot
      ? 'moves from the root into its section'
      : undefined;
  updateSiteSpace(e.scope, keyOf(e, w), s, l, setPath ? s.path : undefined, note);
  item(l.id, { incoming: moved || fromRoot, isNew: false });
  const maybe = own === undefined ? nav.paths.get(l.id)?.maybe : undefined;
  nav.paths.set(l.id, {
    now: setPath ? s.path : own,
    ...(maybe ? { maybe } : {}),
    ...(s.path !== undefined ? { want: s.path, at: pathAt } : {}),
  });
}

/** A live site space re-pointed to another space (keeping its path and condition). */
function emitRepoint(e: Emit, w: Want, item: Item, pathAt: DocPath, name: string): void {
  const { s } = w;
  const l = w.live!;
  const want = s.path ?? w.carried!.path;
  const setPath = want !== l.path && e.early(want, l.path, s.path === undefined);
  repointSiteSpace(e.scope, keyOf(e, w), w, setPath ? want : undefined, name);
  item(l.id, { incoming: false, isNew: false });
  e.nav.paths.set(l.id, {
    now: setPath ? want : l.path,
    want,
    ...(s.path === undefined ? { soft: true } : {}),
    at: pathAt,
  });
}

/** A new site space (its path derived by the server unless set early). */
function emitCreate(e: Emit, w: Want, item: Item, pathAt: DocPath): void {
  const { m, s, t } = { ...e, ...w };
  const want = s.path ?? w.carried?.path;
  const soft = s.path === undefined;
  const now = e.derived.get(w);
  const setPath = want !== undefined && (want !== now || now === undefined) && e.early(want, undefined, soft);
  const section = m.container === ROOT ? undefined : m.container.slice('section:'.length);
  const id = createSiteSpace(e.scope, keyOf(e, w), w, section, setPath ? want : undefined);
  item(id, { incoming: false, isNew: true });
  e.created.push(id);
  const shared = e.slugs.filter((x) => x === slug(t.title)).length;
  const maybe =
    now === undefined && !setPath
      ? { maybe: candidatePaths(slug(t.title), shared + e.rootsNow.length, e.certain) }
      : {};
  e.nav.paths.set(id, {
    now: setPath ? want : now,
    ...maybe,
    ...(want !== undefined ? { want, ...(soft ? { soft: true } : {}), at: pathAt } : {}),
  });
}

/**
 * Paths of the root site spaces a site's new sections receive: the server moves them all into the first section
 * created, after its first site space (whose path it derived from its space title), each made unique. With one
 * new section that is known; with several, which one gets them is not: the ones no section lists then float
 * (the reorder step cannot place them, only keep their paths in mind).
 */
function predictRootPaths(nav: Nav, a: Assignment, roots: readonly LiveSiteSpace[]): void {
  const posted = nav.createdSections.map((id) =>
    a.managed.find((m) => m.container === inSection(id))?.wants.find((w) => w.source === 'posted'),
  );
  // For each section that may receive them: its first site space's slug, then each root one in turn, made unique.
  const possible = new Map<string, Set<string>>(roots.map((x) => [x.id, new Set<string>()]));
  for (const w of posted) {
    const taken = new Set(w ? [slug(w.t.title)] : []);
    for (const x of roots) {
      const p = uniquePath(x.path, taken);
      taken.add(p);
      possible.get(x.id)!.add(p);
    }
  }
  const claimed = new Set(a.managed.flatMap((m) => m.wants.flatMap((w) => (w.live ? [w.live.id] : []))));
  for (const x of roots) {
    const paths = [...possible.get(x.id)!];
    nav.paths.set(x.id, paths.length === 1 ? { now: paths[0] } : { now: undefined, maybe: paths });
    if (nav.createdSections.length > 1 && !claimed.has(x.id)) nav.floating.add(x.id);
  }
}
