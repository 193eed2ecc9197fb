/**
 * The reorder step of one site: predict the navigation after the creates and membership changes of this plan
 * (layout.ts), then one step with the minimal sequential move requests per container (moves.ts):
 * top-level items, sections inside each group, site spaces inside each section (a space that changes section
 * is moved next to a site space of its new section) or at the root. A move among siblings is the official
 * `PATCH …/structure/sort`; only a site space that changes section uses the deprecated `…/site-spaces/{id}/move`
 * (the sort never changes an item's container), see sort-requests.ts.
 */
import type { RequestSpec } from '../../model/plan.js';
import { isRecord, seg } from '../common.js';
import type { GroupNav } from './groups-diff.js';
import { Layout, ROOT, TOP, inGroup, inSection } from './layout.js';
import { sequenceSiteSpaces, type Action as SequenceAction } from './sequence.js';
import { SITE_KIND, WAVE, type SiteStructure } from './model.js';
import { planMoves, type Move } from './moves.js';
import { base, block, push, type SiteScope } from './scope.js';
import { siteSpaceMoveRequest, sortRequest, type StructureType } from './sort-requests.js';
import type { Nav } from './nav.js';

const EMPTY: SiteStructure = { sections: [], groups: [], siteSpaces: [] };

/** The predicted layout just before the reorder step. */
export function predictLayout(scope: SiteScope, nav: Nav, groups: GroupNav): Layout {
  const layout = Layout.fromLive(scope.isNew ? EMPTY : scope.live);
  layout.appendConcurrent(TOP, nav.createdSections);
  for (const s of nav.sections) {
    if (s.live) continue;
    const first = nav.containers.get(inSection(s.id))?.find((x) => x.withSection);
    if (first) layout.append(inSection(s.id), first.id);
  }
  // The site's first section receives its root site spaces after its own (contract). With several sections
  // created at once which one is unknown: the root site spaces then stay predicted at the root (all moved).
  const only =
    nav.createdSections.length === 1 && scope.live.sections.length === 0 ? nav.createdSections[0] : undefined;
  if (only !== undefined && !scope.isNew) {
    for (const id of layout.flat(ROOT)) {
      layout.remove(id);
      layout.append(inSection(only), id);
    }
  }
  for (const [container, created] of nav.createdSiteSpaces) layout.appendConcurrent(container, created);
  for (const [group, members] of groups.created) {
    for (const m of members) {
      layout.remove(m);
      layout.append(inGroup(group), m);
    }
  }
  layout.appendConcurrent(TOP, [...groups.created.keys()]);
  for (const [group, sections] of groups.leaves) {
    for (const s of sections) {
      layout.remove(s);
      layout.insertAfter(TOP, group, s);
    }
  }
  for (const [group, sections] of groups.joins) {
    for (const s of sections) {
      layout.remove(s);
      layout.append(inGroup(group), s);
    }
  }
  return layout;
}

interface Container {
  name: string;
  slots: string;
  desired: string[];
  moves: Move[] | undefined;
}

export function diffOrder(scope: SiteScope, nav: Nav, groups: GroupNav): void {
  const layout = predictLayout(scope, nav, groups);
  const sectionIds = new Set(nav.sections.map((s) => s.id));
  const isGroup = (id: string): boolean => groups.titles.has(id);
  const typeOf = (id: string): StructureType =>
    isGroup(id) ? 'site-section-group' : sectionIds.has(id) ? 'site-section' : 'site-space';
  const names = itemNames(scope, nav, groups);
  const nameOf = (id: string): string => names.get(id) ?? id;
  const containerName = (container: string): string =>
    container === ROOT ? 'root spaces' : `section ${names.get(container.slice('section:'.length)) ?? container}`;

  const requests: RequestSpec[] = [];
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const navBefore: Record<string, unknown> = {};
  const navAfter: Record<string, unknown> = {};
  const shown = (c: { name: string; slots: string; desired: readonly string[] }): void => {
    navBefore[c.name] = layout
      .flat(c.slots)
      .filter((id) => c.desired.includes(id))
      .map(nameOf);
    navAfter[c.name] = c.desired.map(nameOf);
  };

  for (const c of sectionContainers(scope, nav, groups, layout)) {
    if (!c.moves) {
      block(
        scope,
        ['spec', 'sections'],
        `cannot order ${c.name}: none of its items is in place to sort the others next to; order it by hand`,
      );
      continue;
    }
    if (c.moves.length === 0) continue;
    shown(c);
    for (const m of c.moves) requests.push(sortRequest(scope, m, typeOf));
  }

  const doomed = new Set(
    [...nav.leaving].filter((id) => ![...nav.containers.values()].some((list) => list.some((x) => x.id === id))),
  );
  const seq = sequenceSiteSpaces({
    layout,
    desired: new Map([...nav.containers].map(([c, list]) => [c, list.map((x) => x.id)])),
    defaults: nav.orderDefaults,
    lateDefaults: nav.lateDefaults,
    paths: nav.paths,
    doomed,
    floating: nav.floating,
    name: nameOf,
  });
  if ('error' in seq) {
    block(scope, seq.at ?? ['spec', scope.spec.sections ? 'sections' : 'spaces'], seq.error);
    return;
  }
  const moved = new Set(seq.actions.flatMap((a) => (a.type === 'move' ? [a.container] : [])));
  for (const [c, list] of nav.containers)
    if (moved.has(c)) shown({ name: containerName(c), slots: c, desired: list.map((x) => x.id) });
  const moves = requests.length + seq.actions.filter((a) => a.type === 'move').length;
  const extra = sequenceRequests(scope, seq.actions, { requests, before, after }, { typeOf, nameOf, names });
  if (requests.length === 0) return;
  if (Object.keys(navAfter).length > 0) {
    before['navigation'] = navBefore;
    after['navigation'] = navAfter;
  }
  pushOrderStep(scope, { before, after, requests }, moves, extra);
}

