/**
 * The sandbox's API as a table: each operation under the official spec's operationId (those only
 * management-api.md has under the OFF_SPEC names), in the order the router tries them (the first pattern that
 * matches wins: `…/versions/latest` before `…/versions/:versionId`). test/sandbox/route-table.test.ts holds every
 * key to the spec's method and path, and every OFF_SPEC name to an operation the spec lacks.
 */
import type { RouteDef } from '../router.js';

/** Operation id → route. */
export type RouteTable = Readonly<Record<string, RouteDef>>;

/**
 * Operations management-api.md (normative) defines and the official spec does not, named as the spec names
 * their siblings (transferCollection; listPages / listPagesInChangeRequest; addSectionToSite …), each with why.
 */
export const OFF_SPEC: Readonly<Record<string, string>> = {
  transferSpace:
    'management-api.md "Spaces" lists POST /spaces/{spaceId}/transfer; the spec transfers collections only',
  importContent:
    'management-api.md "Space content" lists POST /spaces/{spaceId}/content/import; the spec imports Git repositories only',
  importContentInChangeRequest:
    'management-api.md "Change request content" lists the import under a change request too',
  listPageLinks:
    'management-api.md "Space content" lists GET …/content/page/{pageId}/links; the spec has meta-links only',
  listFileBacklinks:
    'management-api.md "Space content" lists GET …/content/files/{fileId}/backlinks; the spec has none',
  listPageLinksInChangeRequest:
    'management-api.md "Change request content" lists the page links under a change request too',
  listFileBacklinksInChangeRequest:
    'management-api.md "Change request content" lists the file backlinks under a change request too',
  listSpaceLinks: 'management-api.md "Spaces" lists GET /spaces/{spaceId}/links (with stats); the spec has none',
  addSectionToSiteSectionGroup:
    'management-api.md "Site section groups" lists POST …/section-groups/{id}/sections; the spec moves sections by PATCH',
  removeSectionFromSiteSectionGroup:
    'management-api.md "Site section groups" lists DELETE …/section-groups/{id}/sections/{sectionId}',
};

/** One operation: its handler typed by its body's validator, kept as the router keeps every route. */
// eslint-disable-next-line no-restricted-syntax -- a route's handler is typed by its own body; the table holds them all
export const route = <B = undefined>(def: RouteDef<B>): RouteDef => def as unknown as RouteDef;

/** The tables of the resource modules as one, in their order; an operation id in two of them is a mistake. */
export function tableOf(...tables: RouteTable[]): RouteTable {
  const all: Record<string, RouteDef> = {};
  for (const table of tables) {
    for (const [id, def] of Object.entries(table)) {
      if (id in all) throw new Error(`operation ${id} is in two route tables`);
      all[id] = def;
    }
  }
  return all;
}
