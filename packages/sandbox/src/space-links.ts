/**
 * The links a space's content holds, as `GET /spaces/{id}/links` lists them (management-api.md; the official spec
 * has no such operation): each with its status (`ok`, `broken`: its target is missing in the revision, `in-app`),
 * its relation, what it points to and where it is written. The sandbox holds no page content, so links are records
 * of their own: seeded for the demo organization, or put by tests (`spaceLinks(store).put(…)`).
 */
import type { SandboxStore, Table } from './store.js';

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export interface SpaceLinkRec {
  id: string;
  spaceId: string;
  status: LinkStatus;
  relation: string;
  targetReference: Record<string, unknown>;
  locationReferences: Record<string, unknown>[];
  /** Written in a change request rather than in the space's live revision (counted in `stats.broken.changeRequest`). */
  changeRequest?: string;
}

export const spaceLinks = (s: SandboxStore): Table<SpaceLinkRec> => s.table('spaceLinks');

/** A link to a file of the space that is gone from its revision. */
export function brokenFileLink(orgId: string, spaceId: string, n: number, page: string): SpaceLinkRec {
  return {
    id: `${spaceId}/link-${n}`,
    spaceId,
    status: 'broken',
    relation: 'reference',
    targetReference: { kind: 'file', organization: orgId, space: spaceId, versionContext: { type: 'revision', revision: `rev-${spaceId}` }, file: `file-missing-${n}` },
    locationReferences: [{ kind: 'page', page }],
  };
}

/** A link to a URL that works. */
export function okUrlLink(spaceId: string, n: number, url: string, page: string): SpaceLinkRec {
  return { id: `${spaceId}/link-${n}`, spaceId, status: 'ok', relation: 'reference', targetReference: { kind: 'url', url }, locationReferences: [{ kind: 'page', page }] };
}
