/**
 * Translation settings in the management-api.md shape (title + languages). The official spec has a
 * different translation resource (source/language/instructions); see docs/dev/api-differences.md.
 */
import { param, type RequestContext } from '../context.js';
import { notFound } from '../http.js';
import type { TranslationRec } from '../records.js';
import { translations } from '../records.js';
import { object, string } from '../validate.js';
import { findInOrg, inOrg, isOrgAdmin, requireOrg } from './common.js';
import { create, list, newId, read, remove, update } from './crud.js';
import type { RouteTable } from './table.js';

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

const find = (ctx: RequestContext): TranslationRec | undefined =>
  findInOrg(ctx, translations(ctx.store), 'translationId');

function requireTranslation(ctx: RequestContext): TranslationRec {
  const t = find(ctx);
  if (!t) throw notFound(`translation settings "${param(ctx, 'translationId')}" not found`);
  return t;
}

const body = object({ title: string({ min: 1, max: 100 }) }, ['title']);

export const translationRoutes: RouteTable = {
  listTranslations: list(LIST, (ctx) => inOrg(ctx, translations(ctx.store)), presentTranslation),
  createTranslation: create(
    LIST,
    body,
    (ctx, b) => {
      const org = requireOrg(ctx);
      const now = ctx.now().toISOString();
      const id = newId(ctx, translations(ctx.store), 'tr');
      return translations(ctx.store).put({
        id,
        orgId: org.id,
        title: b.title,
        languages: [],
        createdAt: now,
        updatedAt: now,
      });
    },
    presentTranslation,
  ),
  getTranslation: read(ONE, requireTranslation, presentTranslation),
  updateTranslation: update(
    ONE,
    body,
    (ctx, b) =>
      translations(ctx.store).put({ ...requireTranslation(ctx), title: b.title, updatedAt: ctx.now().toISOString() }),
    presentTranslation,
    'PUT',
  ),
  deleteTranslation: remove(ONE, (ctx) => {
    const t = find(ctx);
    return t !== undefined && translations(ctx.store).delete(t.id);
  }),
};
