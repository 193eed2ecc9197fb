/**
 * Defaults of one site, all in the update phase so that a default never blocks a delete:
 * - a section whose default site space leaves it (deleted or moved) first gets another default (wave 34);
 * - after the reorder step, the site's default section (`defaultSection`, or the first section of the
 *   manifest when the current default is pruned) and default site space (wave 36).
 * The server's own choices are predicted (first section of a site, first site space of a section) so that a
 * default already right is not sent again; when they cannot be predicted (several sections created at once)
 * the written default is sent.
 */
import { seg } from '../common.js';
import { ROOT, inSection } from './layout.js';
import { SECTION_KIND, SITE_KIND, WAVE, sectionKey } from './model.js';
import type { DocPath } from '../../manifests/paths.js';
import { base, block, push, warn, type SiteScope } from './scope.js';
import type { Nav, NavSiteSpace } from './nav.js';

/** The desired site space the manifest names as the site default, if any. */
function wantedDefault(
  scope: SiteScope,
  nav: Nav,
): { container: string; section?: string; item: NavSiteSpace } | undefined {
  const d = scope.spec.defaultSiteSpace;
  if (!d) return undefined;
  const target = scope.space(d.space, scope.entry.doc.pos(['spec', 'defaultSiteSpace']));
  const section = d.section === undefined ? undefined : nav.sections.find((s) => s.path === d.section);
  const container = d.section === undefined ? ROOT : section ? inSection(section.id) : undefined;
  const item =
    container === undefined || !target
      ? undefined
      : nav.containers.get(container)?.find((x) => x.spaceId === target.id);
  if (item && container !== undefined)
    return { container, ...(d.section !== undefined ? { section: d.section } : {}), item };
  if (target && container !== undefined) {
    // The space exists but is not one of the container's: no request can make it the default.
    const where = d.section === undefined ? 'in the root spaces' : `in section "${d.section}"`;
    block(
      scope,
      ['spec', 'defaultSiteSpace'],
      `default site space "${d.space}" is not listed ${where}: list it there, or name one of its spaces`,
    );
  } else
    warn(
      scope,
      scope.title,
      `default site space "${d.space}" is not a site space of the manifest; default not managed`,
    );
  return undefined;
}

type Wanted = ReturnType<typeof wantedDefault>;

export function diffDefaults(scope: SiteScope, nav: Nav): void {
  const wanted = wantedDefault(scope, nav);
  diffSiteDefaults(scope, nav, wanted, diffSectionDefaults(scope, nav, wanted));
}

/**
 * Sections that keep existing but lose their default site space get a new one before it goes: one that stays
 * in it (wave 34), else one that moves in (the reorder step makes it the default as soon as it is there). A
 * pruned section whose default site space moves out gets another default too. Records each section's default
 * when the reorder step starts.
 */
function diffSectionDefaults(scope: SiteScope, nav: Nav, wanted: Wanted): Map<string, string> {
  const newDefault = new Map<string, string>();
  for (const s of nav.sections) {
    const container = inSection(s.id);
    if (!s.live) {
      const posted = nav.containers.get(container)?.find((x) => x.withSection);
      if (posted) nav.orderDefaults.set(container, posted.id);
      continue;
    }
    const current = scope.live.siteSpaces.find((x) => x.section === s.live!.id && x.default);
    if (current) nav.orderDefaults.set(container, current.id);
    if (!current || !nav.leaving.has(current.id)) continue;
    const all = nav.containers.get(container) ?? [];
    const list = all.filter((x) => !x.incoming);
    const wants = (x: NavSiteSpace | undefined): boolean =>
      x !== undefined && wanted?.section === s.path && wanted.item === x;
    if (list.length === 0) {
      // Which arrives first depends on the other sections' defaults: the reorder step decides (and the site's
      // default site space, when written, is then sent: see predictedDefaultSiteSpace).
      if (all.length > 0) nav.lateDefaults.add(container);
      continue;
    }
    const pick = list.find(wants) ?? list[0]!;
    newDefault.set(s.id, pick.id);
    nav.orderDefaults.set(container, pick.id);
    sectionDefaultStep(
      scope,
      sectionKey(scope.title, s.path),
      s.live.id,
      current.spaceTitle,
      pick.id,
      pick.name,
      'its default site space leaves it',
      s.spec.at,
    );
  }
  for (const [id, pick] of nav.prunedDefaults) {
    const section = scope.live.sections.find((x) => x.id === id)!;
    const current = scope.live.siteSpaces.find((x) => x.section === id && x.default)!;
    nav.orderDefaults.set(inSection(id), pick.id);
    sectionDefaultStep(
      scope,
      sectionKey(scope.liveTitle, section.path),
      id,
      current.spaceTitle,
      pick.id,
      pick.spaceTitle,
      'its default site space moves to another section before the section is deleted',
    );
  }
  return newDefault;
}

