/**
 * Site diff (pure): per desired site, create it (POST + a PATCH of what POST cannot set, in one step) or
 * update its fields, then its structure (site-sections-diff, site-groups-diff), share links and adaptive
 * schema (site-children-diff), defaults (site-defaults-diff) and navigation order (site-order-diff). Sites
 * no manifest mentions are unmanaged, or deleted under prune; prune off never deletes a site or a child.
 */
import type { DesiredEntry, DiffContext, DiffResult } from '../../model/kind.js';
import type { RequestSpec, Step } from '../../model/plan.js';
import { ref } from '../../model/refs.js';
import { blockEntry, changedFields, pick, sameValue, seg, stepId } from '../common.js';
import { identityTitle } from '../match.js';
import { BLOCKED, BLOCKED_KEEP_ID, diffTitled, type Blocked, type TitledKind, type TitledScope } from '../titled.js';
import { accessPlanner, type AccessPlanner } from '../access/diff.js';
import { isAccessObject } from '../access/model.js';
import { recoverByKey } from '../recover.js';
import { sectionCascades, siteCascades } from './cascades.js';
import { diffAdaptiveSchema, diffCustomization, diffShareLinks } from './children-diff.js';
import { diffDefaults } from './defaults-diff.js';
import { standAside, warnNotSynced } from './git-sync.js';
import { diffGroups } from './groups-diff.js';
import {
  CREATED_SITE_DEFAULTS,
  PATCH_ONLY_FIELDS,
  SECTION_KIND,
  SITE_FIELDS,
  SITE_KIND,
  WAVE,
  sectionKey,
  sitePath,
  sitesPath,
  type SiteAux,
  type SiteFields,
  type SiteObject,
  type SiteSpec,
  type SiteState,
  SITE_ACCESS,
} from './model.js';
import { diffOrder } from './order-diff.js';
import { push, type SiteScope } from './scope.js';
import { diffSections } from './sections-diff.js';
import { diffPublished, diffPublishingAuth } from './live-diff.js';
import { diffRedirects } from './redirects-diff.js';
import { diffExternalLinks } from './external-links-diff.js';
import { PUBLICATION_KIND } from './live-model.js';
import { blockUnresolvedSpaces, spaceResolver, type SpaceResolver } from './space-ref.js';
import type { Nav } from './nav.js';

const SITE: TitledKind<SiteObject> = { kind: SITE_KIND, depth: WAVE.site };
/** One diff's sites: the titled scope and what every site of it reads. */
type SitesScope = TitledScope<SiteSpec, SiteObject> & { aux: SiteAux; space: SpaceResolver; access: AccessPlanner };

export function diffSites(
  ctx: DiffContext,
  org: string,
  entries: DesiredEntry<SiteSpec>[],
  live: SiteState,
): DiffResult {
  const aux = live.aux ?? { structures: {}, spaces: [] };
  const sites = live.objects.filter((o) => o.kind === SITE_KIND);
  return diffTitled(SITE, ctx, org, entries, sites, (titled) => {
    const space = spaceResolver(ctx, org, aux.spaces);
    const access = accessPlanner(ctx, org, SITE_ACCESS, { objects: live.objects.filter(isAccessObject), aux });
    const t: SitesScope = { ...titled, aux, space, access };
    return {
      create: (entry) => planSite(t, entry, undefined),
      update: (entry, current) => planSite(t, entry, current),
      after: (desired) => access.plan(t.result, desired),
      prune: () => ({
        wave: () => WAVE.pruneSite,
        path: (o) => sitePath(org, o.id),
        note: 'with its sections, site spaces and share links',
        // A published site goes offline with it: the gate counts that as an unpublish too.
        cascades: (o) => [
          ...siteCascades(org, o, aux.pruned?.[o.id]),
          ...(o.fields.published ? [{ kind: PUBLICATION_KIND, org, key: o.key, id: o.id }] : []),
        ],
      }),
    };
  });
}

