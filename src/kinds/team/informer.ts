/**
 * The informer's view of Team: an event on team t re-reads t alone in the team list (and, when it left, its member
 * list and the lists that named it); a renamed team is re-read in the lists that show its title. A membership change re-reads t's member list.
 */
import type { KindInformer } from '../../model/kind.js';
import { orgPath } from '../common.js';
import {
  actionOf,
  below,
  countLists,
  grantListsNaming,
  itemRead,
  listsNaming,
  memberTeamLists,
} from '../informer-common.js';
import { samlPath } from '../saml/model.js';
import { teamsPath } from './model.js';

export const teamInformer: KindInformer = {
  targets: ['team'],
  stale(change, org, view) {
    const a = actionOf(change);
    if (!a) return undefined;
    const list = teamsPath(org);
    const path = below(list, change.id);
    if (a.part === 'member')
      return [{ list: `${path}/members` }, ...memberTeamLists(view, org), ...countLists(view, org)];
    if (a.part !== '') return undefined;
    // Lists that show its title: permission lists, a leaving member's teams, SAML providers naming it as default.
    const naming = [
      ...grantListsNaming(view, org, 'team', change.id),
      ...listsNaming(view, `${orgPath(org)}/members/`, '/teams', 'team', change.id),
      ...listsNaming(view, samlPath(org), '', 'defaultTeam', change.id),
    ];
    if (a.verb === 'deleted')
      return [
        itemRead(list, change.id, path),
        { under: path },
        ...naming,
        ...memberTeamLists(view, org),
        ...countLists(view, org),
      ];
    return [itemRead(list, change.id, path), ...(a.verb === 'updated' ? naming : [])];
  },
};
