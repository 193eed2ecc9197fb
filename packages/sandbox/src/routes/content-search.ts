/**
 * Search (management-api.md): a space's pages (`GET /spaces/{id}/search`) and an organization's spaces with their
 * pages (`GET /orgs/{id}/search`), both with `query` required (at most 512 characters) and paged. A page matches
 * when its title or markdown holds the query (case-insensitive); its sections are the markdown blocks that hold it,
 * each titled by the heading above it. Score = occurrences; pages rank by score, then in page order.
 */
import type { RequestContext } from '../context.js';
import { badRequest } from '../http.js';
import { flattenPages, spaceHost } from '../content-records.js';
import { requireOrg } from './common.js';
import { SPACE_HOST, contentOf, type Host } from './content-hosts.js';
import { pageAppUrl } from './content.js';
import { activeSpaces, sweepExpiredSpaces } from './spaces.js';
import { listPage } from './crud.js';
import type { RouteTable } from './table.js';

const QUERY_MAX = 512;

function searchQuery(ctx: RequestContext): string {
  const q = ctx.query.get('query');
  if (q === null || q.trim() === '') throw badRequest('query.query: is required');
  if ([...q].length > QUERY_MAX)
    throw badRequest(`query.query: must be at most ${QUERY_MAX} characters (got ${[...q].length})`);
  return q.toLowerCase();
}

const occurrences = (text: string, q: string): number => text.toLowerCase().split(q).length - 1;

interface PageHit {
  score: number;
  result: Record<string, unknown>;
}

/** The host's pages that hold `q`, best first (ties in page order), as the spec's SearchPageResult. */
function searchPages(ctx: RequestContext, host: Host, q: string): PageHit[] {
  const hits = flattenPages(contentOf(ctx, host).pages).flatMap(({ page, path, ancestors }) => {
    let heading = page.title;
    const sections = (page.markdown ?? '').split(/\n\s*\n/).flatMap((block, i) => {
      const h = /^#+\s+(.*)$/m.exec(block);
      if (h?.[1]) heading = h[1];
      const score = occurrences(block, q);
      const anchor = heading
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
      return score === 0
        ? []
        : [
            {
              id: `${page.id}-${i}`,
              title: heading,
              path: `${path}#${anchor}`,
              score,
              resultType: 'section',
              body: block.trim(),
              urls: { app: pageAppUrl(ctx, host, `${path}#${anchor}`) },
            },
          ];
    });
    const score = occurrences(page.title, q) + sections.reduce((n, s) => n + s.score, 0);
    if (score === 0) return [];
    const result = {
      id: page.id,
      title: page.title,
      description: page.description ?? '',
      path,
      score,
      resultType: 'page',
      sections,
      ancestors: ancestors.map((a) => ({ title: a.title })),
      urls: { app: pageAppUrl(ctx, host, path) },
    };
    return [{ score, result }];
  });
  return hits
    .map((h, i) => ({ ...h, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ score, result }, rank) => ({ score, result: { ...result, rank: rank + 1 } }));
}

export const contentSearchRoutes: RouteTable = {
  searchSpaceContent: listPage(`${SPACE_HOST.base}/search`, (ctx) => {
    const host = SPACE_HOST.resolve(ctx);
    return [searchPages(ctx, host, searchQuery(ctx)), (h: PageHit) => h.result];
  }),
  searchOrganizationContent: listPage('/v1/orgs/:organizationId/search', (ctx) => {
    const org = requireOrg(ctx);
    const q = searchQuery(ctx);
    sweepExpiredSpaces(ctx);
    const found = activeSpaces(ctx.store).flatMap((space) => {
      if (space.orgId !== org.id) return [];
      const pages = searchPages(ctx, { key: spaceHost(space.id), space }, q);
      const score = pages.reduce((n, p) => n + p.score, 0);
      return pages.length === 0
        ? []
        : [{ type: 'space', id: space.id, title: space.title, score, pages: pages.map((p) => p.result) }];
    });
    return [found, (x: unknown) => x];
  }),
};
