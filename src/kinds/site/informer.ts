/**
 * The informer's view of Site: an event on site x re-reads x alone in the site list and the part of it that
 * changed — its sections, section groups or site spaces, its share links, its customization, its permission
 * lists. An update of the site itself may move its structure (the order lives on the site) and its adaptive
 * schema: those too.
 */
import type { KindInformer, StaleRead } from '../../core/kind.js';
import { actionOf, countLists, itemRead } from '../informer-common.js';
import { sitePath, sitesPath } from './model.js';

export const siteInformer: KindInformer = {
  targets: ['site'],
  stale(change, org, view) {
    const a = actionOf(change);
    if (!a) return undefined;
    const base = sitePath(org, change.id);
    const structure: StaleRead[] = [{ list: `${base}/sections` }, { list: `${base}/section-groups` }, { list: `${base}/site-spaces` }];
    switch (a.part) {
      case '':
        if (a.verb === 'deleted') return [itemRead(sitesPath(org), change.id, base), { under: base }, ...countLists(view, org)];
        return [itemRead(sitesPath(org), change.id, base), ...structure, { get: `${base}/adaptive-schema` }];
      // Each changed row of the structure is an event of its own part: one list each (they name each other by id).
      case 'section':
        return [{ list: `${base}/sections` }];
      case 'section-group':
        return [{ list: `${base}/section-groups` }];
      case 'site-space':
        return [{ list: `${base}/site-spaces` }];
      case 'structure': // PATCH …/structure/sort, as docops sends it: the order of any of them
        return structure;
      case 'adaptive-schema':
        return [{ get: `${base}/adaptive-schema` }];
      case 'share-link':
        return [{ list: `${base}/share-links` }];
      case 'customization':
        return [{ get: `${base}/customization` }];
      case 'permission':
        return [{ under: `${base}/permissions` }, ...countLists(view, org)];
      default:
        return undefined;
    }
  },
};
