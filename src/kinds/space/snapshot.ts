/**
 * Space in the delete journal and in undo. A space's delete is a soft delete: `POST /spaces/{id}/restore`
 * brings it back with its id and content for 7 days (management-api.md), so undo restores instead of
 * recreating while it can, then re-places it (its collection, when undo recreates that, by title). The
 * snapshot also records the sites that showed the space, so undo can say when a surviving site no longer does,
 * and its grants: a restored space keeps them, a recreated one gets its `access:` list.
 */
import { ApiError } from '../../model/errors.js';
import type { FetchContext, KindUndo, RestoreCheck, Snapshot, UndoLoss, UndoRefs } from '../../model/kind.js';
import { relinkAccess, restoreLosses } from '../access/export.js';
import { snapshotAccess } from '../access/snapshot.js';
import { relinkParents } from '../parent-refs.js';
import { isRecord } from '../common.js';
import { sitePath, sitesPath } from '../site/model.js';
import {
  SPACE_KIND,
  orgSpacesPath,
  spaceObject,
  spacePath as onePath,
  type ShownBy,
  type SpaceAux,
  type SpaceObject,
  type SpaceState,
  SPACE_ACCESS,
} from './model.js';

export const SPACE_RETENTION_DAYS = 7;
const RETENTION_MS = SPACE_RETENTION_DAYS * 24 * 60 * 60 * 1000;

async function sitesShowing(ctx: FetchContext, org: string, spaceId: string): Promise<ShownBy[]> {
  const sites = (await ctx.list(sitesPath(org), { space: spaceId })).filter(isRecord);
  const lists = await Promise.all(sites.map((s) => ctx.list(`${sitePath(org, String(s['id']))}/site-spaces`)));
  return sites.flatMap((s, i) =>
    lists[i]!.filter(isRecord)
      .filter((ss) => isRecord(ss['space']) && ss['space']['id'] === spaceId)
      .map((ss) => ({
        siteId: String(s['id']),
        siteTitle: String(s['title'] ?? ''),
        path: String(ss['path'] ?? ''),
      })),
  );
}

export async function snapshotSpace(ctx: FetchContext, object: SpaceObject): Promise<Snapshot> {
  const [body, shownBy, access] = await Promise.all([
    ctx.get<unknown>(onePath(object.id)),
    sitesShowing(ctx, object.org, object.id),
    snapshotAccess(ctx, object.org, SPACE_ACCESS, [object.id]),
  ]);
  const fresh = spaceObject(object.org, body) ?? object;
  const aux: SpaceAux = { shownBy: { [object.id]: shownBy }, ...access };
  if (isRecord(body) && typeof body['visibility'] === 'string') aux.visibility = { [object.id]: body['visibility'] };
  const part: SpaceState = { objects: [fresh], aux };
  return { [SPACE_KIND]: part };
}

/** The space as the API shows it once restored: its GET body without `deletedAt`. */
function restoredBody(body: Record<string, unknown>): Record<string, unknown> {
  const { deletedAt: _gone, ...rest } = body;
  return rest;
}

async function restore(ctx: FetchContext, object: SpaceObject, part: SpaceState, now: Date): Promise<RestoreCheck> {
  let body: unknown;
  try {
    body = await ctx.get(onePath(object.id));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      return {
        state: 'gone',
        reason: `it was removed for good (deleted spaces are kept ${SPACE_RETENTION_DAYS} days)`,
      };
    }
    throw err;
  }
  if (!isRecord(body)) throw new Error(`GET ${onePath(object.id)} answered no space`);
  const deletedAt = typeof body['deletedAt'] === 'string' ? Date.parse(body['deletedAt']) : NaN;
  if (body['deletedAt'] === undefined || body['deletedAt'] === null) return { state: 'live' };
  if (Number.isFinite(deletedAt) && now.getTime() - deletedAt > RETENTION_MS) {
    return {
      state: 'gone',
      reason: `it was deleted on ${String(body['deletedAt'])}, more than ${SPACE_RETENTION_DAYS} days ago (past its retention)`,
    };
  }
  const item = restoredBody(body);
  const until = Number.isFinite(deletedAt)
    ? `; restorable until ${new Date(deletedAt + RETENTION_MS).toISOString()}`
    : '';
  return {
    state: 'restorable',
    restore: {
      // After a lost answer: restored when the space is listed again (a second restore is refused).
      requests: [
        {
          method: 'POST',
          path: `${onePath(object.id)}/restore`,
          recover: { path: orgSpacesPath(object.org), match: [{ field: 'id', value: object.id }] },
        },
      ],
      note: `restore the deleted space ${object.id} (keeps its id and content${until})`,
      listed: [{ path: orgSpacesPath(object.org), item }],
      get: { path: onePath(object.id), body: item },
    },
    losses: await missingSiteSpaces(ctx, object, part),
  };
}

/**
 * Sites that showed the space and still exist but no longer do. (A site undo recreates gets its site spaces
 * from its own snapshot; a site that is gone answers 404 here.)
 */
async function missingSiteSpaces(ctx: FetchContext, object: SpaceObject, part: SpaceState): Promise<string[]> {
  const shown = part.aux?.shownBy?.[object.id] ?? [];
  const out: string[] = [];
  for (const s of shown) {
    let list: unknown[];
    try {
      list = await ctx.list(`${sitePath(object.org, s.siteId)}/site-spaces`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) continue;
      throw err;
    }
    const still = list.some((ss) => isRecord(ss) && isRecord(ss['space']) && ss['space']['id'] === object.id);
    if (!still)
      out.push(
        `site "${s.siteTitle}" no longer shows it (it was at path "${s.path}"): add it back in that site's manifest`,
      );
  }
  return out;
}

function losses(org: string, state: SpaceState, refs: UndoRefs): UndoLoss[] {
  const aux = state.aux ?? {};
  const out: UndoLoss[] = [];
  for (const o of state.objects) {
    const fate = refs.fate(SPACE_KIND, org, o.id);
    if (fate?.state === 'restore')
      for (const message of restoreLosses(org, aux, o.id, refs)) out.push({ key: o.key, id: o.id, message });
    if (fate?.state !== 'recreate') continue;
    const why = fate.reason ? ` (${fate.reason})` : '';
    out.push({
      key: o.key,
      id: o.id,
      message: `cannot be restored${why}: it is recreated as a new, empty space; its pages, files, comments and change requests are lost`,
    });
    const visibility = aux.visibility?.[o.id];
    if (visibility !== undefined && visibility !== 'private' && visibility !== 'in-collection') {
      out.push({
        key: o.key,
        id: o.id,
        message: `its visibility was "${visibility}"; docops does not manage space visibility: set it again in the app`,
      });
    }
  }
  return out;
}

/** Parents undo recreates are named by title; only a recreated space gets its access list (see relinkAccess). */
function relink(org: string, state: SpaceState, refs: UndoRefs): SpaceState {
  const relinked = relinkParents(SPACE_KIND, org, state, refs);
  const aux = relinkAccess(org, relinked.aux, (id) => refs.fate(SPACE_KIND, org, id)?.state !== 'recreate', refs);
  return aux === relinked.aux ? relinked : { ...relinked, aux };
}

export const spaceUndo: KindUndo<SpaceObject, SpaceAux> = { restore, relink, losses };
