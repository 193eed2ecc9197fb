/**
 * Links in content (management-api.md): a space's links (`GET /spaces/{id}/links`, with `stats`), a page's links
 * and a file's backlinks, the last two for spaces and change requests alike. Links are read from the pages'
 * markdown (`[text](target)`): `/pages/<id>` names a page, `/files/<id>` a file, both `broken` when the revision
 * lacks them; a URL into the app is `in-app`; any other target is a URL, `ok`.
 */
import type { RequestContext } from '../context.js';
import { pageOf } from '../paginate.js';
import { queryEnum } from '../query.js';
import type { ContentRec, PageRec } from '../content-records.js';
import { changeRequests, changeRequestHost, flattenPages } from '../content-records.js';
import { HOSTS, SPACE_HOST, contentOf, hostContent, type Host, type HostKind } from './content-hosts.js';
import { requireFile, requirePage } from './content.js';
import { listPage } from './crud.js';
import { route, tableOf, type RouteTable } from './table.js';

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
      if (ref?.[1] === 'pages')
        return { from, target: { kind: 'page', page: ref[2]! }, status: pageIds.has(ref[2]!) ? 'ok' : 'broken' };
      if (ref?.[1] === 'files')
        return { from, target: { kind: 'file', file: ref[2]! }, status: fileIds.has(ref[2]!) ? 'ok' : 'broken' };
      return { from, target: { kind: 'url', url: raw }, status: raw.startsWith(app) ? 'in-app' : 'ok' };
    }),
  );
}

/** A reference to something inside the host's revision (`kind` plus its id), as the links lists answer it. */
function reference(host: Host, c: ContentRec, target: Record<string, string>): Record<string, unknown> {
  if (target['kind'] === 'url') return { ...target };
  return {
    ...target,
    organization: host.space.orgId,
    space: host.space.id,
    versionContext: { type: 'revision', revision: c.revision },
  };
}

function presentLink(host: Host, c: ContentRec, l: Link): Record<string, unknown> {
  return {
    status: l.status,
    relation: 'reference',
    targetReference: reference(host, c, l.target),
    locationReferences: [reference(host, c, { kind: 'page', page: l.from.id })],
  };
}

/** Links, filtered by `status` when asked. */
function withStatus(ctx: RequestContext, links: Link[]): Link[] {
  const status = queryEnum(ctx.query, 'status', STATUSES);
  return status ? links.filter((l) => l.status === status) : links;
}

/** Names as the spec names the content siblings (listPages, listPagesInChangeRequest); the spec has none of these. */
const IDS = {
  space: { links: 'listPageLinks', backlinks: 'listFileBacklinks' },
  'change-request': { links: 'listPageLinksInChangeRequest', backlinks: 'listFileBacklinksInChangeRequest' },
} as const;

/** A page's links and a file's backlinks in one host. */
function hostRoutes(kind: HostKind): RouteTable {
  const base = `${kind.base}/content`;
  return {
    [IDS[kind.name].links]: listPage(`${base}/page/:pageId/links`, (ctx) => {
      const { host, c } = hostContent(ctx, kind);
      const { page } = requirePage(ctx, c);
      return [
        withStatus(
          ctx,
          linksIn(ctx, c).filter((l) => l.from.id === page.id),
        ),
        (l: Link) => presentLink(host, c, l),
      ];
    }),
    // The places that link to the file: a page reference each.
    [IDS[kind.name].backlinks]: listPage(`${base}/files/:fileId/backlinks`, (ctx) => {
      const { host, c } = hostContent(ctx, kind);
      const file = requireFile(ctx, c);
      const from = linksIn(ctx, c).filter((l) => l.target.kind === 'file' && l.target.file === file.id);
      return [from, (l: Link) => reference(host, c, { kind: 'page', page: l.from.id })];
    }),
  };
}

export const contentLinkRoutes: RouteTable = tableOf(...HOSTS.map(hostRoutes), {
  listSpaceLinks: route({
    method: 'GET',
    pattern: `${SPACE_HOST.base}/links`,
    handler: (ctx) => {
      const { host, c } = hostContent(ctx, SPACE_HOST);
      const links = linksIn(ctx, c);
      // stats.broken.changeRequest: broken links in the space's open change requests.
      const inChangeRequests = changeRequests(ctx.store)
        .where((cr) => cr.spaceId === host.space.id && cr.status === 'open')
        .flatMap((cr) =>
          linksIn(ctx, contentOf(ctx, { key: changeRequestHost(cr.id), space: host.space, changeRequest: cr })),
        );
      const reply = pageOf(ctx, withStatus(ctx, links), (l) => presentLink(host, c, l));
      const stats = {
        total: links.length,
        broken: {
          total: links.filter((l) => l.status === 'broken').length,
          changeRequest: inChangeRequests.filter((l) => l.status === 'broken').length,
        },
      };
      return { ...reply, body: { ...(reply.body as Record<string, unknown>), stats } };
    },
  }),
});
