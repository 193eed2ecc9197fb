/**
 * Comments and their replies, on spaces and on change requests (management-api.md "Space comments", "Change
 * request comments"; the spec's Comment and CommentReply). One set of handlers serves both hosts (content-hosts.ts)
 * and both levels: a reply is a comment row with a `parent`, and what they share (body, reactions, edit, delete) is
 * written once, under the spec's operation ids of each host. Deletes answer 205, or 204 when there was nothing to
 * delete (the spec's pair); a comment takes its replies with it.
 */
import { param, type RequestContext } from '../context.js';
import { badRequest, notFound, ok, type Reply } from '../http.js';
import { queryEnum, queryString } from '../query.js';
import { bodyIn, type DocumentFormat } from '../document.js';
import type { CommentRec } from '../content-records.js';
import { comments, flattenPages } from '../content-records.js';
import { array, boolean, isPlainObject, object, string, type Validator } from '../validate.js';
import { isOrgAdmin, presentUser, requireUser } from './common.js';
import { HOSTS, contentOf, type Host, type HostKind } from './content-hosts.js';
import { dropBuried, listPage, newId, read, remove, update } from './crud.js';
import { route, tableOf, type RouteTable } from './table.js';

/** The spec's Document: `{markdown}` or `{document: JSONDocument}` (whose inner shape the spec's schema checks). */
const markdownBody = object({ markdown: string() }, ['markdown']);
const documentBody = object(
  {
    document: (v: unknown, path: string) => {
      if (!isPlainObject(v)) throw badRequest(`${path}: must be an object`);
      return v;
    },
  },
  ['document'],
);
export const documentInput: Validator<CommentRec['body']> = (v, path) =>
  isPlainObject(v) && 'document' in v ? documentBody(v, path) : markdownBody(v, path);

const reactions = array(string({ min: 1, max: 50 }));
const postComment = object(
  { node: string({ min: 1 }), page: string({ min: 1 }), body: documentInput, tableCell: (v: unknown) => v },
  ['body'],
);
const updateComment = object({
  resolved: boolean(),
  body: documentInput,
  addedReactions: reactions,
  removedReactions: reactions,
});
const postReply = object({ body: documentInput }, ['body']);
const updateReply = object({ body: documentInput, addedReactions: reactions, removedReactions: reactions });
type Edit = ReturnType<typeof updateReply>;

const format = (ctx: RequestContext): DocumentFormat | undefined =>
  queryEnum(ctx.query, 'format', ['document', 'markdown']);

function itemUrl(ctx: RequestContext, host: Host, c: CommentRec): string {
  const base = host.changeRequest
    ? `/spaces/${host.space.id}/change-requests/${host.changeRequest.id}`
    : `/spaces/${host.space.id}`;
  return ctx.apiUrl(c.parent ? `${base}/comments/${c.parent}/replies/${c.id}` : `${base}/comments/${c.id}`);
}

/** What comments and replies share: author, body, reactions, URL and the caller's permissions. */
function presentItem(ctx: RequestContext, host: Host, c: CommentRec): Record<string, unknown> {
  const mine = c.postedBy === ctx.userId || isOrgAdmin(ctx, host.space.orgId);
  return {
    object: c.parent ? 'comment-reply' : 'comment',
    id: c.id,
    postedBy: presentUser(ctx, requireUser(ctx, c.postedBy)),
    postedAt: c.postedAt,
    ...(c.editedAt ? { editedAt: c.editedAt } : {}),
    reactions: c.reactions.map((r) => ({
      emoji: r.emoji,
      count: r.users.length,
      users: r.users.map((u) => ({ user: presentUser(ctx, requireUser(ctx, u.userId)), reactedAt: u.reactedAt })),
    })),
    body: bodyIn(c.body, format(ctx)),
    urls: { location: itemUrl(ctx, host, c) },
    permissions: { view: true, edit: mine, reply: true, delete: mine },
  };
}

const repliesOf = (ctx: RequestContext, c: CommentRec): CommentRec[] =>
  comments(ctx.store).where((r) => r.parent === c.id);

