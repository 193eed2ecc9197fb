/**
 * Sections and site spaces of one site: match by path / (section, space), create (a section is created with
 * its first space, capturing the section id and its first site space id; further site spaces are created in
 * it), update changed fields, pair a space that leaves one section for another into a move (done by the
 * reorder step), and prune what the manifest no longer lists. The result (`Nav`) tells the group, order and
 * default parts which ids and refs stand for what.
 *
 * Root site spaces and a site's first section (site-root-spaces.ts): each root site space the manifest lists
 * in a new section is taken over (the reorder step moves it next to the site spaces of its section, wherever
 * the server put it), except the one a section of only root spaces must be POSTed with: that one is replaced.
 * Root site spaces listed nowhere stay in the section the server put them in (unmanaged, or deleted under
 * prune). The plan warns about it.
 */
import { ref, type RequestSpec } from '../core/plan.js';
import { changedFields, seg, stepId, unmatchedLive } from './common.js';
import { ROOT, inSection } from './site-layout.js';
import { SECTION_KIND, SITE_SPACE_KIND, WAVE, sectionKey, siteSpaceKey, slug, type LiveSection, type LiveSiteSpace, type SectionSpec, type SiteSpaceSpec } from './site-model.js';
import { claimRoots, postedSpace, replaceRoot, replacementCondition, warnRootsMove, type Resolve } from './site-root-spaces.js';
import { pruneSiteSpaces } from './site-space-prune.js';
import { base, push, warn, where, type SiteScope } from './site-scope.js';
import type { SpaceTarget } from './site-space-ref.js';

export interface NavSection {
  path: string;
  /** Live id or ref to the create step. */
  id: string;
  live?: LiveSection;
  spec: SectionSpec;
  /** For a section created by this plan: the site space its POST creates. */
  posted?: SiteSpaceSpec;
  /** The live root site space that `posted` replaces (deleted in the delete phase). */
  replaces?: LiveSiteSpace;
}

export interface NavSiteSpace {
  /** Live id, or a ref to the step (or the section step's firstSiteSpace) that creates it. */
  id: string;
  name: string;
  /** The space id (or a ref to the step creating the space). */
  spaceId: string;
  /** A live site space that comes from another section (moved by the reorder step). */
  incoming: boolean;
  isNew: boolean;
  /** Created by its section's POST (the section's first, and default, site space). */
  withSection?: boolean;
}

export interface Nav {
  /** Desired sections that exist or are created, in manifest order. */
  sections: NavSection[];
  /** Container (inSection(id) or ROOT) → desired site spaces, in order. */
  containers: Map<string, NavSiteSpace[]>;
  /** Sections created in this plan (ids are refs), in order. */
  createdSections: string[];
  /** Container → site spaces created concurrently in it. */
  createdSiteSpaces: Map<string, string[]>;
  /** Live sections deleted by this plan. */
  prunedSections: Set<string>;
  /** Live site spaces leaving their section (moved elsewhere or deleted). */
  leaving: Set<string>;
  /** Desired site spaces of new sections that take over a live root site space (see the file comment). */
  rootClaims: Map<SiteSpaceSpec, LiveSiteSpace>;
}

const SECTION_FIELDS = ['title', 'icon', 'description', 'condition'] as const;

/** `path`, `path-2`, … the first not in `taken`. */
function uniquePath(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}

