/**
 * Content of spaces and change requests (management-api.md "Space content", "Change request content"): the
 * current revision, its pages (as a tree, or one by id), its files (a paged list, or one by id), and import, which
 * adds what a URL holds as a new page in a new revision. Made once per host (content-hosts.ts); the links
 * lists live in content-links.ts, search in content-search.ts. Pages are stored as markdown; `format=document`
 * answers them as the spec's JSON document (document.ts).
 */
import { param, type RequestContext } from '../context.js';
import { created, notFound } from '../http.js';
import { queryBoolean, queryEnum } from '../query.js';
import { bodyIn } from '../document.js';
import type { ContentRec, FileRec, PageRec } from '../content-records.js';
import { flattenPages } from '../content-records.js';
import { object, string } from '../validate.js';
import { HOSTS, contentOf, hostContent, putContent, type Host, type HostKind } from './content-hosts.js';
import { listPage, read } from './crud.js';
import { route, tableOf, type RouteTable } from './table.js';

/** The spec requires every layout option on a document page; these are the platform's defaults. */
const LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
};

/** Where a host's page is in the (fictional) app. */
export function pageAppUrl(ctx: RequestContext, host: Host, path: string): string {
  const space = `/o/${host.space.orgId}/s/${host.space.id}`;
  return ctx.appUrl(
    host.changeRequest ? `${space}/~/changes/${host.changeRequest.number}/${path}` : `${space}/${path}`,
  );
}

/** The revision, metadata and computed flags every content read takes (booleans; nothing here is computed). */
function readFlags(ctx: RequestContext): void {
  for (const name of ['metadata', 'computed', 'evaluated', 'dereferenced']) queryBoolean(ctx.query, name);
}

function presentPage(ctx: RequestContext, host: Host, page: PageRec, path: string): Record<string, unknown> {
  const base = {
    id: page.id,
    title: page.title,
    ...(page.emoji !== undefined ? { emoji: page.emoji } : {}),
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
  };
  const children = page.pages.map((p) => presentPage(ctx, host, p, `${path}/${p.slug}`));
  if (page.kind === 'link')
    return {
      ...base,
      kind: 'link',
      type: 'link',
      target: { kind: 'url', url: page.href ?? '' },
      href: page.href ?? '',
    };
  if (page.kind === 'group') return { ...base, kind: 'group', type: 'group', slug: page.slug, path, pages: children };
  return {
    ...base,
    kind: 'sheet',
    type: 'document',
    ...bodyIn({ markdown: page.markdown ?? '' }, queryEnum(ctx.query, 'format', ['document', 'markdown'])),
    urls: { app: pageAppUrl(ctx, host, path) },
    slug: page.slug,
    path,
    ...(page.description !== undefined ? { description: page.description } : {}),
    pages: children,
    layout: { ...LAYOUT },
    tags: [],
    documentId: `doc-${page.id}`,
  };
}

export function presentFile(ctx: RequestContext, host: Host, f: FileRec): Record<string, unknown> {
  return {
    id: f.id,
    name: f.name,
    contentType: f.contentType,
    downloadURL: ctx.appUrl(`/files/${host.space.id}/${f.id}/${encodeURIComponent(f.name)}`),
    size: f.size,
    ...(f.dimensions ? { dimensions: { ...f.dimensions } } : {}),
  };
}

const presentPages = (ctx: RequestContext, host: Host, c: ContentRec): Record<string, unknown>[] =>
  c.pages.map((p) => presentPage(ctx, host, p, p.slug));

function presentRevision(ctx: RequestContext, host: Host, c: ContentRec): Record<string, unknown> {
  return {
    object: 'revision',
    id: c.revision,
    type: 'edits',
    parents: [...c.parents],
    pages: presentPages(ctx, host, c),
    files: c.files.map((f) => presentFile(ctx, host, f)),
    reusableContents: [],
    tags: [],
    variables: {},
    createdAt: c.createdAt,
    urls: { app: pageAppUrl(ctx, host, '') },
  };
}

export function requirePage(ctx: RequestContext, c: ContentRec): { page: PageRec; path: string } {
  const id = param(ctx, 'pageId');
  const hit = flattenPages(c.pages).find((x) => x.page.id === id);
  if (!hit) throw notFound(`page "${id}" not found in revision "${c.revision}"`);
  return hit;
}

