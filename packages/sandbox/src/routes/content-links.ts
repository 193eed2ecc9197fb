/**
 * Links in content (management-api.md): a space's links (`GET /spaces/{id}/links`, with `stats`), a page's links
 * and a file's backlinks, the last two for spaces and change requests alike. Links are read from the pages'
 * markdown (`[text](target)`): `/pages/<id>` names a page, `/files/<id>` a file, both `broken` when the revision
 * lacks them; a URL into the app is `in-app`; any other target is a URL, `ok`.
 */
import type { RequestContext } from '../context.js';
import type { Reply } from '../http.js';
import { pageOf } from '../paginate.js';
import { queryEnum } from '../query.js';
import type { ContentRec, PageRec } from '../content-records.js';
import { changeRequests, changeRequestHost, flattenPages } from '../content-records.js';
import type { Router } from '../router.js';
import type { RouteModule } from './common.js';
import { HOSTS, SPACE_HOST, contentOf, hostContent, type Host, type HostKind } from './content-hosts.js';
import { requireFile, requirePage } from './content.js';

const STATUSES = ['ok', 'broken', 'in-app'] as const;
type LinkStatus = (typeof STATUSES)[number];

interface Link {
  from: PageRec;
  status: LinkStatus;
  target: { kind: 'page'; page: string } | { kind: 'file'; file: string } | { kind: 'url'; url: string };
}

const LINK = /\[[^\]]*\]\(([^)\s]+)\)/g;

/** Every link of every page of the content, in page order. */
function linksIn(ctx: RequestContext, c: ContentRec): Link[] {
  const pages = flattenPages(c.pages).map((x) => x.page);
  const pageIds = new Set(pages.map((p) => p.id));
  const fileIds = new Set(c.files.map((f) => f.id));
  const app = ctx.appUrl('/');
  return pages.flatMap((from) =>
    [...(from.markdown ?? '').matchAll(LINK)].map(([, raw = '']): Link => {
      const ref = /^\/?(pages|files)\/([^/#?]+)$/.exec(raw);
      if (ref?.[1] === 'pages') return { from, target: { kind: 'page', page: ref[2]! }, status: pageIds.has(ref[2]!) ? 'ok' : 'broken' };
      if (ref?.[1] === 'files') return { from, target: { kind: 'file', file: ref[2]! }, status: fileIds.has(ref[2]!) ? 'ok' : 'broken' };
      return { from, target: { kind: 'url', url: raw }, status: raw.startsWith(app) ? 'in-app' : 'ok' };
    }),
  );
}

/** A reference to something inside the host's revision (`kind` plus its id), as the links lists answer it. */
function reference(host: Host, c: ContentRec, target: Record<string, string>): Record<string, unknown> {
  if (target['kind'] === 'url') return { ...target };
  return { ...target, organization: host.space.orgId, space: host.space.id, versionContext: { type: 'revision', revision: c.revision } };
}

function presentLink(host: Host, c: ContentRec, l: Link): Record<string, unknown> {
  return {
    status: l.status,
    relation: 'reference',
    targetReference: reference(host, c, l.target),
    locationReferences: [reference(host, c, { kind: 'page', page: l.from.id })],
  };
}

/** A page of links, filtered by `status` when asked. */
function listLinks(ctx: RequestContext, host: Host, c: ContentRec, links: Link[]): Reply {
  const status = queryEnum(ctx.query, 'status', STATUSES);
  return pageOf(ctx, status ? links.filter((l) => l.status === status) : links, (l) => presentLink(host, c, l));
}

function registerHost(router: Router, kind: HostKind): void {
  const base = `${kind.base}/content`;
  router.add({
    method: 'GET',
    pattern: `${base}/page/:pageId/links`,
    handler: (ctx) => {
      const { host, c } = hostContent(ctx, kind);
      const { page } = requirePage(ctx, c);
      return listLinks(ctx, host, c, linksIn(ctx, c).filter((l) => l.from.id === page.id));
    },
  });
  router.add({
    method: 'GET',
    pattern: `${base}/files/:fileId/backlinks`,
    handler: (ctx) => {
      // The places that link to the file: a page reference each.
      const { host, c } = hostContent(ctx, kind);
      const file = requireFile(ctx, c);
      const from = linksIn(ctx, c).filter((l) => l.target.kind === 'file' && l.target.file === file.id);
      return pageOf(ctx, from, (l) => reference(host, c, { kind: 'page', page: l.from.id }));
    },
  });
}

export const contentLinkRoutes: RouteModule = (router) => {
  for (const kind of HOSTS) registerHost(router, kind);
  router.add({
    method: 'GET',
    pattern: `${SPACE_HOST.base}/links`,
    handler: (ctx) => {
      const { host, c } = hostContent(ctx, SPACE_HOST);
      const links = linksIn(ctx, c);
      // stats.broken.changeRequest: broken links in the space's open change requests.
      const inChangeRequests = changeRequests(ctx.store)
        .where((cr) => cr.spaceId === host.space.id && cr.status === 'open')
        .flatMap((cr) => linksIn(ctx, contentOf(ctx, { key: changeRequestHost(cr.id), space: host.space, changeRequest: cr })));
      const reply = listLinks(ctx, host, c, links);
      const stats = { total: links.length, broken: { total: links.filter((l) => l.status === 'broken').length, changeRequest: inChangeRequests.filter((l) => l.status === 'broken').length } };
      return { ...reply, body: { ...(reply.body as Record<string, unknown>), stats } };
    },
  });
};