export function diffSections(scope: SiteScope): Nav {
  const { spec, live } = scope;
  const nav: Nav = { sections: [], containers: new Map(), createdSections: [], createdSiteSpaces: new Map(), prunedSections: new Set(), leaving: new Set(), rootClaims: new Map() };
  const liveByPath = new Map(live.sections.map((s) => [s.path, s]));
  // Each reference is resolved once, though sections and site spaces both ask. A site with a reference that
  // resolves to nothing never gets here: the site diff blocks it first (blockUnresolvedSpaces).
  const memo = new Map<SiteSpaceSpec, SpaceTarget | undefined>();
  const target = (s: SiteSpaceSpec): SpaceTarget | undefined => {
    if (!memo.has(s)) {
      const t = scope.space(s.space, scope.entry.doc.pos(s.at));
      if (!t) throw new Error(`internal: space "${s.space}" (${where(scope, s.at)}) resolves to nothing, but its site was not blocked`);
      memo.set(s, t);
    }
    return memo.get(s);
  };
  const resolved = (list: SiteSpaceSpec[]): { s: SiteSpaceSpec; t: SpaceTarget }[] =>
    list.flatMap((s) => {
      const t = target(s);
      return t ? [{ s, t }] : [];
    });

  // Derived paths of new sections that clash with each other are unpredictable (concurrent creates).
  const newBases = new Map<string, number>();
  for (const d of spec.sections ?? []) {
    if (liveByPath.has(d.path)) continue;
    const b = slug(d.title ?? '');
    if (b) newBases.set(b, (newBases.get(b) ?? 0) + 1);
  }

  const roots = live.sections.length === 0 && spec.sections ? live.siteSpaces.filter((x) => x.section === null) : [];
  nav.rootClaims = claimRoots(roots, spec.sections ?? [], resolved);
  for (const d of spec.sections ?? []) {
    const l = liveByPath.get(d.path);
    const spaces = resolved(d.spaces);
    if (l) {
      nav.sections.push({ path: d.path, id: l.id, live: l, spec: d });
      updateSection(scope, d, l);
      continue;
    }
    const posted = postedSpace(spaces, nav.rootClaims);
    // Every space resolves (unresolved ones block the site) and a section lists at least one (schema).
    if (!posted) throw new Error(`internal: section "${d.path}" (${where(scope, d.at)}) of site "${scope.title}" has no space to be created with`);
    const { first, replaces } = posted;
    nav.rootClaims.delete(first.s);
    const created = createSection(scope, d, first, liveByPath, (newBases.get(slug(d.title ?? first.t.title)) ?? 0) > 1, replaces);
    nav.sections.push({ path: d.path, id: created, spec: d, posted: first.s, ...(replaces ? { replaces } : {}) });
    nav.createdSections.push(created);
    if (replaces) {
      replaceRoot(scope, d.path, first, replaces);
      nav.leaving.add(replaces.id);
    }
  }
  if (spec.sections) pruneSections(scope, nav);
  const replaced = nav.sections.flatMap((s) => (s.replaces ? [s.replaces] : []));
  const kept = new Set([...nav.rootClaims.values(), ...replaced]);
  const unclaimed = nav.createdSections.length > 0 ? roots.filter((x) => !kept.has(x)) : [];
  if (nav.createdSections.length > 0 && roots.length > 0) warnRootsMove(scope, roots, unclaimed, replaced);
  siteSpaces(scope, nav, resolved, unclaimed);
  return nav;
}

function updateSection(scope: SiteScope, d: SectionSpec, l: LiveSection): void {
  const c = changedFields(d as unknown as Record<string, unknown>, l as unknown as Record<string, unknown>, SECTION_FIELDS);
  if (c.changed.length === 0) return;
  push(scope, {
    kind: SECTION_KIND,
    key: sectionKey(scope.title, d.path),
    suffix: 'update',
    action: 'update',
    phase: 'update',
    wave: WAVE.section,
    before: c.before,
    after: c.after,
    requests: [{ method: 'PATCH', path: `${base(scope)}/sections/${seg(l.id)}`, body: c.after }],
    at: d.at,
  });
}

/**
 * POST with the first space; PATCH what the server derives differently; returns the ref of the new id. When
 * the first site space replaces a root one, only its condition is set here (its path: see replaceRoot).
 */