function presentComment(ctx: RequestContext, host: Host, c: CommentRec): Record<string, unknown> {
  const replies = repliesOf(ctx, c);
  const repliers = new Map<string, { count: number; updatedAt: string }>();
  for (const r of replies)
    repliers.set(r.postedBy, {
      count: (repliers.get(r.postedBy)?.count ?? 0) + 1,
      updatedAt: r.editedAt ?? r.postedAt,
    });
  const page =
    c.page === undefined ? undefined : flattenPages(contentOf(ctx, host).pages).find((x) => x.page.id === c.page);
  return {
    ...presentItem(ctx, host, c),
    replies: replies.length,
    repliers: [...repliers].map(([userId, x]) => ({ user: presentUser(ctx, requireUser(ctx, userId)), ...x })),
    target: {
      space: host.space.id,
      revision: c.revision,
      ...(host.changeRequest ? { changeRequest: host.changeRequest.id } : {}),
      ...(c.node !== undefined ? { node: { id: c.node } } : {}),
      ...(c.page !== undefined
        ? {
            page: {
              id: c.page,
              ...(page ? { title: page.page.title, path: page.path, outdated: false } : { outdated: true }),
            },
          }
        : {}),
    },
    ...(c.resolvedAt !== undefined && c.resolvedBy !== undefined
      ? { status: 'resolved', resolvedAt: c.resolvedAt, resolvedBy: presentUser(ctx, requireUser(ctx, c.resolvedBy)) }
      : { status: 'open' }),
  };
}

/** The comment (no `parentId`) or the reply of comment `parentId`, named by path parameter `name`, in the host. */
function findItem(ctx: RequestContext, host: Host, name: string, parentId?: string): CommentRec | undefined {
  const c = comments(ctx.store).get(param(ctx, name));
  return c && c.host === host.key && c.parent === parentId ? c : undefined;
}

function requireItem(ctx: RequestContext, host: Host, name: string, parentId?: string): CommentRec {
  const c = findItem(ctx, host, name, parentId);
  if (!c)
    throw notFound(
      `${parentId ? 'reply' : 'comment'} "${param(ctx, name)}" not found in ${host.changeRequest ? `change request "${host.changeRequest.id}"` : `space "${host.space.id}"`}`,
    );
  return c;
}

/** A body change (edited now) and the caller's reactions added or taken away. */
function edit(ctx: RequestContext, c: CommentRec, b: Edit): CommentRec {
  const now = ctx.now().toISOString();
  const next: CommentRec = {
    ...c,
    reactions: c.reactions.map((r) => ({
      ...r,
      users: r.users.filter((u) => u.userId !== ctx.userId || !b.removedReactions?.includes(r.emoji)),
    })),
  };
  if (b.body !== undefined) Object.assign(next, { body: b.body, editedAt: now });
  for (const emoji of b.addedReactions ?? []) {
    const r =
      next.reactions.find((x) => x.emoji === emoji) ??
      (next.reactions.push({ emoji, users: [] }), next.reactions[next.reactions.length - 1]!);
    if (!r.users.some((u) => u.userId === ctx.userId)) r.users.push({ userId: ctx.userId, reactedAt: now });
  }
  next.reactions = next.reactions.filter((r) => r.users.length > 0);
  return comments(ctx.store).put(next);
}

function newItem(ctx: RequestContext, host: Host, fields: Pick<CommentRec, 'body'> & Partial<CommentRec>): CommentRec {
  const id = newId(ctx, comments(ctx.store), 'cm', 'comment');
  return comments(ctx.store).put({
    id,
    host: host.key,
    spaceId: host.space.id,
    postedBy: ctx.userId,
    postedAt: ctx.now().toISOString(),
    revision: contentOf(ctx, host).revision,
    reactions: [],
    ...fields,
  });
}

/** A comment or reply with the host it was found in: what the presenters take. */
interface Found {
  host: Host;
  c: CommentRec;
}

function listComments(ctx: RequestContext, host: Host): CommentRec[] {
  const status = queryEnum(ctx.query, 'status', ['all', 'open', 'resolved']) ?? 'all';
  const order = queryEnum(ctx.query, 'order', ['asc', 'desc']) ?? 'desc';
  const targetPage = queryString(ctx.query, 'targetPage');
  const authors = ctx.query.getAll('authors');
  format(ctx);
  const list = comments(ctx.store).where(
    (c) =>
      c.host === host.key &&
      c.parent === undefined &&
      (status === 'all' || (status === 'resolved') === (c.resolvedAt !== undefined)) &&
      (targetPage === undefined || c.page === targetPage) &&
      (authors.length === 0 || authors.includes(c.postedBy)),
  );
  if (order === 'desc') list.reverse(); // newest first, the spec's default order
  return list;
}

function postCommentIn(ctx: RequestContext, host: Host, b: ReturnType<typeof postComment>): Reply {
  if (b.page !== undefined && !flattenPages(contentOf(ctx, host).pages).some((x) => x.page.id === b.page)) {
    throw badRequest(
      `body.page: page "${b.page}" not found in ${host.changeRequest ? 'the change request' : `space "${host.space.id}"`}`,
    );
  }
  const c = newItem(ctx, host, {
    body: b.body,
    ...(b.page !== undefined ? { page: b.page } : {}),
    ...(b.node !== undefined ? { node: b.node } : {}),
  });
  return ok(presentComment(ctx, host, c));
}

