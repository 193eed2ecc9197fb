/**
 * The informer's view of Space: an event on space s re-reads s alone in the space list (a space in the bin is not
 * listed), and the site space lists that show its title; a space deleted or restored also its permission lists.
 * A change of its access re-reads its permission lists.
 */
import type { KindInformer } from '../../model/kind.js';
import { orgPath } from '../common.js';
import { actionOf, countLists, itemRead, listsNaming } from '../informer-common.js';
import { orgSpacesPath, spacePath } from './model.js';

export const spaceInformer: KindInformer = {
  targets: ['space'],
  stale(change, org, view) {
    const a = actionOf(change);
    if (!a) return undefined;
    const path = spacePath(change.id);
    if (a.part === 'permission') return [{ under: `${path}/permissions` }, ...countLists(view, org)];
    if (a.part !== '') return undefined;
    const shownBy = listsNaming(view, `${orgPath(org)}/sites/`, '/site-spaces', 'space', change.id);
    const own = itemRead(orgSpacesPath(org), change.id, path, { hiddenIf: 'deletedAt' });
    if (a.verb === 'updated' || a.verb === 'created') return [own, ...shownBy];
    return [own, ...shownBy, { under: `${path}/permissions` }, ...countLists(view, org)];
  },
};