function createSection(scope: SiteScope, d: SectionSpec, first: { s: SiteSpaceSpec; t: SpaceTarget }, liveByPath: ReadonlyMap<string, LiveSection>, clash: boolean, replaces?: LiveSiteSpace): string {
  const key = sectionKey(scope.title, d.path);
  const id = stepId(SECTION_KIND, scope.org, key, 'create');
  const post: Record<string, unknown> = { spaceId: first.t.id };
  if (d.title !== undefined) post['title'] = d.title;
  if (typeof d.icon === 'string') post['icon'] = d.icon;
  const derived = uniquePath(slug(d.title ?? first.t.title), new Set(liveByPath.keys()));
  // Found again by the path the server derives (unique among live sections) and its first space.
  const recover = { match: [{ field: 'path', value: derived }, { field: 'siteSpaces.0.space.id', body: '/spaceId' }] };
  const requests: RequestSpec[] = [{ method: 'POST', path: `${base(scope)}/sections`, body: post, capture: { id: 'id', firstSiteSpace: 'siteSpaces.0.id' }, recover }];
  const patch: Record<string, unknown> = {};
  if (clash || derived !== d.path) patch['path'] = d.path;
  if (typeof d.description === 'string') patch['description'] = d.description;
  if (typeof d.condition === 'string') patch['condition'] = d.condition;
  if (Object.keys(patch).length > 0) requests.push({ method: 'PATCH', path: `${base(scope)}/sections/${ref(id)}`, body: patch });
  const condition = replaces ? replacementCondition(first.s, replaces) : undefined;
  const ssPatch = replaces ? (condition !== undefined ? { condition } : {}) : siteSpacePatch(first.s, first.t, new Set());
  if (Object.keys(ssPatch).length > 0) requests.push({ method: 'PATCH', path: `${base(scope)}/site-spaces/${ref(id, 'firstSiteSpace')}`, body: ssPatch });
  const after: Record<string, unknown> = { path: d.path };
  for (const f of SECTION_FIELDS) if (d[f] !== undefined) after[f] = d[f];
  after['spaces'] = [first.s.space];
  push(scope, { kind: SECTION_KIND, key, suffix: 'create', action: 'create', phase: 'create', wave: WAVE.section, before: null, after, requests, at: d.at, deps: first.t.deps });
  return ref(id);
}

/** Path/condition a new site space needs after the server derived its path from the space title. */
function siteSpacePatch(s: SiteSpaceSpec, t: SpaceTarget, siblings: ReadonlySet<string>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const derived = slug(t.title);
  if (s.path !== undefined && (s.path !== derived || siblings.has(derived))) patch['path'] = s.path;
  if (typeof s.condition === 'string') patch['condition'] = s.condition;
  return patch;
}

function pruneSections(scope: SiteScope, nav: Nav): void {
  const wanted = new Set((scope.spec.sections ?? []).map((s) => s.path));
  const key = (l: LiveSection): string => sectionKey(scope.liveTitle, l.path);
  let unwanted = scope.live.sections.filter((l) => !wanted.has(l.path));
  if (scope.prune) {
    unwanted = unwanted.filter((l) => {
      if (!l.default || nav.sections.length > 0) return true;
      warn(scope, key(l), 'the default section is kept: no section of the manifest can become the default');
      return false;
    });
    for (const l of unwanted) nav.prunedSections.add(l.id);
  }
  unmatchedLive(scope.result, {
    kind: SECTION_KIND,
    org: scope.org,
    prune: scope.prune,
    objects: unwanted,
    key,
    wave: () => WAVE.pruneSection,
    path: (l) => `${base(scope)}/sections/${seg(l.id)}`,
    before: (l) => ({ path: l.path, title: l.title }),
    note: 'also deletes its site spaces',
  });
}

