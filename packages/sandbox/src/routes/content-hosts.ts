/**
 * The two places content and comments live (content-records.ts): a space (`/v1/spaces/:spaceId`) and a change
 * request of it (`…/change-requests/:changeRequestId`, by id or by its number in the space). Comment and content
 * routes are made once per host, so both answer alike.
 */
import { param, type RequestContext } from '../context.js';
import { notFound } from '../http.js';
import type { SpaceRec } from '../records.js';
import { spaces } from '../records.js';
import type { ChangeRequestRec, ContentRec, HostKey } from '../content-records.js';
import { changeRequestHost, changeRequests, spaceContent, spaceHost } from '../content-records.js';
import { requireSpace } from './spaces.js';

export interface Host {
  key: HostKey;
  space: SpaceRec;
  changeRequest?: ChangeRequestRec;
}

export interface HostKind {
  /** `space` or `change-request`: names the host in messages and in `target.changeRequest`. */
  name: 'space' | 'change-request';
  /** Its name in the spec's operation ids: listCommentsInSpace, listCommentsInChangeRequest. */
  noun: 'Space' | 'ChangeRequest';
  /** The route pattern of the host, below which its comments and content are served. */
  base: string;
  resolve(ctx: RequestContext): Host;
}

const SPACE = '/v1/spaces/:spaceId';

function requireChangeRequest(ctx: RequestContext, space: SpaceRec): ChangeRequestRec {
  const ref = param(ctx, 'changeRequestId');
  const found = changeRequests(ctx.store).where(
    (c) => c.spaceId === space.id && (c.id === ref || String(c.number) === ref),
  )[0];
  if (!found) throw notFound(`change request "${ref}" not found in space "${space.id}"`);
  return found;
}

export const SPACE_HOST: HostKind = {
  name: 'space',
  noun: 'Space',
  base: SPACE,
  resolve: (ctx) => {
    const space = requireSpace(ctx, { active: true });
    return { key: spaceHost(space.id), space };
  },
};

export const CHANGE_REQUEST_HOST: HostKind = {
  name: 'change-request',
  noun: 'ChangeRequest',
  base: `${SPACE}/change-requests/:changeRequestId`,
  resolve: (ctx) => {
    const space = requireSpace(ctx, { active: true });
    const changeRequest = requireChangeRequest(ctx, space);
    return { key: changeRequestHost(changeRequest.id), space, changeRequest };
  },
};

export const HOSTS: readonly HostKind[] = [SPACE_HOST, CHANGE_REQUEST_HOST];

/** The revision a host is at when it holds no stored content yet. */
const initialRevision = (host: Host): string =>
  host.changeRequest ? `rev-${host.changeRequest.id}` : host.space.revision;

/** The host's content: its stored row, or no pages and no files at its initial revision. */
export function contentOf(ctx: RequestContext, host: Host): ContentRec {
  return (
    spaceContent(ctx.store).get(host.key) ?? {
      id: host.key,
      revision: initialRevision(host),
      parents: [],
      pages: [],
      files: [],
      createdAt: host.space.createdAt,
    }
  );
}

/** Store a new revision of the host's content; a space's `revision` follows its content. */
export function putContent(ctx: RequestContext, host: Host, next: Omit<ContentRec, 'id'>): ContentRec {
  const row = spaceContent(ctx.store).put({ ...next, id: host.key });
  if (!host.changeRequest) spaces(ctx.store).put({ ...host.space, revision: row.revision, updatedAt: row.createdAt });
  return row;
}

/** The host a request names and its content: what every content read starts from. */
export function hostContent(ctx: RequestContext, kind: HostKind): { host: Host; c: ContentRec } {
  const host = kind.resolve(ctx);
  return { host, c: contentOf(ctx, host) };
}
