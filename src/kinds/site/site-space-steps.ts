/**
 * The steps of one site space (spaces-diff.ts decides which, and which path each may set before the reorder
 * step): update its condition, flags and path; re-point it to another space; create it; and the patch a new
 * section's first site space needs after the section's create.
 */
import type { RequestSpec } from '../../model/plan.js';
import { ref } from '../../model/refs.js';
import { changedFields, seg, stepId } from '../common.js';
import { SITE_SPACE_KIND, WAVE, slug, type LiveSiteSpace, type SiteSpaceSpec } from './model.js';
import { base, push, type SiteScope } from './scope.js';
import type { Want } from './space-assign.js';
import type { SpaceTarget } from './space-ref.js';

/** A site space's flags (official spec): hidden from the navigation, a draft. */
const FLAGS = ['hidden', 'draft'] as const;
/** Compared one to one with the live site space (its path is the reorder step's business). */
const SITE_SPACE_FIELDS = ['condition', ...FLAGS] as const;

/** The condition where it differs, and `path` when given (decided by the caller: see the file comment). */
export function updateSiteSpace(
  scope: SiteScope,
  key: string,
  s: SiteSpaceSpec,
  l: LiveSiteSpace,
  path: string | undefined,
  note?: string,
): void {
  const c = changedFields(s, l, SITE_SPACE_FIELDS);
  if (path !== undefined) {
    c.before = { path: l.path, ...c.before };
    c.after = { path, ...c.after };
    c.changed.unshift('path');
  }
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

/**
 * The site space stays where it is and shows another space (PATCH spaceId): what a move would have done, with
 * the condition the moved one had unless one is written (its path: set here or by the reorder step).
 */
export function repointSiteSpace(scope: SiteScope, key: string, w: Want, path: string | undefined, name: string): void {
  const l = w.live!;
  const from = w.carried!;
  const body: Record<string, unknown> = { spaceId: w.t.id };
  if (path !== undefined) body['path'] = path;
  const condition = w.s.condition !== undefined ? w.s.condition : from.condition;
  if (condition !== l.condition) body['condition'] = condition;
  for (const f of FLAGS) if (w.s[f] !== undefined && w.s[f] !== l[f]) body[f] = w.s[f];
  push(scope, {
    kind: SITE_SPACE_KIND,
    key,
    suffix: 'update',
    action: 'update',
    phase: 'update',
    wave: WAVE.siteSpace,
    before: { space: l.spaceTitle, path: l.path, condition: l.condition },
    after: { space: w.s.space, ...(path !== undefined ? { path } : {}), condition },
    requests: [{ method: 'PATCH', path: `${base(scope)}/site-spaces/${seg(l.id)}`, body }],
    at: w.s.at,
    deps: w.t.deps,
    note: `${name}: site space ${l.id} shows this space instead of "${l.spaceTitle}" (the sections trade their only site spaces, which no sequence of moves can do)`,
  });
}

export function createSiteSpace(
  scope: SiteScope,
  key: string,
  w: Want,
  sectionId: string | undefined,
  path: string | undefined,
): string {
  const { s, t } = w;
  const id = stepId(SITE_SPACE_KIND, scope.org, key, 'create');
  const body: Record<string, unknown> = { spaceId: t.id };
  if (sectionId !== undefined) body['sectionId'] = sectionId;
  if (s.draft !== undefined) body['draft'] = s.draft;
  // Identity (section, space) for recovering a create whose answer was lost; a root site space has no section.
  const exclude = scope.live.siteSpaces
    .filter((x) => x.spaceId === t.id && x.section === (sectionId ?? null))
    .map((x) => x.id);
  const recover = {
    match: [
      { field: 'space.id', body: '/spaceId' },
      { field: 'section', body: '/sectionId' },
    ],
    ...(exclude.length > 0 ? { exclude } : {}),
  };
  const requests: RequestSpec[] = [
    { method: 'POST', path: `${base(scope)}/site-spaces`, body, capture: { id: 'id' }, recover },
  ];
  const patch: Record<string, unknown> = {};
  if (path !== undefined) patch['path'] = path;
  // A site space that stands in for a move keeps the condition of the one it replaces (never shown more widely).
  const condition = s.condition !== undefined ? s.condition : (w.carried?.condition ?? undefined);
  if (typeof condition === 'string') patch['condition'] = condition;
  if (s.hidden !== undefined) patch['hidden'] = s.hidden;
  if (Object.keys(patch).length > 0)
    requests.push({ method: 'PATCH', path: `${base(scope)}/site-spaces/${ref(id)}`, body: patch });
  const after: Record<string, unknown> = { space: s.space };
  if (s.path !== undefined) after['path'] = s.path;
  if (s.condition !== undefined) after['condition'] = s.condition;
  for (const f of FLAGS) if (s[f] !== undefined) after[f] = s[f];
  const note = w.carried
    ? `replaces site space ${w.carried.id} of a pruned section, which must keep one until it is deleted`
    : undefined;
  push(scope, {
    kind: SITE_SPACE_KIND,
    key,
    suffix: 'create',
    action: 'create',
    phase: 'create',
    wave: WAVE.siteSpace,
    before: null,
    after,
    requests,
    at: s.at,
    deps: t.deps,
    ...(note ? { note } : {}),
  });
  return ref(id);
}

/**
 * Path and condition a new section's first site space needs after the server derived its path from the space
 * title; a path in `held` (a root site space's, which the first section receives) is left to the reorder step.
 */
export function siteSpacePatch(s: SiteSpaceSpec, t: SpaceTarget, held: ReadonlySet<string>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (postedPathEarly(s, t, held)) patch['path'] = s.path;
  if (typeof s.condition === 'string') patch['condition'] = s.condition;
  for (const f of FLAGS) if (s[f] !== undefined) patch[f] = s[f];
  return patch;
}

/** Whether a new section's first site space gets its written path in the section's create step. */
export const postedPathEarly = (s: SiteSpaceSpec, t: SpaceTarget, held: ReadonlySet<string>): boolean =>
  s.path !== undefined && s.path !== slug(t.title) && !held.has(s.path);