/** Site spaces of every desired section (or of the root), including cross-section moves and prunes. */
function siteSpaces(scope: SiteScope, nav: Nav, resolved: Resolve, unclaimedRoots: LiveSiteSpace[]): void {
  const { live } = scope;
  const sectionPathById = new Map(live.sections.map((s) => [s.id, s.path]));
  const managed: { container: string; sectionPath: string | null; liveSection?: string; specs: SiteSpaceSpec[]; posted?: SiteSpaceSpec }[] = [];
  for (const s of nav.sections) managed.push({ container: inSection(s.id), sectionPath: s.path, ...(s.live ? { liveSection: s.live.id } : {}), specs: s.spec.spaces, ...(s.posted ? { posted: s.posted } : {}) });
  if (scope.spec.spaces) managed.push({ container: ROOT, sectionPath: null, specs: scope.spec.spaces });

  const liveIn = (sectionId: string | null): LiveSiteSpace[] => live.siteSpaces.filter((x) => x.section === sectionId);
  const matchedLive = new Set<string>();
  const plans = managed.map((m) => {
    const here = m.sectionPath === null ? liveIn(null) : m.liveSection ? liveIn(m.liveSection) : [];
    const items = resolved(m.specs).map((r) => {
      const hit = m.sectionPath === null || m.liveSection ? here.find((x) => x.spaceId === r.t.id && !matchedLive.has(x.id)) : nav.rootClaims.get(r.s);
      if (hit) matchedLive.add(hit.id);
      return { ...r, hit, first: r.s === m.posted };
    });
    return { m, items, here };
  });
  // Live site spaces no desired (section, space) claims: candidates for a move into another section.
  const managedSections = new Set([...nav.sections.filter((s) => s.live).map((s) => s.live!.id), ...nav.prunedSections]);
  const candidates = live.siteSpaces.filter((x) => !matchedLive.has(x.id) && x.section !== null && managedSections.has(x.section));

  for (const { m, items, here } of plans) {
    const list: NavSiteSpace[] = [];
    const created: string[] = [];
    const siblingSlugs = new Set(here.map((x) => x.path));
    for (const { s, t, hit, first } of items) {
      const key = siteSpaceKey(scope.title, m.sectionPath, s.space);
      const name = m.sectionPath === null ? s.space : `${m.sectionPath}/${s.space}`;
      if (first) {
        list.push({ id: ref(stepId(SECTION_KIND, scope.org, sectionKey(scope.title, m.sectionPath!), 'create'), 'firstSiteSpace'), name, spaceId: t.id, incoming: false, isNew: true, withSection: true });
        continue;
      }
      const moved = hit ? undefined : candidates.find((x) => x.spaceId === t.id && m.sectionPath !== null);
      const current = hit ?? moved;
      if (current) {
        if (moved) {
          candidates.splice(candidates.indexOf(moved), 1);
          nav.leaving.add(moved.id);
        }
        const fromRoot = current.section === null && m.sectionPath !== null;
        const note = moved ? `moves from section "${sectionPathById.get(moved.section!) ?? moved.section}"` : fromRoot ? 'moves from the root into its section' : undefined;
        updateSiteSpace(scope, key, s, current, note);
        list.push({ id: current.id, name, spaceId: t.id, incoming: moved !== undefined || fromRoot, isNew: false });
        continue;
      }
      const id = createSiteSpace(scope, key, s, t, m.container === ROOT ? undefined : m.container.slice('section:'.length), siblingSlugs);
      list.push({ id, name, spaceId: t.id, incoming: false, isNew: true });
      created.push(id);
    }
    nav.containers.set(m.container, list);
    nav.createdSiteSpaces.set(m.container, created);
  }
  pruneSiteSpaces(scope, nav, plans.flatMap((p) => p.here), matchedLive, [...candidates, ...unclaimedRoots]);
}

function updateSiteSpace(scope: SiteScope, key: string, s: SiteSpaceSpec, l: LiveSiteSpace, note?: string): void {
  const c = changedFields(s as unknown as Record<string, unknown>, l as unknown as Record<string, unknown>, ['path', 'condition']);
  if (c.changed.length === 0) return;
  push(scope, {
    kind: SITE_SPACE_KIND,
    key,
    suffix: 'update',
    action: 'update',
    phase: 'update',
    wave: WAVE.siteSpace,
    before: c.before,
    after: c.after,
    requests: [{ method: 'PATCH', path: `${base(scope)}/site-spaces/${seg(l.id)}`, body: c.after }],
    at: s.at,
    ...(note !== undefined ? { note } : {}),
  });
}

function createSiteSpace(scope: SiteScope, key: string, s: SiteSpaceSpec, t: SpaceTarget, sectionId: string | undefined, siblings: Set<string>): string {
  const id = stepId(SITE_SPACE_KIND, scope.org, key, 'create');
  const body: Record<string, unknown> = { spaceId: t.id };
  if (sectionId !== undefined) body['sectionId'] = sectionId;
  // Identity (section, space); a root site space has no section.
  const exclude = scope.live.siteSpaces.filter((x) => x.spaceId === t.id && x.section === (sectionId ?? null)).map((x) => x.id);
  const recover = { match: [{ field: 'space.id', body: '/spaceId' }, { field: 'section', body: '/sectionId' }], ...(exclude.length > 0 ? { exclude } : {}) };
  const requests: RequestSpec[] = [{ method: 'POST', path: `${base(scope)}/site-spaces`, body, capture: { id: 'id' }, recover }];
  const patch = siteSpacePatch(s, t, siblings);
  siblings.add(slug(t.title));
  if (Object.keys(patch).length > 0) requests.push({ method: 'PATCH', path: `${base(scope)}/site-spaces/${ref(id)}`, body: patch });
  const after: Record<string, unknown> = { space: s.space };
  if (s.path !== undefined) after['path'] = s.path;
  if (s.condition !== undefined) after['condition'] = s.condition;
  push(scope, { kind: SITE_SPACE_KIND, key, suffix: 'create', action: 'create', phase: 'create', wave: WAVE.siteSpace, before: null, after, requests, at: s.at, deps: t.deps });
  return ref(id);
}
