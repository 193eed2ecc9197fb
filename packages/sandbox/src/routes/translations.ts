/**
 * Translation settings in the management-api.md shape (title + languages). The official spec has a
 * different translation resource (source/language/instructions); see docs/dev/api-differences.md.
 */
import { param, type RequestContext } from '../context.js';
import { created, noContent, notFound, ok, resetContent } from '../http.js';
import { pageOf } from '../paginate.js';
import type { TranslationRec } from '../records.js';
import { translations } from '../records.js';
import { object, string } from '../validate.js';
import { isOrgAdmin, requireOrg, type RouteModule } from './common.js';

const LIST = '/v1/orgs/:organizationId/translations';
const ONE = `${LIST}/:translationId`;

function presentTranslation(ctx: RequestContext, t: TranslationRec): Record<string, unknown> {
  return {
    object: 'translation-settings',
    id: t.id,
    title: t.title,
    languages: [...t.languages],
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    permissions: { view: true, edit: isOrgAdmin(ctx, t.orgId) },
    urls: { location: ctx.apiUrl(`/orgs/${t.orgId}/translations/${t.id}`) },
  };
}

function find(ctx: RequestContext): TranslationRec | undefined {
  const org = requireOrg(ctx);
  const t = translations(ctx.store).get(param(ctx, 'translationId'));
  return t && t.orgId === org.id ? t : undefined;
}

function requireTranslation(ctx: RequestContext): TranslationRec {
  const t = find(ctx);
  if (!t) throw notFound(`translation settings "${param(ctx, 'translationId')}" not found`);
  return t;
}

const body = object({ title: string({ min: 1, max: 100 }) }, ['title']);

export const translationRoutes: RouteModule = (router) => {
  router.add({
    method: 'GET',
    pattern: LIST,
    handler: (ctx) => {
      const org = requireOrg(ctx);
      return pageOf(ctx, translations(ctx.store).where((t) => t.orgId === org.id), (t) => presentTranslation(ctx, t));
    },
  });
  router.add({
    method: 'POST',
    pattern: LIST,
    body,
    handler: (ctx, b) => {
      const org = requireOrg(ctx);
      const now = ctx.now().toISOString();
      const id = ctx.store.nextId('tr', (x) => translations(ctx.store).has(x));
      const t = translations(ctx.store).put({ id, orgId: org.id, title: b.title, languages: [], createdAt: now, updatedAt: now });
      return created(presentTranslation(ctx, t));
    },
  });
  router.add({ method: 'GET', pattern: ONE, handler: (ctx) => ok(presentTranslation(ctx, requireTranslation(ctx))) });
  router.add({
    method: 'PUT',
    pattern: ONE,
    body,
    handler: (ctx, b) => {
      const t = translations(ctx.store).put({ ...requireTranslation(ctx), title: b.title, updatedAt: ctx.now().toISOString() });
      return ok(presentTranslation(ctx, t));
    },
  });
  router.add({
    method: 'DELETE',
    pattern: ONE,
    handler: (ctx) => {
      const t = find(ctx);
      if (!t) return noContent();
      translations(ctx.store).delete(t.id);
      return resetContent();
    },
  });
};
