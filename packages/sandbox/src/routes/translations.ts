/**
 * Translation settings in the management-api.md shape (title + languages). The official spec has a
 * different translation resource (source/language/instructions); see docs/dev/api-differences.md.
 */
import { param, type RequestContext } from '../context.js';
import { created, notFound } from '../http.js';
import type { TranslationRec } from '../records.js';
import { translations } from '../records.js';
import { object, string } from '../validate.js';
import { inOrg, isOrgAdmin, requireOrg } from './common.js';
import { list, read, remove, update } from './crud.js';
import { route, type RouteTable } from './table.js';

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

export const translationRoutes: RouteTable = {
  listTranslations: list(LIST, (ctx) => inOrg(ctx, translations(ctx.store)), presentTranslation),
  createTranslation: route({
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
  }),
  getTranslation: read(ONE, requireTranslation, presentTranslation),
  updateTranslation: update(
    ONE,
    body,
    (ctx, b) => translations(ctx.store).put({ ...requireTranslation(ctx), title: b.title, updatedAt: ctx.now().toISOString() }),
    presentTranslation,
    'PUT',
  ),
  deleteTranslation: remove(ONE, (ctx) => {
    const t = find(ctx);
    return t !== undefined && translations(ctx.store).delete(t.id);
  }),
};
