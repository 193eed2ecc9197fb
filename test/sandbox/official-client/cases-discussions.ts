/**
 * Comments and replies on a space and on a change request, through the official client: the same ten cases for
 * both hosts (the client's `…InSpace` and `…InChangeRequest` methods), each checking status and effect.
 */
import { expect } from 'vitest';
import type { Json } from '../helpers.js';
import { expectStatus, statusOf, type Env } from './harness.js';
import type { Case } from './cases.js';

type Call = (...args: unknown[]) => Promise<{ status: number; data: Json }>;

/** The seeded comment, reply and page of each host (packages/sandbox/src/seed-content.ts). */
const HOSTS = [
  {
    suffix: 'InSpace',
    ids: ['sp-api'],
    comment: 'cm-api-1',
    reply: 'cm-api-1-r1',
    page: 'pg-api-auth',
    comments: ['cm-api-2', 'cm-api-1'],
  },
  {
    suffix: 'InChangeRequest',
    ids: ['sp-api', 'cr-api-1'],
    comment: 'cm-cr-1',
    reply: 'cm-cr-1-r1',
    page: 'pg-api-limits',
    comments: ['cm-cr-1'],
  },
] as const;

function hostCases(h: (typeof HOSTS)[number]): Case[] {
  /** The client method `<verb><suffix>` with the host's ids first. */
  const op = ({ api }: Env, verb: string): ((...args: unknown[]) => Promise<{ status: number; data: Json }>) => {
    const fn = (api.spaces as unknown as Record<string, Call>)[`${verb}${h.suffix}`];
    if (!fn) throw new Error(`the client has no ${verb}${h.suffix}`);
    return (...args) => fn.call(api.spaces, ...h.ids, ...args);
  };
  const post = async (env: Env, body: Json = { markdown: 'A question' }): Promise<Json> =>
    expectStatus(op(env, 'postComment')({ page: h.page, body }), 200);
  const reply = async (env: Env, comment: string): Promise<Json> =>
    expectStatus(op(env, 'postCommentReply')(comment, { body: { markdown: 'An answer' } }), 200);
  return [
    {
      name: `listComments${h.suffix}: status, order, authors, targetPage, format`,
      run: async (env) => {
        const list = op(env, 'listComments');
        expect((await expectStatus(list(), 200)).items.map((c: Json) => c.id)).toEqual(h.comments);
        const mine = await post(env);
        expect(
          (
            await expectStatus(
              list({ order: 'asc', status: 'open', authors: ['u-ada'], targetPage: h.page, format: 'document' }),
              200,
            )
          ).items.map((c: Json) => c.id),
        ).toEqual([mine.id]);
        if (h.suffix === 'InSpace')
          expect((await expectStatus(list({ status: 'resolved' }), 200)).items.map((c: Json) => c.id)).toEqual([
            'cm-api-2',
          ]);
      },
    },
    {
      name: `postComment${h.suffix}: page, markdown body; then a document body`,
      run: async (env) => {
        const c = await post(env);
        expect(c).toMatchObject({
          object: 'comment',
          status: 'open',
          replies: 0,
          body: { markdown: 'A question' },
          target: { page: { id: h.page } },
          postedBy: { id: 'u-ada' },
        });
        const doc = {
          object: 'document',
          data: {},
          nodes: [
            {
              object: 'block',
              type: 'paragraph',
              nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'From a document', marks: [] }] }],
            },
          ],
        };
        const d = await expectStatus(op(env, 'postComment')({ body: { document: doc } }), 200);
        expect((await expectStatus(op(env, 'getComment')(d.id), 200)).body).toEqual({ markdown: 'From a document' });
      },
    },
    {
      name: `getComment${h.suffix}: format document`,
      run: async (env) => {
        const c = await expectStatus(op(env, 'getComment')(h.comment, { format: 'document' }), 200);
        expect(c.body.document).toMatchObject({ object: 'document' });
        expect(await statusOf(op(env, 'getComment')('cm-nope'))).toBe(404);
      },
    },
    {
      name: `updateComment${h.suffix}: resolved, body, reactions`,
      run: async (env) => {
        const update = op(env, 'updateComment');
        const c = await expectStatus(
          update(h.comment, { resolved: true, body: { markdown: 'Edited' }, addedReactions: ['🎉'] }),
          200,
        );
        expect(c).toMatchObject({ status: 'resolved', resolvedBy: { id: 'u-ada' }, body: { markdown: 'Edited' } });
        expect(c.editedAt).toBeTypeOf('string');
        expect(c.reactions.find((r: Json) => r.emoji === '🎉')).toMatchObject({ count: 1 });
        const open = await expectStatus(update(h.comment, { resolved: false, removedReactions: ['🎉'] }), 200);
        expect(open.status).toBe('open');
        expect(open.reactions.some((r: Json) => r.emoji === '🎉')).toBe(false);
      },
    },
    {
      name: `deleteComment${h.suffix}`,
      run: async (env) => {
        expect(await statusOf(op(env, 'deleteComment')(h.comment))).toBe(205);
        expect(await statusOf(op(env, 'getComment')(h.comment))).toBe(404);
        expect(await statusOf(op(env, 'deleteComment')(h.comment))).toBe(204);
      },
    },
    {
      name: `listCommentReplies${h.suffix}: limit, format`,
      run: async (env) => {
        const c = await post(env);
        await reply(env, c.id);
        await reply(env, c.id);
        const page = await expectStatus(op(env, 'listCommentReplies')(c.id, { limit: 1, format: 'markdown' }), 200);
        expect(page.items).toHaveLength(1);
        expect(page.next?.page).toBeTypeOf('string');
        expect((await expectStatus(op(env, 'getComment')(c.id), 200)).replies).toBe(2);
      },
    },
    {
      name: `postCommentReply${h.suffix}`,
      run: async (env) => {
        const r = await reply(env, h.comment);
        expect(r).toMatchObject({ object: 'comment-reply', body: { markdown: 'An answer' } });
        expect(
          (await expectStatus(op(env, 'getComment')(h.comment), 200)).repliers.map((x: Json) => x.user.id),
        ).toContain('u-ada');
      },
    },
    {
      name: `getCommentReply${h.suffix}: format`,
      run: async (env) => {
        const id = h.reply;
        expect((await expectStatus(op(env, 'getCommentReply')(h.comment, id, { format: 'markdown' }), 200)).id).toBe(
          id,
        );
        expect(await statusOf(op(env, 'getCommentReply')(h.comment, 'cm-nope'))).toBe(404);
      },
    },
    {
      name: `updateCommentReply${h.suffix}: body, reactions`,
      run: async (env) => {
        const id = h.reply;
        const r = await expectStatus(
          op(env, 'updateCommentReply')(h.comment, id, { body: { markdown: 'Better' }, addedReactions: ['👀'] }),
          200,
        );
        expect(r).toMatchObject({ body: { markdown: 'Better' }, reactions: [{ emoji: '👀', count: 1 }] });
      },
    },
    {
      name: `deleteCommentReply${h.suffix}`,
      run: async (env) => {
        const id = h.reply;
        expect(await statusOf(op(env, 'deleteCommentReply')(h.comment, id))).toBe(205);
        expect(await statusOf(op(env, 'getCommentReply')(h.comment, id))).toBe(404);
        expect(await statusOf(op(env, 'deleteCommentReply')(h.comment, id))).toBe(204);
      },
    },
  ];
}

export const DISCUSSION_CASES: Case[] = HOSTS.flatMap(hostCases);