/** The site's one `#order` step, its note counting the moves, section defaults and path changes. */
function pushOrderStep(
  scope: SiteScope,
  change: { before: Record<string, unknown>; after: Record<string, unknown>; requests: RequestSpec[] },
  moves: number,
  extra: readonly string[],
): void {
  const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
  const notes = [
    moves > 0 ? count(moves, 'move') : '',
    ...['default', 'path']
      .map((k) => extra.filter((x) => x === k).length)
      .map((n, i) => (n > 0 ? count(n, i === 0 ? 'section default' : 'path change') : '')),
  ].filter(Boolean);
  push(scope, {
    kind: SITE_KIND,
    key: scope.title,
    suffix: 'order',
    action: 'update',
    phase: 'update',
    wave: WAVE.order,
    ...change,
    at: ['spec', scope.spec.sections ? 'sections' : 'spaces'],
    note: notes.join(', '),
  });
}

/** What the plan calls each item of the site's navigation: sections by path, groups and site spaces by what they show. */
function itemNames(scope: SiteScope, nav: Nav, groups: GroupNav): Map<string, string> {
  const names = new Map<string, string>();
  for (const s of nav.sections) names.set(s.id, s.path);
  for (const [id, title] of groups.titles) names.set(id, `group ${title}`);
  const sectionPath = new Map(scope.live.sections.map((s) => [s.id, s.path]));
  for (const x of scope.live.siteSpaces)
    names.set(
      x.id,
      `site space ${x.id} ("${x.spaceTitle}"${x.section === null ? '' : ` in section "${sectionPath.get(x.section) ?? x.section}"`})`,
    );
  for (const list of nav.containers.values()) for (const x of list) names.set(x.id, x.name);
  return names;
}

/** before/after of one changed value under `group` (the first `from` and the last `to` of a key). */
function record(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  group: string,
  key: string,
  from: unknown,
  to: unknown,
): void {
  const b = groupOf(before, group);
  const a = groupOf(after, group);
  if (!(key in b)) b[key] = from;
  a[key] = to;
}

/** The record under `group` (only `record` writes there), made on first use. */
function groupOf(values: Record<string, unknown>, group: string): Record<string, unknown> {
  const have = values[group];
  if (isRecord(have)) return have;
  const made: Record<string, unknown> = {};
  values[group] = made;
  return made;
}

/** Top level and groups: the fewest moves each (undefined when no item is in place to anchor on). */
function sectionContainers(scope: SiteScope, nav: Nav, groups: GroupNav, layout: Layout): Container[] {
  const containers: Container[] = [];
  const sectionsIn = (container: string): string[] =>
    nav.sections.map((s) => s.id).filter((id) => layout.containerOf(id) === container);
  // Top level: groups sit where their first member is written in `sections`.
  let top: string[];
  if (groups.managed) {
    const seen = new Set<string>();
    top = [];
    for (const s of nav.sections) {
      const title = groups.groupOf.get(s.path);
      const g = title === undefined ? undefined : groups.ids.get(title);
      const item = g ?? s.id;
      if (!seen.has(item)) top.push(item);
      seen.add(item);
    }
  } else top = sectionsIn(TOP);
  containers.push({ name: 'sections', slots: TOP, desired: top, moves: planMoves(layout.slots(TOP), top) });

  const groupIds = groups.managed ? [...groups.ids.values()] : scope.live.groups.map((g) => g.id);
  for (const g of groupIds) {
    const desired = groups.managed
      ? (scope.spec.sectionGroups ?? [])
          .find((x) => x.title === groups.titles.get(g))!
          .sections.map((p) => nav.sections.find((s) => s.path === p)?.id)
          .filter((id): id is string => id !== undefined)
      : sectionsIn(inGroup(g));
    containers.push({
      name: `group ${groups.titles.get(g) ?? g}`,
      slots: inGroup(g),
      desired,
      moves: planMoves(layout.slots(inGroup(g)), desired),
    });
  }
  return containers;
}

/**
 * The requests of the site spaces' sequence (moves, section defaults, path changes), appended to `out` in its
 * order with their before/after; the kinds of the other changes, for the step's note.
 */
function sequenceRequests(
  scope: SiteScope,
  actions: readonly SequenceAction[],
  out: { requests: RequestSpec[]; before: Record<string, unknown>; after: Record<string, unknown> },
  n: { typeOf: (id: string) => StructureType; nameOf: (id: string) => string; names: ReadonlyMap<string, string> },
): string[] {
  const { requests, before, after } = out;
  const { nameOf } = n;
  const extra: string[] = [];
  for (const a of actions) {
    if (a.type === 'move') {
      requests.push(a.within ? sortRequest(scope, a.move, n.typeOf) : siteSpaceMoveRequest(scope, a.move));
    } else if (a.type === 'default') {
      const section = a.container.slice('section:'.length);
      requests.push({
        method: 'PATCH',
        path: `${base(scope)}/sections/${seg(section)}`,
        body: { defaultSiteSpace: a.item },
      });
      const was = scope.live.siteSpaces.find((x) => x.section === section && x.default)?.id ?? '';
      record(before, after, 'sectionDefaults', n.names.get(section) ?? a.container, nameOf(was), nameOf(a.item));
      extra.push('default');
    } else {
      requests.push({ method: 'PATCH', path: `${base(scope)}/site-spaces/${seg(a.item)}`, body: { path: a.path } });
      record(before, after, 'paths', nameOf(a.item), a.from ?? null, a.path);
      extra.push('path');
    }
  }
  return extra;
}
