/**
 * Helpers for the kinds' informer hooks (KindDefinition.informer, src/model/kind-informer.ts): reading an audit
 * action (`<type>[.<part>].<verb>`, src/audit/targets.ts), the stale reads of one item of a list, and finding the
 * lists that embed another object (a permission list naming a team, a site space naming a space).
 */
import type { AuditChange, InformerView, KindInformer, ReadsView, StaleRead } from '../model/kind.js';
import { isRecord, orgPath, seg } from './common.js';

export type Verb = 'created' | 'updated' | 'deleted' | 'restored';
const VERBS: ReadonlySet<string> = new Set(['created', 'updated', 'deleted', 'restored']);

/** The part (`''` for the object itself) and verb of a change; undefined when the action is not of this shape. */
export function actionOf(change: AuditChange): { part: string; verb: Verb } | undefined {
  const words = change.action.split('.');
  const verb = words.at(-1)!;
  if (words.length < 2 || words[0] !== change.type || !VERBS.has(verb)) return undefined;
  return { part: words.slice(1, -1).join('.'), verb: verb as Verb };
}

/**
 * One item of a list, read alone (`path`). Also after a delete: the answer (404, or an object in the bin) says it
 * is gone — an event handed out again by an overlapping poll may be older than what was read since.
 */
export function itemRead(
  list: string,
  id: string,
  path: string,
  extra: { key?: string; hiddenIf?: string } = {},
): StaleRead {
  return { list, item: { id, path, ...extra } };
}

const idOf = (v: unknown): unknown => (isRecord(v) ? v['id'] : undefined);

/** The lists below `prefix` ending in `suffix` with an item whose `field` object has this id: read them again. */
export function listsNaming(reads: ReadsView, prefix: string, suffix: string, field: string, id: string): StaleRead[] {
  return reads
    .lists(prefix)
    .filter((l) => l.path.endsWith(suffix) && l.items.some((item) => isRecord(item) && idOf(item[field]) === id))
    .map((l) => ({ list: l.path }));
}

/** Every permission list of the organization's spaces, collections and sites naming the team or user `id`. */
export function grantListsNaming(reads: ReadsView, org: string, principal: 'team' | 'user', id: string): StaleRead[] {
  const suffix = `/permissions/${principal}s`;
  return [
    ...listsNaming(reads, '/spaces/', suffix, principal, id),
    ...listsNaming(reads, '/collections/', suffix, principal, id),
    ...listsNaming(reads, `${orgPath(org)}/sites/`, suffix, principal, id),
  ];
}

/** The path of one object below a list path. */
export const below = (list: string, id: string): string => `${list}/${seg(id)}`;

/** The informer of a kind whose objects are items of one list: an event on object o re-reads o alone in it. */
export function ownItemInformer(target: string, list: (org: string) => string): KindInformer {
  return {
    targets: [target],
    stale(change, org) {
      const a = actionOf(change);
      return a && a.part === '' ? [itemRead(list(org), change.id, below(list(org), change.id))] : undefined;
    },
  };
}

/**
 * Lists whose items carry counts a membership or an access change alters, read again whole — only where a kind
 * reads those counts: under prune, Team reads a team's `members` and `spaces`, Members a member's `teams` and
 * `spaces` (src/kinds/team-cascades.ts).
 */
export function countLists(view: InformerView, org: string): StaleRead[] {
  return [
    ...(view.prune('Team', org) ? [{ list: `${orgPath(org)}/teams` }] : []),
    ...(view.prune('Members', org) ? [{ list: `${orgPath(org)}/members` }] : []),
  ];
}

/** The lists of the members that would be removed (`…/members/{id}/teams`, read under prune): read again. */
export function memberTeamLists(view: InformerView, org: string): StaleRead[] {
  return view
    .lists(`${orgPath(org)}/members/`)
    .filter((l) => l.path.endsWith('/teams'))
    .map((l) => ({ list: l.path }));
}
