/**
 * What the Team and Members kinds need to know of access lists, and the access diff of them:
 * - a team's delete or a member's removal takes their grants along. The grants known are those on the objects
 *   whose access lists this plan read (their manifests write `access:`): `knownGrants` lists them as cascades
 *   (kind SpaceAccess / CollectionAccess / SiteAccess, keyed as the access diff keys them). The access diff sends
 *   no DELETE of its own for them (`deletedPrincipals`): the team's or member's delete step shows them. For every
 *   other object only the API's `spaces` count is known, which the step's note shows;
 * - a team an access list names must not be pruned (`teamsNamedByAccess`): the grant would go with it, and the
 *   next plan could not resolve the name.
 * Other kinds' live states and entries reach these functions with their types forgotten: read with checks.
 */
import type { SourcePos } from '../../model/errors.js';
import type { DiffContext, LiveObject } from '../../model/kind.js';
import type { CascadeObject } from '../../model/plan.js';
import { isRecord } from '../common.js';
import { withDisplayKeys, matchByIdOrTitle } from '../match.js';
import { COLLECTION_ACCESS } from '../collection/model.js';
import { SITE_ACCESS } from '../site/model.js';
import { SPACE_ACCESS } from '../space/model.js';
import { SPACE_ACCESS_KIND, type AccessTarget, type Principal } from './model.js';
import { accessOf } from './parse.js';

const ACCESS_TARGETS: readonly AccessTarget[] = [SPACE_ACCESS, COLLECTION_ACCESS, SITE_ACCESS];

/** The principal of a live grant object of another kind's state, read with checks. */
function principalOf(o: LiveObject): { principal: string; id: string } | undefined {
  const f = o.fields;
  return isRecord(f) && typeof f['principal'] === 'string' && typeof f['id'] === 'string'
    ? { principal: f['principal'], id: f['id'] }
    : undefined;
}

export interface KnownGrants {
  cascades: CascadeObject[];
  /** How many of them are on spaces (what the API's `spaces` count counts). */
  spaces: number;
}

const NONE: KnownGrants = { cascades: [], spaces: 0 };

/** Per diff (its context) and org: `team:<id>` / `user:<id>` → their known grants, indexed on first use. */
const indexes = new WeakMap<DiffContext, Map<string, Map<string, KnownGrants>>>();

function grantIndex(ctx: DiffContext, org: string): Map<string, KnownGrants> {
  let byOrg = indexes.get(ctx);
  if (!byOrg) indexes.set(ctx, (byOrg = new Map()));
  let index = byOrg.get(org);
  if (index) return index;
  byOrg.set(org, (index = new Map()));
  for (const t of ACCESS_TARGETS) {
    for (const o of ctx.live(t.kind, org)?.objects ?? []) {
      if (o.kind !== t.accessKind) continue;
      const p = principalOf(o);
      if (!p) continue;
      const k = `${p.principal}:${p.id}`;
      let known = index.get(k);
      if (!known) index.set(k, (known = { cascades: [], spaces: 0 }));
      known.cascades.push({ kind: o.kind, org, key: o.key });
      if (o.kind === SPACE_ACCESS_KIND) known.spaces++;
    }
  }
  return index;
}

/** The grants of team or user `id` on the objects whose access lists this plan read. */
export function knownGrants(ctx: DiffContext, org: string, principal: Principal, id: string): KnownGrants {
  return grantIndex(ctx, org).get(`${principal}:${id}`) ?? NONE;
}

/** "its access to 3 spaces goes too" (or "3 other spaces" beside the grants listed), else undefined. */
export function accessNote(count: number | undefined, known: KnownGrants, whose: 'its' | 'their'): string | undefined {
  if (count === undefined) return undefined;
  const rest = Math.max(0, count - known.spaces);
  if (rest === 0) return undefined;
  return `${whose} access to ${rest}${known.spaces > 0 ? ' other' : ''} space${rest === 1 ? '' : 's'} goes too`;
}

/** Team names (titles or ids) the organization's access lists write, each with where it is first written. */
export function teamsNamedByAccess(ctx: DiffContext, org: string): Map<string, SourcePos> {
  const out = new Map<string, SourcePos>();
  for (const t of ACCESS_TARGETS) {
    for (const e of ctx.desired(t.kind, org)) {
      for (const a of accessOf(e) ?? [])
        if (a.principal === 'team' && !out.has(a.name)) out.set(a.name, e.doc.pos(a.at));
    }
  }
  return out;
}

const deleted = new WeakMap<DiffContext, Map<string, Set<string>>>();

/**
 * `team:<id>` / `user:<id>` of the teams and members this plan deletes (the Team kind's prune, except the teams an
 * access list names, which it blocks instead; the Members kind's prune), as those kinds decide it: matched the
 * same way, from their manifests and live states. Their grants go with their delete step (listed as cascades).
 */
export function deletedPrincipals(ctx: DiffContext, org: string): ReadonlySet<string> {
  let byOrg = deleted.get(ctx);
  if (!byOrg) deleted.set(ctx, (byOrg = new Map()));
  const known = byOrg.get(org);
  if (known) return known;
  const out = new Set<string>();
  if (ctx.prune('Team', org)) {
    const live = (ctx.live('Team', org)?.objects ?? []).filter((o) => o.kind === 'Team');
    const { unmatched } = matchByIdOrTitle('Team', withDisplayKeys(ctx.desired('Team', org)), live);
    const named = teamsNamedByAccess(ctx, org);
    for (const o of unmatched) if (!named.has(o.id) && !named.has(o.key)) out.add(`team:${o.id}`);
  }
  if (ctx.prune('Members', org)) {
    const listed = new Set(ctx.desired('Members', org).map((e) => e.key));
    for (const o of ctx.live('Members', org)?.objects ?? [])
      if (o.kind === 'Members' && !listed.has(o.key)) out.add(`user:${o.id}`);
  }
  byOrg.set(org, out);
  return out;
}
