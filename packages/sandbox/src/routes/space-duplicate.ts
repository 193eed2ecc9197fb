/**
 * `POST /spaces/{spaceId}/duplicate` (management-api.md): a new space beside the original (same parent, emoji,
 * visibility, edit mode, language), titled "<title> (copy)", holding a copy of its content in a new revision.
 * Permissions, comments and change requests are not copied.
 */
import { created } from '../http.js';
import { spaceContent, spaceHost } from '../content-records.js';
import { spaces } from '../records.js';
import { placeContent } from './content-order.js';
import { presentSpace, requireSpace } from './spaces.js';
import { route, type RouteTable } from './table.js';
import { newId } from './crud.js';

export const spaceDuplicateRoutes: RouteTable = {
  duplicateSpace: route({
    method: 'POST',
    pattern: '/v1/spaces/:spaceId/duplicate',
    handler: (ctx) => {
      const s = requireSpace(ctx, { active: true });
      const id = newId(ctx, spaces(ctx.store), 'sp', 'space');
      const now = ctx.now().toISOString();
      const revision = ctx.store.nextId('rev', () => false);
      const { deletedAt: _none, mergeRules: _rules, ...kept } = s;
      const copy = spaces(ctx.store).put({
        ...kept,
        id,
        title: [...`${s.title} (copy)`].slice(0, 50).join(''),
        defaultLevel: null,
        revision,
        createdAt: now,
        updatedAt: now,
      });
      const content = spaceContent(ctx.store).get(spaceHost(s.id));
      if (content)
        spaceContent(ctx.store).put({
          ...structuredClone(content),
          id: spaceHost(id),
          revision,
          parents: [],
          createdAt: now,
        });
      placeContent(ctx.store, s.orgId, s.parent, id, { after: s.id });
      return { ...created(presentSpace(ctx, copy)), headers: { location: ctx.apiUrl(`/spaces/${id}`) } };
    },
  }),
};
