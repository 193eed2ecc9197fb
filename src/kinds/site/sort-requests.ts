/**
 * The requests of a site's reorder step. An item that stays among its siblings (a top-level section or group, a
 * section inside its group, a site space inside its section or at the root) is moved with the official
 * sortSiteStructure: `PATCH …/structure/sort {item: {type, id}, position: {before|after: {type, id}}}`. A site
 * space that arrives from another section cannot be sorted there (sorting "changes sibling order only"), so it
 * keeps the deprecated `POST …/site-spaces/{id}/move` next to a site space of its new section, the one operation
 * management-api.md lists for that (docs/dev/api-differences.md).
 */
import type { RequestSpec } from '../../model/plan.js';
import { seg } from '../common.js';
import type { Move } from './moves.js';
import { base, type SiteScope } from './scope.js';

/** The spec's SiteStructureItemPointer types docops sorts (it manages no external links). */
export type StructureType = 'site-space' | 'site-section' | 'site-section-group';

export function sortRequest(scope: SiteScope, m: Move, typeOf: (id: string) => StructureType): RequestSpec {
  return {
    method: 'PATCH',
    path: `${base(scope)}/structure/sort`,
    body: {
      item: { type: typeOf(m.item), id: m.item },
      position: { [m.position]: { type: typeOf(m.anchor), id: m.anchor } },
    },
  };
}

export function siteSpaceMoveRequest(scope: SiteScope, m: Move): RequestSpec {
  return {
    method: 'POST',
    path: `${base(scope)}/site-spaces/${seg(m.item)}/move`,
    body: { position: { [m.position]: { type: 'site-space', siteSpace: m.anchor } } },
    idempotent: true,
  };
}
