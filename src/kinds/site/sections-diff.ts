/**
 * Sections and site spaces of one site: match by path / (section, space), create (a section is created with
 * its first space, capturing the section id and its first site space id; further site spaces are created in
 * it), update changed fields, pair a space that leaves one section for another into a move (done by the
 * reorder step), and prune what the manifest no longer lists. The result (`Nav`) tells the group, order and
 * default parts which ids and refs stand for what.
 *
 * Root site spaces and a site's first section (root-spaces.ts): each root site space the manifest lists
 * in a new section is taken over (the reorder step moves it next to the site spaces of its section, wherever
 * the server put it), except the one a section of only root spaces must be POSTed with: that one is replaced.
 * Root site spaces listed nowhere stay in the section the server put them in (unmanaged, or deleted under
 * prune). The plan warns about it.
 */
import type { RequestSpec } from '../../model/plan.js';
import { ref } from '../../model/refs.js';
import { changedFields, seg, stepId } from '../common.js';
import { unmatchedLive } from '../unmatched.js';
import {
  SECTION_KIND,
  WAVE,
  sectionKey,
  slug,
  type LiveSection,
  type LiveSiteSpace,
  type SectionSpec,
  type SiteSpaceSpec,
} from './model.js';
import type { Nav } from './nav.js';
import { uniquePath } from './paths.js';
import { claimRoots, postedSpace, replaceRoot, replacementCondition, warnRootsMove } from './root-spaces.js';
import { base, block, push, warn, where, type SiteScope } from './scope.js';
import type { SpaceTarget } from './space-ref.js';
import { siteSpacePatch } from './site-space-steps.js';
import { diffSiteSpaces } from './spaces-diff.js';

const SECTION_FIELDS = [
  'title',
  'icon',
  'description',
  'condition',
  'draft',
  'localizedTitle',
  'localizedDescription',
] as const;

export function diffSections(scope: SiteScope): Nav {
  const { spec, live } = scope;
  const nav: Nav = {
    sections: [],
    containers: new Map(),
    createdSections: [],
    createdSiteSpaces: new Map(),
    prunedSections: new Set(),
    leaving: new Set(),
    rootClaims: new Map(),
    paths: new Map(),
    floating: new Set(),
    prunedDefaults: new Map(),
    orderDefaults: new Map(),
    lateDefaults: new Set(),
  };
  const liveByPath = new Map(live.sections.map((s) => [s.path, s]));
  const resolved = spaceTargets(scope);
  const newBases = newSectionBases(spec.sections ?? [], liveByPath);

  if (spec.spaces && live.sections.length > 0) {
    // Root site spaces exist only on a site without sections, and no request removes its last (default) section.
    const paths = live.sections.map((s) => `"${s.path}"`).join(', ');
    block(
      scope,
      ['spec', 'spaces'],
      `the site has sections (${paths}) and a site with sections cannot go back to root spaces (its default section cannot be deleted): list these spaces in sections instead`,
    );
  }
  const roots = live.sections.length === 0 && spec.sections ? live.siteSpaces.filter((x) => x.section === null) : [];
  const rootPaths = new Set(roots.map((x) => x.path));
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
    if (!posted)
      throw new Error(
        `internal: section "${d.path}" (${where(scope, d.at)}) of site "${scope.title}" has no space to be created with`,
      );
    const { first, replaces } = posted;
    nav.rootClaims.delete(first.s);
    const created = createSection(
      scope,
      d,
      first,
      liveByPath,
      (newBases.get(slug(d.title ?? first.t.title)) ?? 0) > 1,
      rootPaths,
      replaces,
    );
    nav.sections.push({ path: d.path, id: created, spec: d, posted: first.s, ...(replaces ? { replaces } : {}) });
    nav.createdSections.push(created);
    if (replaces) {
      replaceRoot(scope, d, first, replaces);
      nav.leaving.add(replaces.id);
    }
  }
  if (spec.sections) pruneSections(scope, nav);
  const replaced = nav.sections.flatMap((s) => (s.replaces ? [s.replaces] : []));
  const kept = new Set([...nav.rootClaims.values(), ...replaced]);
  const unclaimed = nav.createdSections.length > 0 ? roots.filter((x) => !kept.has(x)) : [];
  if (nav.createdSections.length > 0 && roots.length > 0) warnRootsMove(scope, roots, unclaimed, replaced);
  diffSiteSpaces(scope, nav, resolved, unclaimed);
  return nav;
}