/** A site's own create or update, then its structure and the rest of its children; blocked whole when one cannot be reached. */
function planSite(t: SitesScope, entry: DesiredEntry<SiteSpec>, current: SiteObject | undefined): Step[] | Blocked {
  const { ctx, org, result, aux } = t;
  // A site whose structure Git Sync owns: its structure is neither read nor written (git-sync.ts).
  const synced = current && aux.gitSync?.[current.id];
  if (!synced) warnNotSynced(result, entry);
  const spec = synced ? standAside(result, entry, current.id, synced) : entry.spec;
  // A space reference that names nothing blocks the whole site, before it registers or plans anything.
  if (!synced && blockUnresolvedSpaces(result, entry, t.space)) return BLOCKED;
  if (t.access.block(result, entry)) return BLOCKED;
  const scope: SiteScope = {
    ...{ ctx, org, entry, spec, title: entry.key },
    // The entry's (display) key while the live title is unchanged: two same-titled sites' children get distinct keys.
    liveTitle: current && current.key !== identityTitle(entry) ? current.key : entry.key,
    siteId: current?.id ?? ref(stepId(SITE_KIND, org, entry.key, 'create')),
    isNew: !current,
    live: (current && aux.structures[current.id]) || { sections: [], groups: [], siteSpaces: [] },
    ...{ prune: t.prune, space: t.space },
    result: { steps: [], unmanaged: [], warnings: [], blocked: [] },
    blocks: [],
  };
  if (current) updateSite(scope, current.fields);
  else createSite(scope, t.live);
  const nav = diffChildren(scope, current);
  result.warnings.push(...scope.result.warnings);
  result.unmanaged.push(...scope.result.unmanaged);
  // A pruned section whose delete would take a site space listed elsewhere is blocked (its own object); the
  // rest of the site still plans.
  result.blocked.push(...scope.result.blocked);
  const blocked = scope.blocks.length > 0;
  // A site the plan cannot reach plans nothing at all (blocked contract); only what exists is findable.
  for (const b of scope.blocks) blockEntry(result, entry, entry.doc.pos(b.at), b.message);
  for (const s of nav.sections) {
    const id = blocked ? s.live?.id : s.id;
    if (id !== undefined) ctx.register(SECTION_KIND, org, sectionKey(entry.key, s.path), id);
  }
  return blocked ? BLOCKED_KEEP_ID : scope.result.steps;
}

/** The site's structure (sections-diff, groups-diff), share links, adaptive schema, defaults, order and the rest. */
function diffChildren(scope: SiteScope, current: SiteObject | undefined): Nav {
  const nav = diffSections(scope);
  const groups = diffGroups(scope, nav);
  diffShareLinks(scope);
  diffAdaptiveSchema(scope);
  diffCustomization(scope);
  diffDefaults(scope, nav);
  diffOrder(scope, nav, groups);
  sectionCascades(scope, nav);
  diffRedirects(scope, nav);
  diffExternalLinks(scope, groups);
  diffPublishingAuth(scope);
  diffPublished(scope, current?.fields);
  return nav;
}

function createSite(scope: SiteScope, liveSites: readonly SiteObject[]): void {
  const { spec } = scope;
  const id = stepId(SITE_KIND, scope.org, scope.title, 'create');
  const post = pick(spec, ['title', 'visibility']);
  const requests: RequestSpec[] = [
    {
      method: 'POST',
      path: sitesPath(scope.org),
      body: post,
      capture: { id: 'id' },
      recover: recoverByKey(liveSites, String(post['title'])),
    },
  ];
  const patch: Record<string, unknown> = {};
  for (const f of PATCH_ONLY_FIELDS) {
    const v = spec[f];
    if (v !== undefined && !(f in CREATED_SITE_DEFAULTS && sameValue(v, CREATED_SITE_DEFAULTS[f]))) patch[f] = v;
  }
  if (Object.keys(patch).length > 0)
    requests.push({ method: 'PATCH', path: sitePath(scope.org, ref(id)), body: patch });
  push(scope, {
    kind: SITE_KIND,
    key: scope.title,
    suffix: 'create',
    action: 'create',
    phase: 'create',
    wave: WAVE.site,
    before: null,
    after: pick(spec, SITE_FIELDS),
    requests,
    at: ['spec'],
  });
}

function updateSite(scope: SiteScope, have: SiteFields): void {
  const c = changedFields(scope.spec, have, SITE_FIELDS);
  if (c.changed.length === 0) return;
  push(scope, {
    kind: SITE_KIND,
    key: scope.title,
    suffix: 'update',
    action: 'update',
    phase: 'update',
    wave: WAVE.site,
    before: c.before,
    after: c.after,
    requests: [{ method: 'PATCH', path: sitePath(scope.org, scope.siteId), body: c.after }],
    at: ['spec'],
    ...(c.changed.includes('title') ? { note: `rename site ${seg(scope.siteId)}` } : {}),
  });
}