function updateCommentIn(ctx: RequestContext, host: Host, b: ReturnType<typeof updateComment>): Found {
  const c = edit(ctx, requireItem(ctx, host, 'commentId'), b);
  if (b.resolved === undefined) return { host, c };
  const { resolvedAt: _at, resolvedBy: _by, ...open } = c;
  const next: CommentRec = b.resolved
    ? { ...c, resolvedAt: c.resolvedAt ?? ctx.now().toISOString(), resolvedBy: c.resolvedBy ?? ctx.userId }
    : open;
  return { host, c: comments(ctx.store).put(next) };
}

/** Delete a comment (with its replies) or a reply; whether it was there. */
function deleteItem(ctx: RequestContext, found: CommentRec | undefined): boolean {
  if (found) for (const r of repliesOf(ctx, found)) comments(ctx.store).delete(r.id);
  return dropBuried(ctx, 'comment', found, comments(ctx.store));
}

const asComment = (ctx: RequestContext, f: Found): Record<string, unknown> => presentComment(ctx, f.host, f.c);
const asItem = (ctx: RequestContext, f: Found): Record<string, unknown> => presentItem(ctx, f.host, f.c);

/** The ten operations on one host's comments and replies, under the spec's operation ids (listCommentsInSpace …). */
function hostRoutes(kind: HostKind): RouteTable {
  const list = `${kind.base}/comments`;
  const one = `${list}/:commentId`;
  const replies = `${one}/replies`;
  const reply = `${replies}/:commentReplyId`;
  const at = kind.noun;
  const parent = (ctx: RequestContext, host: Host): string => requireItem(ctx, host, 'commentId').id;
  const comment = (ctx: RequestContext): Found => {
    const host = kind.resolve(ctx);
    return { host, c: requireItem(ctx, host, 'commentId') };
  };
  const replyOf = (ctx: RequestContext): Found => {
    const host = kind.resolve(ctx);
    return { host, c: requireItem(ctx, host, 'commentReplyId', parent(ctx, host)) };
  };
  return {
    [`listCommentsIn${at}`]: listPage(list, (ctx) => {
      const host = kind.resolve(ctx);
      return [listComments(ctx, host), (c: CommentRec) => presentComment(ctx, host, c)];
    }),
    [`postCommentIn${at}`]: route({
      method: 'POST',
      pattern: list,
      body: postComment,
      handler: (ctx, b) => postCommentIn(ctx, kind.resolve(ctx), b),
    }),
    [`getCommentIn${at}`]: read(one, comment, asComment),
    [`updateCommentIn${at}`]: update(
      one,
      updateComment,
      (ctx, b) => updateCommentIn(ctx, kind.resolve(ctx), b),
      asComment,
      'PUT',
    ),
    [`deleteCommentIn${at}`]: remove(one, (ctx) => {
      const host = kind.resolve(ctx);
      return deleteItem(ctx, findItem(ctx, host, 'commentId'));
    }),
    [`listCommentRepliesIn${at}`]: listPage(replies, (ctx) => {
      const host = kind.resolve(ctx);
      format(ctx);
      return [repliesOf(ctx, requireItem(ctx, host, 'commentId')), (r: CommentRec) => presentItem(ctx, host, r)];
    }),
    [`postCommentReplyIn${at}`]: route({
      method: 'POST',
      pattern: replies,
      body: postReply,
      handler: (ctx, b) => {
        const host = kind.resolve(ctx);
        return ok(presentItem(ctx, host, newItem(ctx, host, { body: b.body, parent: parent(ctx, host) })));
      },
    }),
    [`getCommentReplyIn${at}`]: read(reply, replyOf, asItem),
    [`updateCommentReplyIn${at}`]: update(
      reply,
      updateReply,
      (ctx, b) => {
        const { host, c } = replyOf(ctx);
        return { host, c: edit(ctx, c, b) };
      },
      asItem,
      'PUT',
    ),
    [`deleteCommentReplyIn${at}`]: remove(reply, (ctx) => {
      const host = kind.resolve(ctx);
      return deleteItem(ctx, findItem(ctx, host, 'commentReplyId', parent(ctx, host)));
    }),
  };
}

export const commentRoutes: RouteTable = tableOf(...HOSTS.map(hostRoutes));
