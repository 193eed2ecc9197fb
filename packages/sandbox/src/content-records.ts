/**
 * Stored content of spaces and change requests (pages, files), the change requests themselves, and the comments
 * and replies on both. A space and each of its change requests hold their content apart (a "host"); a change
 * request starts from a copy of its space's content. Records are plain JSON like every other table.
 */
import type { SandboxStore, Table } from './store.js';

/** Where content and comments live: a space, or one change request of a space. */
export type HostKey = `space:${string}` | `change-request:${string}`;
export const spaceHost = (spaceId: string): HostKey => `space:${spaceId}`;
export const changeRequestHost = (changeRequestId: string): HostKey => `change-request:${changeRequestId}`;

export interface PageRec {
  id: string;
  title: string;
  slug: string;
  /** `sheet`: a document page (markdown), `group`: a heading of pages, `link`: an entry pointing elsewhere. */
  kind: 'sheet' | 'group' | 'link';
  markdown?: string;
  description?: string;
  emoji?: string;
  /** `link` pages: where they point. */
  href?: string;
  pages: PageRec[];
  createdAt: string;
  updatedAt: string;
}

export interface FileRec {
  id: string;
  name: string;
  contentType: string;
  size: number;
  dimensions?: { width: number; height: number };
}

/** id = the host key. A host without a row holds no pages and no files, at its space's (or change request's) revision. */
export interface ContentRec {
  id: HostKey;
  revision: string;
  parents: string[];
  pages: PageRec[];
  files: FileRec[];
  createdAt: string;
}

export interface ChangeRequestRec {
  id: string;
  spaceId: string;
  /** The number within the space (`changeRequestId` may name a change request by it). */
  number: number;
  subject: string;
  status: 'draft' | 'open' | 'merged' | 'archived';
  createdBy: string;
  createdAt: string;
}

export interface ReactionRec {
  emoji: string;
  users: { userId: string; reactedAt: string }[];
}

/** A comment (no `parent`) or a reply (`parent` = the comment's id); replies share the comment's host. */
export interface CommentRec {
  id: string;
  host: HostKey;
  spaceId: string;
  parent?: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  /** The body as sent: `{markdown}` or `{document}` (a JSON document). */
  body: { markdown: string } | { document: Record<string, unknown> };
  page?: string;
  node?: string;
  /** The revision of the host when the comment was posted. */
  revision: string;
  resolvedAt?: string;
  resolvedBy?: string;
  reactions: ReactionRec[];
}

export const spaceContent = (s: SandboxStore): Table<ContentRec> => s.table('spaceContent');
export const changeRequests = (s: SandboxStore): Table<ChangeRequestRec> => s.table('changeRequests');
export const comments = (s: SandboxStore): Table<CommentRec> => s.table('comments');

/** Every page of a tree, depth first (a page before its children), with its path of slugs. */
export function flattenPages(
  pages: readonly PageRec[],
  prefix = '',
): { page: PageRec; path: string; ancestors: PageRec[] }[] {
  return pages.flatMap((page) => {
    const path = prefix === '' ? page.slug : `${prefix}/${page.slug}`;
    return [
      { page, path, ancestors: [] as PageRec[] },
      ...flattenPages(page.pages, path).map((x) => ({ ...x, ancestors: [page, ...x.ancestors] })),
    ];
  });
}

/** What a link in a page points to: a page or a file of the same content, or a URL. */
export type LinkTarget = { page: string } | { file: string } | { url: string };

/** A link as page markdown writes it: `/pages/<id>`, `/files/<id>` or the URL (content-links.ts reads it back). */
export function linkMarkdown(target: LinkTarget, text = 'link'): string {
  const to = 'page' in target ? `/pages/${target.page}` : 'file' in target ? `/files/${target.file}` : target.url;
  return `[${text}](${to})`;
}

/**
 * Add a link to a page of a host's content — a space's (`spaceHost(id)`) or a change request's
 * (`changeRequestHost(id)`, whose record must exist for its space's `stats` to count it) — adding the page when the
 * content lacks it. A page or file the content lacks makes the link `broken`. For tests and seeds: links are only
 * ever read from content (`GET …/links`), so this is how a test gives a space a broken link. The revision is kept.
 */
export function putPageLink(store: SandboxStore, host: HostKey, pageId: string, target: LinkTarget): ContentRec {
  const at = new Date(0).toISOString();
  const c = structuredClone(spaceContent(store).get(host)) ?? {
    id: host,
    revision: `rev-${host.slice(host.indexOf(':') + 1)}`,
    parents: [],
    pages: [],
    files: [],
    createdAt: at,
  };
  const found = flattenPages(c.pages).find((x) => x.page.id === pageId)?.page;
  const page = found ?? {
    id: pageId,
    title: pageId,
    slug: pageId,
    kind: 'sheet' as const,
    markdown: `# ${pageId}`,
    pages: [],
    createdAt: at,
    updatedAt: at,
  };
  page.markdown = `${page.markdown ?? ''}\n\n${linkMarkdown(target)}`;
  if (!found) c.pages.push(page);
  return spaceContent(store).put(c);
}

/** Forget what a purged space held: its content, its change requests with theirs, and every comment. */
export function dropSpaceContent(store: SandboxStore, spaceId: string): void {
  for (const cr of changeRequests(store).where((c) => c.spaceId === spaceId)) {
    spaceContent(store).delete(changeRequestHost(cr.id));
    changeRequests(store).delete(cr.id);
  }
  spaceContent(store).delete(spaceHost(spaceId));
  for (const c of comments(store).where((x) => x.spaceId === spaceId)) comments(store).delete(c.id);
}

/** A space's open comments (on the space itself) and its change requests by status. */
export function discussionCounts(
  store: SandboxStore,
  spaceId: string,
): Record<'comments' | 'changeRequests' | 'changeRequestsOpen' | 'changeRequestsDraft', number> {
  const crs = changeRequests(store).where((c) => c.spaceId === spaceId);
  return {
    comments: comments(store).where(
      (c) => c.host === spaceHost(spaceId) && c.parent === undefined && c.resolvedAt === undefined,
    ).length,
    changeRequests: crs.length,
    changeRequestsOpen: crs.filter((c) => c.status === 'open').length,
    changeRequestsDraft: crs.filter((c) => c.status === 'draft').length,
  };
}
