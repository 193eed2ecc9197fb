/**
 * External links of one site's navigation (official spec `…/external-links`; no list of them exists: the fetch reads
 * them from `GET …/structure`): by title, create (`POST {title, url, …, parent}` in the create phase after the
 * groups, so a link can go into a group created in the same plan), update the fields that differ and its group
 * (`PATCH {…, parent: id | null}`), and, under prune, delete the ones not listed (unmanaged otherwise). Where a link
 * sits among the sections and groups is not managed: a new link goes at the end of its container.
 */
import { ConflictError } from '../../model/errors.js';
import { changedFields, pick, seg } from '../common.js';
import { unmatchedLive } from '../unmatched.js';
import type { GroupNav } from './groups-diff.js';
import {
  EXTERNAL_LINK_FIELDS,
  EXTERNAL_LINK_KIND,
  externalLinkKey,
  type ExternalLinkSpec,
  type LiveExternalLink,
} from './live-model.js';
import { WAVE } from './model.js';
import { base, block, push, where, type SiteScope } from './scope.js';

/** The id (live, or a ref to its create) of the group a link names, null for the top level; undefined: none such. */
function groupId(scope: SiteScope, groups: GroupNav, title: string | null): string | null | undefined {
  if (title === null) return null;
  return groups.ids.get(title) ?? scope.live.groups.find((g) => g.title === title)?.id;
}

export function diffExternalLinks(scope: SiteScope, groups: GroupNav): void {
  const wanted = scope.spec.externalLinks;
  if (!wanted) return;
  if (!scope.isNew && !scope.live.externalLinks)
    throw new Error(`internal: external links of site ${scope.siteId} were not fetched`);
  const live = scope.isNew ? [] : (scope.live.externalLinks ?? []);
  const claimed = new Set<LiveExternalLink>();
  const titleOf = (id: string | null): string | null => (id === null ? null : (groups.titles.get(id) ?? id));
  for (const l of wanted) {
    const hits = live.filter((x) => x.title === l.title);
    if (hits.length > 1)
      throw new ConflictError(
        `${where(scope, l.at)}: external link "${l.title}" of site "${scope.title}" matches ${hits.length} live links (${hits.map((h) => h.id).join(', ')})`,
      );
    const parent = l.group === undefined ? undefined : groupId(scope, groups, l.group);
    if (parent === undefined && l.group !== undefined) {
      block(
        scope,
        [...l.at, 'group'],
        `external link "${l.title}": section group "${l.group}" is neither in sectionGroups nor a live group of the site`,
      );
      continue;
    }
    const key = externalLinkKey(scope.title, l.title);
    const hit = hits[0];
    if (!hit) {
      const body = {
        title: l.title,
        url: l.url,
        ...pick(l, EXTERNAL_LINK_FIELDS),
        ...(typeof parent === 'string' ? { parent } : {}),
      };
      const after = {
        title: l.title,
        url: l.url,
        ...pick(l, EXTERNAL_LINK_FIELDS),
        ...(l.group !== undefined ? { group: l.group } : {}),
      };
      // No list holds the links (only the structure does), so a create whose answer was lost is not looked up: its
      // step fails and the next plan finds the link by title.
      push(scope, {
        kind: EXTERNAL_LINK_KIND,
        key,
        suffix: 'create',
        action: 'create',
        phase: 'create',
        wave: WAVE.externalLink,
        before: null,
        after,
        requests: [{ method: 'POST', path: `${base(scope)}/external-links`, body, capture: { id: 'id' } }],
        at: l.at,
      });
      continue;
    }
    claimed.add(hit);
    update(scope, l, hit, parent, titleOf);
  }
  prune(
    scope,
    live.filter((x) => !claimed.has(x)),
  );
}

function update(
  scope: SiteScope,
  l: ExternalLinkSpec,
  hit: LiveExternalLink,
  parent: string | null | undefined,
  titleOf: (id: string | null) => string | null,
): void {
  const c = changedFields(l, hit, EXTERNAL_LINK_FIELDS);
  const body: Record<string, unknown> = { ...c.after };
  if (parent !== undefined && parent !== hit.group) {
    c.before['group'] = titleOf(hit.group);
    c.after['group'] = l.group;
    body['parent'] = parent;
  }
  if (Object.keys(body).length === 0) return;
  push(scope, {
    kind: EXTERNAL_LINK_KIND,
    key: externalLinkKey(scope.title, l.title),
    suffix: 'update',
    action: 'update',
    phase: 'update',
    wave: WAVE.externalLink,
    before: c.before,
    after: c.after,
    requests: [{ method: 'PATCH', path: `${base(scope)}/external-links/${seg(hit.id)}`, body }],
    at: l.at,
  });
}

function prune(scope: SiteScope, unlisted: readonly LiveExternalLink[]): void {
  unmatchedLive(scope.result, {
    kind: EXTERNAL_LINK_KIND,
    org: scope.org,
    prune: scope.prune,
    objects: unlisted,
    key: (x) =>
      unlisted.filter((y) => y.title === x.title).length > 1
        ? `${externalLinkKey(scope.liveTitle, x.title)} (${x.id})`
        : externalLinkKey(scope.liveTitle, x.title),
    wave: () => WAVE.pruneExternalLink,
    path: (x) => `${base(scope)}/external-links/${seg(x.id)}`,
    before: (x) => ({ title: x.title, url: x.url }),
  });
}
