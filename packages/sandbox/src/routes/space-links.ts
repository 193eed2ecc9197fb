/**
 * `GET /spaces/{spaceId}/links` (management-api.md): the space's links, filtered by `status`, paginated, with
 * `stats` over all of them: `total`, and `broken` {`total`, `changeRequest`: those written in change requests}.
 */
import { pageOf } from '../paginate.js';
import { queryEnum } from '../query.js';
import { LINK_STATUSES, spaceLinks, type SpaceLinkRec } from '../space-links.js';
import type { RouteModule } from './common.js';
import { requireSpace } from './spaces.js';

function present(l: SpaceLinkRec): Record<string, unknown> {
  return { status: l.status, relation: l.relation, targetReference: structuredClone(l.targetReference), locationReferences: structuredClone(l.locationReferences) };
}

export const spaceLinkRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    pattern: '/v1/spaces/:spaceId/links',
    handler: (ctx) => {
      const space = requireSpace(ctx, { active: true });
      const status = queryEnum(ctx.query, 'status', LINK_STATUSES);
      const all = spaceLinks(ctx.store).where((l) => l.spaceId === space.id);
      const broken = all.filter((l) => l.status === 'broken');
      const reply = pageOf(ctx, status === undefined ? all : all.filter((l) => l.status === status), present);
      const stats = { total: all.length, broken: { total: broken.length, changeRequest: broken.filter((l) => l.changeRequest !== undefined).length } };
      return { ...reply, body: { ...(reply.body as Record<string, unknown>), stats } };
    },
  });
};
