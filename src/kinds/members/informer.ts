/**
 * The informer's view of Members (KindDefinition.informer): an event on member u re-reads u alone in the member
 * list; a member who left also leaves the team member lists and the permission lists that named them.
 */
import type { KindInformer } from '../../model/kind.js';
import { teamsPath } from '../team/model.js';
import { actionOf, below, countLists, grantListsNaming, itemRead, listsNaming } from '../informer-common.js';
import { membersPath } from './model.js';

export const membersInformer: KindInformer = {
  targets: ['member'],
  stale(change, org, view) {
    const a = actionOf(change);
    if (!a || a.part !== '') return undefined;
    const list = membersPath(org);
    const path = below(list, change.id);
    if (a.verb !== 'deleted') return [itemRead(list, change.id, path)];
    return [
      itemRead(list, change.id, path),
      { under: path },
      ...listsNaming(view, `${teamsPath(org)}/`, '/members', 'organization', change.id),
      ...grantListsNaming(view, org, 'user', change.id),
      ...countLists(view, org),
    ];
  },
};
