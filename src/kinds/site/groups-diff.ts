/**
 * Section groups of one site (only when the manifest writes `sectionGroups`): create with the member section
 * ids (which moves them in), PATCH the icon, membership changes of existing groups (leave: DELETE, which puts
 * the section right after the group; join: POST, which appends it), and prune. Leaving runs one wave before
 * joining so a section switching groups is never in two places.
 */
import { ref } from '../../model/refs.js';
import type { RequestSpec } from '../../model/plan.js';
import { changedFields, pick, seg, stepId } from '../common.js';
import { unmatchedLive } from '../unmatched.js';
import { recoverByTitle } from '../recover.js';
import { GROUP_KIND, WAVE, groupKey, type GroupSpec, type LiveGroup } from './model.js';
import { base, push, type SiteScope } from './scope.js';
import type { Nav } from './nav.js';

export interface GroupNav {
  managed: boolean;
  /** Desired group title → live id or ref. */
  ids: Map<string, string>;
  /** New groups (refs, created concurrently) → member section ids in order. */
  created: Map<string, string[]>;
  /** Live group id → sections leaving it, in request order. */
  leaves: Map<string, string[]>;
  /** Live group id → sections joining it, in request order. */
  joins: Map<string, string[]>;
  /** Section path → desired group title. */
  groupOf: Map<string, string>;
  /** Group ids → title (desired and live), for names. */
  titles: Map<string, string>;
}

export function diffGroups(scope: SiteScope, nav: Nav): GroupNav {
  const out: GroupNav = {
    managed: scope.spec.sectionGroups !== undefined,
    ids: new Map(),
    created: new Map(),
    leaves: new Map(),
    joins: new Map(),
    groupOf: new Map(),
    titles: new Map(),
  };
  for (const g of scope.live.groups) out.titles.set(g.id, g.title);
  if (!scope.spec.sectionGroups) return out;
  const liveByTitle = new Map(scope.live.groups.map((g) => [g.title, g]));
  const sectionId = new Map(nav.sections.map((s) => [s.path, s.id]));
  const newGroups = new Set<string>();

  for (const g of scope.spec.sectionGroups) {
    for (const p of g.sections) out.groupOf.set(p, g.title);
    const l = liveByTitle.get(g.title);
    if (l) {
      out.ids.set(g.title, l.id);
      updateGroup(scope, g, l);
      continue;
    }
    const members = g.sections.map((p) => sectionId.get(p)).filter((id): id is string => id !== undefined);
    const id = createGroup(scope, g, members);
    out.ids.set(g.title, id);
    out.titles.set(id, g.title);
    out.created.set(id, members);
    newGroups.add(id);
  }

  // Membership of sections that exist (or are created) and whose group changes.
  for (const s of nav.sections) {
    const title = out.groupOf.get(s.path);
    const target = title === undefined ? null : (out.ids.get(title) ?? null);
    const current = s.live?.group ?? null;
    if (target === current || (target !== null && newGroups.has(target))) continue;
    if (current !== null) out.leaves.set(current, [...(out.leaves.get(current) ?? []), s.id]);
    if (target !== null) out.joins.set(target, [...(out.joins.get(target) ?? []), s.id]);
  }
  membershipSteps(scope, nav, out);
  pruneGroups(scope);
  return out;
}

function createGroup(scope: SiteScope, g: GroupSpec, members: string[]): string {
  const key = groupKey(scope.title, g.title);
  const body: Record<string, unknown> = { title: g.title };
  if (typeof g.icon === 'string') body['icon'] = g.icon;
  body['sections'] = members;
  if (g.draft !== undefined) body['draft'] = g.draft;
  const id = stepId(GROUP_KIND, scope.org, key, 'create');
  // A localized title is set by a PATCH (the create takes none).
  const localized: RequestSpec[] = g.localizedTitle
    ? [
        {
          method: 'PATCH',
          path: `${base(scope)}/section-groups/${ref(id)}`,
          body: { localizedTitle: g.localizedTitle },
        },
      ]
    : [];
  const step = push(scope, {
    kind: GROUP_KIND,
    key,
    suffix: 'create',
    action: 'create',
    phase: 'create',
    wave: WAVE.group,
    before: null,
    after: { title: g.title, ...pick(g, GROUP_FIELDS), sections: g.sections },
    requests: [
      {
        method: 'POST',
        path: `${base(scope)}/section-groups`,
        body,
        capture: { id: 'id' },
        recover: recoverByTitle(scope.live.groups, g.title),
      },
      ...localized,
    ],
    at: g.at,
  });
  return ref(step.id);
}

