/**
 * A site's redirect rules (issue 29): the written list is complete, one step per rule (create, update, or delete of a
 * rule no longer listed — whatever the prune setting, as `access:`), keyed `<site>/<source>` (`… (draft)`), and all of
 * them written through the bulk `PUT …/redirects`: each step's request holds its own operation, and apply sends the
 * operations of one ordered group together, 500 per request, reading a status per rule (BatchSpec): a rule the API
 * refuses fails its step and the others stand. Thousands of rules are a few requests. One exception: the bulk upsert
 * resets a rule's `captureWildcard` to false unless it is sent, so an update of a rule whose manifest does not write
 * it is a `PATCH …/redirects/{id}` of the changed fields alone (sending the value of the plan's read instead would
 * undo a change another actor made since).
 *
 * A destination names a section by path and a site space by (section path, space), resolved like the site's own
 * structure (a section or site space this plan creates is a ref, and the rule waits for it); one that names nothing
 * of the site blocks the site.
 */
import type { BatchSpec, RequestSpec } from '../../model/plan.js';
import { deletesAllNote, sameValue, seg } from '../common.js';
import { ROOT, inSection } from './layout.js';
import { manifestDestination, redirectFields } from './live-reads.js';
import {
  MAX_REDIRECTS_PER_REQUEST,
  REDIRECT_KIND,
  redirectKey,
  type ApiDestination,
  type LiveRedirect,
  type RedirectSpec,
} from './live-model.js';
import { WAVE } from './model.js';
import type { Nav } from './nav.js';
import { base, block, push, type SiteScope } from './scope.js';

/** The bulk upsert: a status per operation; `error` fails the step that sent it. */
export const REDIRECT_BATCH: BatchSpec = {
  list: 'redirects',
  max: MAX_REDIRECTS_PER_REQUEST,
  results: 'results',
  failed: { field: 'status', value: 'error', message: 'error' },
};

function bulk(scope: SiteScope, operation: Record<string, unknown>): RequestSpec {
  // An upsert by source (or a delete of what may be gone, answered `deleted`): sending it twice leaves the same.
  return {
    method: 'PUT',
    path: `${base(scope)}/redirects`,
    body: { redirects: [operation] },
    idempotent: true,
    batch: REDIRECT_BATCH,
  };
}

/** The section id (live, or a ref to its create) at `path`. */
function sectionId(scope: SiteScope, nav: Nav, path: string): string | undefined {
  return nav.sections.find((s) => s.path === path)?.id ?? scope.live.sections.find((s) => s.path === path)?.id;
}

/** The API destination a rule's target names, or why it names nothing of the site (the site is then blocked). */
function resolve(scope: SiteScope, nav: Nav, r: RedirectSpec): ApiDestination | { missing: string } {
  const d = r.destination;
  if ('url' in d) return { kind: 'external', url: d.url };
  const section = d.section === undefined ? undefined : sectionId(scope, nav, d.section);
  if (d.section !== undefined && section === undefined)
    return { missing: `section "${d.section}" is not a section of the site` };
  if (!('space' in d)) return { kind: 'site-section', siteSectionId: section! };
  const target = scope.space(d.space, scope.entry.doc.pos([...r.at, 'destination', 'space']));
  if (!target) return { missing: `space "${d.space}" is neither a Space manifest nor a live space` };
  const container = section === undefined ? ROOT : inSection(section);
  const liveSection = section ?? null;
  const siteSpace =
    nav.containers.get(container)?.find((x) => x.spaceId === target.id)?.id ??
    scope.live.siteSpaces.find((x) => x.section === liveSection && x.spaceId === target.id)?.id;
  if (siteSpace === undefined)
    return {
      missing: `space "${d.space}" is not a site space ${d.section === undefined ? 'at the root of the site' : `of section "${d.section}"`}`,
    };
  return d.page === undefined
    ? { kind: 'site-space', siteSpaceId: siteSpace }
    : { kind: 'site-page', siteSpaceId: siteSpace, pageId: d.page };
}

/** What a rule is as written (destination as the manifest names it). */
function written(r: RedirectSpec): Record<string, unknown> {
  const d = r.destination;
  return {
    source: r.source,
    destination: 'url' in d ? d.url : { ...d },
    ...(r.permanent !== undefined ? { permanent: r.permanent } : {}),
    ...(r.captureWildcard !== undefined ? { captureWildcard: r.captureWildcard } : {}),
    ...(r.draft ? { draft: true } : {}),
  };
}

