/**
 * Defaults of one site, all in the update phase so that a default never blocks a delete:
 * - a section whose default site space leaves it (deleted or moved) first gets another default (wave 34);
 * - after the reorder step, the site's default section (`defaultSection`, or the first section of the
 *   manifest when the current default is pruned) and default site space (wave 36).
 * The server's own choices are predicted (first section of a site, first site space of a section) so that a
 * default already right is not sent again; when they cannot be predicted (several sections created at once)
 * the written default is sent.
 */
import { seg } from './common.js';
import { ROOT, inSection } from './site-layout.js';
import { SECTION_KIND, SITE_KIND, WAVE, sectionKey } from './site-model.js';
import { base, push, warn, type SiteScope } from './site-scope.js';
import type { Nav, NavSiteSpace } from './site-sections-diff.js';

/** The desired site space the manifest names as the site default, if any. */
function wantedDefault(scope: SiteScope, nav: Nav): { container: string; section?: string; item: NavSiteSpace } | undefined {
  const d = scope.spec.defaultSiteSpace;
  if (!d) return undefined;
  const target = scope.space(d.space, scope.entry.doc.pos(['spec', 'defaultSiteSpace']));
  const section = d.section === undefined ? undefined : nav.sections.find((s) => s.path === d.section);
  const container = d.section === undefined ? ROOT : section ? inSection(section.id) : undefined;
  const item = container === undefined || !target ? undefined : nav.containers.get(container)?.find((x) => x.spaceId === target.id);
  if (!item || container === undefined) {
    warn(scope, scope.title, `default site space "${d.space}" is not a site space of the manifest; default not managed`);
    return undefined;
  }
  return { container, ...(d.section !== undefined ? { section: d.section } : {}), item };
}

type Wanted = ReturnType<typeof wantedDefault>;

export function diffDefaults(scope: SiteScope, nav: Nav): void {
  const wanted = wantedDefault(scope, nav);
  diffSiteDefaults(scope, nav, wanted, diffSectionDefaults(scope, nav, wanted));
}

/** Sections that keep existing but lose their default site space get a new one before it goes. */
function diffSectionDefaults(scope: SiteScope, nav: Nav, wanted: Wanted): Map<string, string> {
  const newDefault = new Map<string, string>();
  for (const s of nav.sections) {
    if (!s.live) continue;
    const current = scope.live.siteSpaces.find((x) => x.section === s.live!.id && x.default);
    if (!current || !nav.leaving.has(current.id)) continue;
    const list = (nav.containers.get(inSection(s.id)) ?? []).filter((x) => !x.incoming);
    const pick = wanted && wanted.section === s.path && !wanted.item.incoming ? wanted.item : list[0];
    if (!pick) continue;
    newDefault.set(s.id, pick.id);
    push(scope, {
      kind: SECTION_KIND,
      key: sectionKey(scope.title, s.path),
      suffix: 'default',
      action: 'update',
      phase: 'update',
      wave: WAVE.sectionDefault,
      before: { defaultSiteSpace: current.spaceTitle },
      after: { defaultSiteSpace: pick.name },
      requests: [{ method: 'PATCH', path: `${base(scope)}/sections/${seg(s.live.id)}`, body: { defaultSiteSpace: pick.id } }],
      at: s.spec.at,
      note: 'its default site space leaves it',
    });
  }
  return newDefault;
}

function diffSiteDefaults(scope: SiteScope, nav: Nav, wanted: Wanted, sectionDefaults: ReadonlyMap<string, string>): void {
  const { live, spec } = scope;
  const liveDefault = live.sections.find((s) => s.default);
  const wantedPath = spec.defaultSection ?? (liveDefault && nav.prunedSections.has(liveDefault.id) ? nav.sections[0]?.path : undefined);
  const onlyNew = live.sections.length === 0 && nav.createdSections.length === 1 ? nav.sections.find((s) => s.id === nav.createdSections[0]) : undefined;
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
      warn(scope, scope.title, `default site space is in section "${wanted.section}", which is not the default section; not changed`);
    } else {
      const predicted = predictedDefaultSiteSpace(scope, nav, wanted.container, sectionDefaults);
      if (predicted !== wanted.item.id) {
        body.push({ defaultSiteSpace: wanted.item.id });
        before['defaultSiteSpace'] = predicted === undefined ? null : (nameOf(nav, predicted) ?? predicted);
        after['defaultSiteSpace'] = wanted.item.name;
      }
    }
  }
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
    at: ['spec', spec.defaultSection !== undefined ? 'defaultSection' : spec.defaultSiteSpace !== undefined ? 'defaultSiteSpace' : 'sections'],
  });
}

/** The default site space of a container after the earlier steps of the plan, when known. */
function predictedDefaultSiteSpace(scope: SiteScope, nav: Nav, container: string, sectionDefaults: ReadonlyMap<string, string>): string | undefined {
  const list = nav.containers.get(container) ?? [];
  if (container === ROOT) {
    const current = scope.live.siteSpaces.find((x) => x.section === null && x.default);
    if (current && !nav.leaving.has(current.id)) return current.id;
    return scope.live.siteSpaces.some((x) => x.section === null) ? undefined : list.filter((x) => x.isNew).length === 1 ? list.find((x) => x.isNew)?.id : undefined;
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