export function requireFile(ctx: RequestContext, c: ContentRec): FileRec {
  const id = param(ctx, 'fileId');
  const f = c.files.find((x) => x.id === id);
  if (!f) throw notFound(`file "${id}" not found in revision "${c.revision}"`);
  return f;
}

/** A slug for `title` that no page at the top level has yet. */
function freeSlug(pages: readonly PageRec[], title: string): string {
  const base =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 90) || 'page';
  const taken = new Set(pages.map((p) => p.slug));
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}

/** management-api.md: `source` is an enum with only the sample `website` shown, so any non-empty name is taken. */
const importBody = object({ url: string({ max: 2048, format: 'uri' }), source: string({ min: 1, max: 100 }) }, [
  'url',
  'source',
]);

/** What a URL holds becomes one new page (the sandbox fetches nothing), in a new revision of the host. */
function importInto(ctx: RequestContext, host: Host, b: ReturnType<typeof importBody>): Record<string, unknown> {
  const c = contentOf(ctx, host);
  const url = new URL(b.url);
  const title = [...`${url.hostname}${url.pathname === '/' ? '' : url.pathname}`].slice(0, 100).join('');
  const now = ctx.now().toISOString();
  const pageId = ctx.store.nextId('pg', () => false);
  const page: PageRec = {
    id: pageId,
    title,
    slug: freeSlug(c.pages, title),
    kind: 'sheet',
    markdown: `Imported from [${b.url}](${b.url}) (${b.source}).`,
    pages: [],
    createdAt: now,
    updatedAt: now,
  };
  const revision = ctx.store.nextId('rev', () => false);
  putContent(ctx, host, { revision, parents: [c.revision], pages: [...c.pages, page], files: c.files, createdAt: now });
  return { revision, importedResources: 1, totalResources: 1 };
}

/** The spec's operation ids of one host's content (irregular: the space's carry no host name; import is OFF_SPEC's). */
const IDS = {
  space: {
    revision: 'getCurrentRevision',
    import: 'importContent',
    pages: 'listPages',
    files: 'listFiles',
    file: 'getFileById',
    page: 'getPageById',
  },
  'change-request': {
    revision: 'getRevisionOfChangeRequestById',
    import: 'importContentInChangeRequest',
    pages: 'listPagesInChangeRequest',
    files: 'listFilesInChangeRequestById',
    file: 'getFileInChangeRequestById',
    page: 'getPageInChangeRequestById',
  },
} as const;

/** What every content read starts from: the host the path names and its content. */
interface Read {
  host: Host;
  c: ContentRec;
}

/** The six content operations of one host. */
function hostRoutes(kind: HostKind): RouteTable {
  const base = `${kind.base}/content`;
  const ids = IDS[kind.name];
  const reading = (ctx: RequestContext): Read => {
    readFlags(ctx);
    return hostContent(ctx, kind);
  };
  return {
    [ids.revision]: read(base, reading, (ctx, { host, c }) => presentRevision(ctx, host, c)),
    [ids.import]: route({
      method: 'POST',
      pattern: `${base}/import`,
      body: importBody,
      handler: (ctx, b) => created(importInto(ctx, kind.resolve(ctx), b)),
    }),
    [ids.pages]: read(`${base}/pages`, reading, (ctx, { host, c }) => ({ pages: presentPages(ctx, host, c) })),
    [ids.files]: listPage(`${base}/files`, (ctx) => {
      const { host, c } = reading(ctx);
      return [c.files, (f: FileRec) => presentFile(ctx, host, f)];
    }),
    [ids.file]: read(`${base}/files/:fileId`, reading, (ctx, { host, c }) =>
      presentFile(ctx, host, requireFile(ctx, c)),
    ),
    [ids.page]: read(`${base}/page/:pageId`, reading, (ctx, { host, c }) => {
      const { page, path } = requirePage(ctx, c);
      return presentPage(ctx, host, page, path);
    }),
  };
}

export const contentRoutes: RouteTable = tableOf(...HOSTS.map(hostRoutes));