/** A group's own fields compared one to one with the live group (its title is its identity). */
const GROUP_FIELDS = ['icon', 'draft', 'localizedTitle'] as const;

function updateGroup(scope: SiteScope, g: GroupSpec, l: LiveGroup): void {
  const c = changedFields(g, l, GROUP_FIELDS);
  if (c.changed.length === 0) return;
  push(scope, {
    kind: GROUP_KIND,
    key: groupKey(scope.title, g.title),
    suffix: 'update',
    action: 'update',
    phase: 'update',
    wave: WAVE.ungroup,
    before: c.before,
    after: c.after,
    requests: [{ method: 'PATCH', path: `${base(scope)}/section-groups/${seg(l.id)}`, body: c.after }],
    at: g.at,
  });
}

function membershipSteps(scope: SiteScope, nav: Nav, out: GroupNav): void {
  const pathOf = new Map(nav.sections.map((s) => [s.id, s.path]));
  const spec = new Map((scope.spec.sectionGroups ?? []).map((g) => [g.title, g]));
  /** Section id → the step taking it out of its old group. */
  const leftBy = new Map<string, string>();
  for (const [groupId, sections] of out.leaves) {
    const title = out.titles.get(groupId) ?? groupId;
    const desired = spec.get(title);
    const step = push(scope, {
      kind: GROUP_KIND,
      key: groupKey(desired ? scope.title : scope.liveTitle, title),
      suffix: 'leave',
      action: 'update',
      phase: 'update',
      wave: WAVE.ungroup,
      before: { sections: sections.map((s) => pathOf.get(s)) },
      after: { sections: null },
      requests: sections.map((s) => ({
        method: 'DELETE' as const,
        path: `${base(scope)}/section-groups/${seg(groupId)}/sections/${seg(s)}`,
      })),
      ...(desired ? { at: desired.at } : {}),
      note: 'sections leave the group',
    });
    for (const s of sections) leftBy.set(s, step.id);
  }
  for (const [groupId, sections] of out.joins) {
    const title = out.titles.get(groupId) ?? groupId;
    const desired = spec.get(title);
    push(scope, {
      kind: GROUP_KIND,
      key: groupKey(scope.title, title),
      suffix: 'join',
      action: 'update',
      phase: 'update',
      wave: WAVE.groupAdd,
      before: { sections: null },
      after: { sections: sections.map((s) => pathOf.get(s)) },
      requests: sections.map((s) => ({
        method: 'POST' as const,
        path: `${base(scope)}/section-groups/${seg(groupId)}/sections`,
        body: { sectionId: s },
        idempotent: true as const,
      })),
      ...(desired ? { at: desired.at } : {}),
      deps: sections.flatMap((s) => (leftBy.has(s) ? [leftBy.get(s)!] : [])),
      note: 'sections join the group',
    });
  }
}

function pruneGroups(scope: SiteScope): void {
  const wanted = new Set((scope.spec.sectionGroups ?? []).map((g) => g.title));
  unmatchedLive(scope.result, {
    kind: GROUP_KIND,
    org: scope.org,
    prune: scope.prune,
    objects: scope.live.groups.filter((g) => !wanted.has(g.title)),
    key: (g) => groupKey(scope.liveTitle, g.title),
    wave: () => WAVE.pruneGroup,
    path: (g) => `${base(scope)}/section-groups/${seg(g.id)}`,
    before: (g) => ({ title: g.title, icon: g.icon }),
    note: 'its sections return to the top level',
  });
}
