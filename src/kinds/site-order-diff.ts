/**
 * The reorder step of one site: predict the navigation after the creates and membership changes of this plan
 * (site-layout.ts), then one step with the minimal sequential move requests per container (site-moves.ts):
 * top-level items, sections inside each group, site spaces inside each section (a space that changes section
 * is moved next to a site space of its new section) or at the root.
 */
import type { RequestSpec } from '../core/plan.js';
import { seg } from './common.js';
import type { GroupNav } from './site-groups-diff.js';
import { Layout, ROOT, TOP, inGroup, inSection } from './site-layout.js';
import { SITE_KIND, WAVE, type SiteStructure } from './site-model.js';
import { planMoves, planTopLevelMoves, type Move } from './site-moves.js';
import { base, push, warn, type SiteScope } from './site-scope.js';
import type { Nav } from './site-sections-diff.js';

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
  const only = nav.createdSections.length === 1 && scope.live.sections.length === 0 ? nav.createdSections[0] : undefined;
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
  const names = new Map<string, string>();
  for (const s of nav.sections) names.set(s.id, s.path);
  for (const [id, title] of groups.titles) names.set(id, `group ${title}`);
  for (const list of nav.containers.values()) for (const x of list) names.set(x.id, x.name);

  const containers: Container[] = [];
  const sectionsIn = (container: string): string[] => nav.sections.map((s) => s.id).filter((id) => layout.containerOf(id) === container);

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
  containers.push({ name: 'sections', slots: TOP, desired: top, moves: planTopLevelMoves(layout.slots(TOP), top, isGroup) });

  const groupIds = groups.managed ? [...groups.ids.values()] : scope.live.groups.map((g) => g.id);
  for (const g of groupIds) {
    const desired = groups.managed
      ? (scope.spec.sectionGroups ?? []).find((x) => x.title === groups.titles.get(g))!.sections.map((p) => nav.sections.find((s) => s.path === p)?.id).filter((id): id is string => id !== undefined)
      : sectionsIn(inGroup(g));
    containers.push({ name: `group ${groups.titles.get(g) ?? g}`, slots: inGroup(g), desired, moves: planMoves(layout.slots(inGroup(g)), desired) });
  }
  for (const [container, list] of nav.containers) {
    const desired = list.map((x) => x.id);
    const name = container === ROOT ? 'root spaces' : `section ${names.get(container.slice('section:'.length)) ?? container}`;
    containers.push({ name, slots: container, desired, moves: planMoves(layout.slots(container), desired) });
  }

  const requests: RequestSpec[] = [];
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const c of containers) {
    if (!c.moves) {
      warn(scope, scope.title, `cannot order ${c.name} with move operations; left as it is`);
      continue;
    }
    if (c.moves.length === 0) continue;
    before[c.name] = layout.flat(c.slots).filter((id) => c.desired.includes(id)).map((id) => names.get(id) ?? id);
    after[c.name] = c.desired.map((id) => names.get(id) ?? id);
    for (const m of c.moves) requests.push(moveRequest(scope, m, sectionIds, isGroup));
  }
  if (requests.length === 0) return;
  push(scope, {
    kind: SITE_KIND,
    key: scope.title,
    suffix: 'order',
    action: 'update',
    phase: 'update',
    wave: WAVE.order,
    before: { navigation: before },
    after: { navigation: after },
    requests,
    at: ['spec', scope.spec.sections ? 'sections' : 'spaces'],
    note: `${requests.length} move${requests.length === 1 ? '' : 's'}`,
  });
}

function moveRequest(scope: SiteScope, m: Move, sections: ReadonlySet<string>, isGroup: (id: string) => boolean): RequestSpec {
  const at = m.position;
  if (isGroup(m.item)) {
    return { method: 'POST', path: `${base(scope)}/section-groups/${seg(m.item)}/move`, body: { position: { [at]: { type: 'site-section', id: m.anchor } } } };
  }
  if (sections.has(m.item)) {
    return { method: 'POST', path: `${base(scope)}/sections/${seg(m.item)}/move`, body: { position: { [at]: { type: 'site-section', siteSection: m.anchor } } } };
  }
  return { method: 'POST', path: `${base(scope)}/site-spaces/${seg(m.item)}/move`, body: { position: { [at]: { type: 'site-space', siteSpace: m.anchor } } } };
}