export function diffRedirects(scope: SiteScope, nav: Nav): void {
  const wanted = scope.spec.redirects;
  if (!wanted) return;
  const live = scope.isNew ? [] : (scope.live.redirects ?? []);
  if (!scope.isNew && !scope.live.redirects)
    throw new Error(`internal: redirects of site ${scope.siteId} were not fetched`);
  const kept = new Set<LiveRedirect>();
  const titleOf = new Map(scope.live.siteSpaces.map((x) => [x.spaceId, x.spaceTitle]));
  const shown = (d: ApiDestination): unknown => manifestDestination(d, scope.live, (id) => titleOf.get(id) ?? id);
  for (const r of wanted) {
    const destination = resolve(scope, nav, r);
    if ('missing' in destination) {
      block(
        scope,
        [...r.at, 'destination'],
        `redirect from "${r.source}": ${destination.missing}; nothing of the site is planned until it names one`,
      );
      continue;
    }
    const have = live.find((l) => l.source === r.source && l.draft === r.draft);
    if (have) kept.add(have);
    const key = redirectKey(scope.title, r.source, r.draft);
    // captureWildcard has a default in the bulk upsert (false): sent only for a new rule or a written one.
    const operation = {
      source: r.source,
      intent: r.draft ? 'draft' : 'live',
      destination,
      captureWildcard: r.captureWildcard ?? false,
      ...(r.permanent !== undefined ? { permanent: r.permanent } : {}),
    };
    if (!have) {
      push(scope, {
        kind: REDIRECT_KIND,
        key,
        suffix: 'create',
        action: 'create',
        phase: 'create',
        wave: WAVE.redirect,
        before: null,
        after: written(r),
        requests: [bulk(scope, operation)],
        at: r.at,
      });
      continue;
    }
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    if (!sameValue(destination, have.destination))
      [before['destination'], after['destination']] = [shown(have.destination), written(r)['destination']];
    for (const f of ['permanent', 'captureWildcard'] as const)
      if (r[f] !== undefined && r[f] !== have[f]) [before[f], after[f]] = [have[f], r[f]];
    if (Object.keys(after).length === 0) continue;
    // Without a written captureWildcard the bulk would send one; a PATCH carries the changed fields only.
    const patch: Record<string, unknown> = {};
    if ('destination' in after) patch['destination'] = destination;
    if ('permanent' in after) patch['permanent'] = r.permanent;
    push(scope, {
      kind: REDIRECT_KIND,
      key,
      suffix: 'update',
      action: 'update',
      phase: 'update',
      wave: WAVE.redirect,
      before,
      after,
      requests: [
        r.captureWildcard === undefined
          ? { method: 'PATCH', path: `${base(scope)}/redirects/${seg(have.id)}`, body: patch }
          : bulk(scope, operation),
      ],
      at: r.at,
    });
  }
  deleteUnlisted(
    scope,
    live.filter((l) => !kept.has(l)),
    live.length,
  );
}

/** Rules the list no longer holds: each its own delete (the journal keeps the rule, the gate counts it). */
function deleteUnlisted(scope: SiteScope, gone: readonly LiveRedirect[], total: number): void {
  const titleOf = new Map(scope.live.siteSpaces.map((x) => [x.spaceId, x.spaceTitle]));
  const all =
    gone.length === total
      ? deletesAllNote(total, `the redirects of site "${scope.title}"`, REDIRECT_KIND, scope.entry.doc)
      : undefined;
  for (const l of gone) {
    const { source, draft, ...rest } = redirectFields(l, scope.live, (id) => titleOf.get(id) ?? id);
    push(scope, {
      kind: REDIRECT_KIND,
      key: redirectKey(scope.liveTitle, l.source, l.draft),
      suffix: 'delete',
      action: 'delete',
      phase: 'delete',
      wave: WAVE.deleteRedirect,
      before: { source, ...(draft ? { draft } : {}), ...rest },
      after: null,
      requests: [bulk(scope, { source: l.source, intent: l.draft ? 'draft' : 'live', destination: null })],
      at: ['spec', 'redirects'],
      ...(all !== undefined ? { note: all } : {}),
    });
  }
}