function updateSection(scope: SiteScope, d: SectionSpec, l: LiveSection): void {
  const c = changedFields(d, l, SECTION_FIELDS);
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
function createSection(
  scope: SiteScope,
  d: SectionSpec,
  first: { s: SiteSpaceSpec; t: SpaceTarget },
  liveByPath: ReadonlyMap<string, LiveSection>,
  clash: boolean,
  rootPaths: ReadonlySet<string>,
  replaces?: LiveSiteSpace,
): string {
  const key = sectionKey(scope.title, d.path);
  const id = stepId(SECTION_KIND, scope.org, key, 'create');
  const post: Record<string, unknown> = { spaceId: first.t.id };
  if (d.title !== undefined) post['title'] = d.title;
  if (typeof d.icon === 'string') post['icon'] = d.icon;
  if (d.draft !== undefined) post['draft'] = d.draft;
  const derived = uniquePath(slug(d.title ?? first.t.title), new Set(liveByPath.keys()));
  // Found again by the path the server derives (unique among live sections) and its first space.
  const recover = {
    match: [
      { field: 'path', value: derived },
      { field: 'siteSpaces.0.space.id', body: '/spaceId' },
    ],
  };
  const requests: RequestSpec[] = [
    {
      method: 'POST',
      path: `${base(scope)}/sections`,
      body: post,
      capture: { id: 'id', firstSiteSpace: 'siteSpaces.0.id' },
      recover,
    },
  ];
  const patch: Record<string, unknown> = {};
  if (clash || derived !== d.path) patch['path'] = d.path;
  if (typeof d.description === 'string') patch['description'] = d.description;
  if (typeof d.condition === 'string') patch['condition'] = d.condition;
  for (const k of ['localizedTitle', 'localizedDescription'] as const) if (d[k] !== undefined) patch[k] = d[k];
  if (Object.keys(patch).length > 0)
    requests.push({ method: 'PATCH', path: `${base(scope)}/sections/${ref(id)}`, body: patch });
  const condition = replaces ? replacementCondition(first.s, replaces) : undefined;
  // A path a root site space holds (the first section receives them) is set by the reorder step instead.
  const flags = {
    ...(first.s.hidden !== undefined ? { hidden: first.s.hidden } : {}),
    ...(first.s.draft !== undefined ? { draft: first.s.draft } : {}),
  };
  const ssPatch = replaces
    ? { ...(condition !== undefined ? { condition } : {}), ...flags }
    : siteSpacePatch(first.s, first.t, rootPaths);
  if (Object.keys(ssPatch).length > 0)
    requests.push({ method: 'PATCH', path: `${base(scope)}/site-spaces/${ref(id, 'firstSiteSpace')}`, body: ssPatch });
  const after: Record<string, unknown> = { path: d.path };
  for (const f of SECTION_FIELDS) if (d[f] !== undefined) after[f] = d[f];
  after['spaces'] = [first.s.space];
  push(scope, {
    kind: SECTION_KIND,
    key,
    suffix: 'create',
    action: 'create',
    phase: 'create',
    wave: WAVE.section,
    before: null,
    after,
    requests,
    at: d.at,
    deps: first.t.deps,
  });
  return ref(id);
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

/**
 * Each space reference resolved, once, though sections and site spaces both ask. A site with a reference that
 * resolves to nothing never gets here: the site diff blocks it first (blockUnresolvedSpaces).
 */
function spaceTargets(scope: SiteScope): (list: SiteSpaceSpec[]) => { s: SiteSpaceSpec; t: SpaceTarget }[] {
  const memo = new Map<SiteSpaceSpec, SpaceTarget | undefined>();
  const target = (s: SiteSpaceSpec): SpaceTarget | undefined => {
    if (!memo.has(s)) {
      const t = scope.space(s.space, scope.entry.doc.pos(s.at));
      if (!t)
        throw new Error(
          `internal: space "${s.space}" (${where(scope, s.at)}) resolves to nothing, but its site was not blocked`,
        );
      memo.set(s, t);
    }
    return memo.get(s);
  };
  return (list) =>
    list.flatMap((s) => {
      const t = target(s);
      return t ? [{ s, t }] : [];
    });
}

/** How many new sections derive each path base: those that clash are unpredictable (concurrent creates). */
function newSectionBases(
  sections: readonly { path: string; title?: string | undefined }[],
  liveByPath: ReadonlyMap<string, unknown>,
): Map<string, number> {
  const newBases = new Map<string, number>();
  for (const d of sections) {
    if (liveByPath.has(d.path)) continue;
    const b = slug(d.title ?? '');
    if (b) newBases.set(b, (newBases.get(b) ?? 0) + 1);
  }
  return newBases;
}
