/**
 * The informer's view of Site: an event on site x re-reads x alone in the site list and the part of it that
 * changed — its sections, section groups or site spaces, its share links, its customization, its permission
 * lists, its redirect rules (both lists: live and draft), its external links (read from its structure), its
 * visitor sign-in settings. An update of the site itself may move its structure (the order lives on the site) and
 * its adaptive schema: those too. A group's change may move its external links (a deleted group's go to its
 * container), and a section or site space that goes may leave a redirect naming it: those are read again too.
 */
import type { KindInformer, StaleRead } from '../../model/kind.js';
import { actionOf, countLists, itemRead } from '../informer-common.js';
import { sitePath, sitesPath } from './model.js';

export const siteInformer: KindInformer = {
  targets: ['site'],
  stale(change, org, view) {
    const a = actionOf(change);
    if (!a) return undefined;
    const base = sitePath(org, change.id);
    const links: StaleRead = { get: `${base}/structure` };
    const structure: StaleRead[] = [
      { list: `${base}/sections` },
      { list: `${base}/section-groups` },
      { list: `${base}/site-spaces` },
      links,
    ];
    const redirects: StaleRead = { list: `${base}/redirects` };
    switch (a.part) {
      case '':
        if (a.verb === 'deleted')
          return [itemRead(sitesPath(org), change.id, base), { under: base }, ...countLists(view, org)];
        return [itemRead(sitesPath(org), change.id, base), ...structure, { get: `${base}/adaptive-schema` }];
      // Each changed row of the structure is an event of its own part: one list each (they name each other by id).
      case 'section':
        return [{ list: `${base}/sections` }, ...(a.verb === 'deleted' ? [redirects] : [])];
      case 'section-group':
        return [{ list: `${base}/section-groups` }, links];
      case 'site-space':
        return [{ list: `${base}/site-spaces` }, ...(a.verb === 'deleted' ? [redirects] : [])];
      case 'structure': // PATCH …/structure/sort, as docops sends it: the order of any of them
        return structure;
      case 'adaptive-schema':
        return [{ get: `${base}/adaptive-schema` }];
      case 'share-link':
        return [{ list: `${base}/share-links` }];
      case 'customization':
        return [{ get: `${base}/customization` }];
      case 'redirect':
        return [redirects];
      case 'external-link':
        return [links];
      case 'publishing':
        return [{ get: `${base}/publishing/auth` }];
      case 'permission':
        return [{ under: `${base}/permissions` }, ...countLists(view, org)];
      default:
        return undefined;
    }
  },
};
