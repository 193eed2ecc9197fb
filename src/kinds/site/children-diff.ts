/**
 * Share links (by name: create POST {name} + PATCH {active: false} when asked, PATCH active, prune), the
 * adaptive schema (one PUT, in the official form, of the members that differ laid over the schema read right before
 * it, when it differs; adaptive-schema.ts) and
 * the customization (one read-modify-write PUT of the written members that differ; customization.ts) of one site.
 * Share-link URLs carry the share secret: nothing here reads them, and no capture keeps anything but the id.
 */
import { ConflictError } from '../../model/errors.js';
import type { RequestSpec } from '../../model/plan.js';
import { ref } from '../../model/refs.js';
import { sameValue, seg, stepId } from '../common.js';
import { EMPTY_ADAPTIVE_SCHEMA, SHARE_LINK_KIND, SITE_KIND, WAVE, shareLinkKey, type LiveShareLink } from './model.js';
import { adaptiveSchemaRequest, officialAdaptiveSchema } from './adaptive-schema.js';
import { customizationChange, customizationRequest } from './customization.js';
import { base, push, where, type SiteScope } from './scope.js';

export function diffShareLinks(scope: SiteScope): void {
  const wanted = scope.spec.shareLinks;
  if (!wanted) return;
  const live = scope.live.shareLinks ?? [];
  const claimed = new Set<LiveShareLink>();
  for (const l of wanted) {
    const key = shareLinkKey(scope.title, l.name);
    const hits = live.filter((x) => x.name === l.name);
    if (hits.length > 1) {
      throw new ConflictError(
        `${where(scope, l.at)}: share link "${l.name}" of site "${scope.title}" matches ${hits.length} live share links (${hits.map((h) => h.id).join(', ')})`,
      );
    }
    const hit = hits[0];
    if (!hit) {
      const id = stepId(SHARE_LINK_KIND, scope.org, key, 'create');
      const recover = { match: [{ field: 'name', body: '/name' }] };
      const requests: RequestSpec[] = [
        { method: 'POST', path: `${base(scope)}/share-links`, body: { name: l.name }, capture: { id: 'id' }, recover },
      ];
      if (l.active === false)
        requests.push({ method: 'PATCH', path: `${base(scope)}/share-links/${ref(id)}`, body: { active: false } });
      push(scope, {
        kind: SHARE_LINK_KIND,
        key,
        suffix: 'create',
        action: 'create',
        phase: 'create',
        wave: WAVE.shareLink,
        before: null,
        after: { name: l.name, active: l.active ?? true },
        requests,
        at: l.at,
      });
      continue;
    }
    claimed.add(hit);
    if (l.active === undefined || l.active === hit.active) continue;
    push(scope, {
      kind: SHARE_LINK_KIND,
      key,
      suffix: 'update',
      action: 'update',
      phase: 'update',
      wave: WAVE.shareLink,
      before: { active: hit.active },
      after: { active: l.active },
      requests: [{ method: 'PATCH', path: `${base(scope)}/share-links/${seg(hit.id)}`, body: { active: l.active } }],
      at: l.at,
    });
  }
  for (const x of live) {
    if (claimed.has(x)) continue;
    const key = shareLinkKey(scope.liveTitle, x.name);
    if (!scope.prune) {
      scope.result.unmanaged.push({ kind: SHARE_LINK_KIND, org: scope.org, key, id: x.id });
      continue;
    }
    push(scope, {
      kind: SHARE_LINK_KIND,
      key: live.filter((y) => y.name === x.name).length > 1 ? `${key} (${x.id})` : key,
      suffix: 'delete',
      action: 'delete',
      phase: 'prune',
      wave: WAVE.pruneShareLink,
      before: { name: x.name, active: x.active },
      after: null,
      requests: [{ method: 'DELETE', path: `${base(scope)}/share-links/${seg(x.id)}` }],
    });
  }
}

export function diffAdaptiveSchema(scope: SiteScope): void {
  const written = scope.spec.adaptiveSchema;
  if (!written) return;
  const wanted = officialAdaptiveSchema(written);
  const have = scope.isNew ? EMPTY_ADAPTIVE_SCHEMA : (scope.live.adaptiveSchema ?? null);
  if (sameValue(wanted, have)) return;
  push(scope, {
    kind: SITE_KIND,
    key: scope.title,
    suffix: 'adaptive-schema',
    action: 'update',
    phase: 'update',
    wave: WAVE.site,
    before: { adaptiveSchema: have },
    after: { adaptiveSchema: wanted },
    requests: [adaptiveSchemaRequest(`${base(scope)}/adaptive-schema`, scope.isNew ? undefined : have, wanted)],
    at: ['spec', 'adaptiveSchema'],
  });
}

/** The written customization members that differ: one PUT that apply merges into the object it reads (customization.ts). */
export function diffCustomization(scope: SiteScope): void {
  const written = scope.spec.customization;
  if (!written) return;
  const change = customizationChange(written, scope.isNew ? undefined : scope.live.customization);
  if (!change) return;
  push(scope, {
    kind: SITE_KIND,
    key: scope.title,
    suffix: 'customization',
    action: 'update',
    phase: 'update',
    wave: WAVE.site,
    before: change.before,
    after: change.after,
    requests: [customizationRequest(`${base(scope)}/customization`, change.after)],
    at: ['spec', 'customization'],
    note: 'the members not written keep their live value',
  });
}