function sectionDefaultStep(
  scope: SiteScope,
  key: string,
  sectionId: string,
  before: string,
  pickId: string,
  pickName: string,
  note: string,
  at?: DocPath,
): void {
  push(scope, {
    kind: SECTION_KIND,
    key,
    suffix: 'default',
    action: 'update',
    phase: 'update',
    wave: WAVE.sectionDefault,
    before: { defaultSiteSpace: before },
    after: { defaultSiteSpace: pickName },
    requests: [
      { method: 'PATCH', path: `${base(scope)}/sections/${seg(sectionId)}`, body: { defaultSiteSpace: pickId } },
    ],
    ...(at ? { at } : {}),
    note,
  });
}

function diffSiteDefaults(
  scope: SiteScope,
  nav: Nav,
  wanted: Wanted,
  sectionDefaults: ReadonlyMap<string, string>,
): void {
  const { live, spec } = scope;
  const liveDefault = live.sections.find((s) => s.default);
  const wantedPath =
    spec.defaultSection ?? (liveDefault && nav.prunedSections.has(liveDefault.id) ? nav.sections[0]?.path : undefined);
  const onlyNew =
    live.sections.length === 0 && nav.createdSections.length === 1
      ? nav.sections.find((s) => s.id === nav.createdSections[0])
      : undefined;
  const predictedPath = liveDefault?.path ?? onlyNew?.path;
  const body: Record<string, unknown>[] = [];
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  let finalPath = predictedPath;
  if (wantedPath !== undefined && wantedPath !== predictedPath) {
    const target = nav.sections.find((s) => s.path === wantedPath);
    if (target) {
      body.push({ defaultSiteSection: target.id });
      before['defaultSection'] = predictedPath ?? null;
      after['defaultSection'] = wantedPath;
      finalPath = wantedPath;
    } else warn(scope, scope.title, `default section "${wantedPath}" does not exist; default section not changed`);
  }

  if (wanted) {
    if (wanted.section !== undefined && wanted.section !== finalPath) {
      const is =
        finalPath === undefined
          ? 'the default section is not known before apply (several sections are created at once)'
          : `the default section is "${finalPath}"`;
      block(
        scope,
        ['spec', 'defaultSiteSpace'],
        `default site space is in section "${wanted.section}", but ${is}, and the API sets the default site space of the default section only: add defaultSection: ${wanted.section}`,
      );
    } else {
      const predicted = predictedDefaultSiteSpace(scope, nav, wanted.container, sectionDefaults);
      if (predicted !== wanted.item.id) {
        body.push({ defaultSiteSpace: wanted.item.id });
        before['defaultSiteSpace'] = predicted === undefined ? null : (nameOf(nav, predicted) ?? predicted);
        after['defaultSiteSpace'] = wanted.item.name;
      }
    }
  }
  if (!wanted) rootDefaultLeaves(scope, nav, body, before, after);
  if (body.length === 0) return;
  push(scope, {
    kind: SITE_KIND,
    key: scope.title,
    suffix: 'defaults',
    action: 'update',
    phase: 'update',
    wave: WAVE.defaults,
    before,
    after,
    requests: body.map((b) => ({ method: 'PATCH' as const, path: base(scope), body: b })),
    at: [
      'spec',
      spec.defaultSection !== undefined
        ? 'defaultSection'
        : spec.defaultSiteSpace !== undefined
          ? 'defaultSiteSpace'
          : 'sections',
    ],
  });
}

/**
 * A site without sections whose default site space this plan deletes: the server refuses to delete it while
 * others remain, so the first root site space of the manifest becomes the default first.
 */
function rootDefaultLeaves(
  scope: SiteScope,
  nav: Nav,
  body: Record<string, unknown>[],
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): void {
  const current = scope.live.siteSpaces.find((x) => x.section === null && x.default);
  const next = nav.containers.get(ROOT)?.[0];
  if (!scope.spec.spaces || !current || !nav.leaving.has(current.id) || !next) return;
  body.push({ defaultSiteSpace: next.id });
  before['defaultSiteSpace'] = current.spaceTitle;
  after['defaultSiteSpace'] = next.name;
}

/** The default site space of a container after the earlier steps of the plan, when known. */
function predictedDefaultSiteSpace(
  scope: SiteScope,
  nav: Nav,
  container: string,
  sectionDefaults: ReadonlyMap<string, string>,
): string | undefined {
  const list = nav.containers.get(container) ?? [];
  if (container === ROOT) {
    const current = scope.live.siteSpaces.find((x) => x.section === null && x.default);
    if (current && !nav.leaving.has(current.id)) return current.id;
    return scope.live.siteSpaces.some((x) => x.section === null)
      ? undefined
      : list.filter((x) => x.isNew).length === 1
        ? list.find((x) => x.isNew)?.id
        : undefined;
  }
  const sectionId = container.slice('section:'.length);
  const fixed = sectionDefaults.get(sectionId);
  if (fixed !== undefined) return fixed;
  const section = nav.sections.find((s) => s.id === sectionId);
  if (!section?.live) return (list.find((x) => x.withSection) ?? list[0])?.id; // a new section: the site space its POST made
  const current = scope.live.siteSpaces.find((x) => x.section === sectionId && x.default);
  return current && !nav.leaving.has(current.id) ? current.id : undefined;
}

function nameOf(nav: Nav, id: string): string | undefined {
  for (const list of nav.containers.values()) for (const x of list) if (x.id === id) return x.name;
  return undefined;
}
