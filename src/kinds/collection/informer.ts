/**
 * The informer's view of Collection: an event on collection c re-reads c alone in the collection list; a deleted
 * collection takes its permission lists and the spaces inside it (they go to the bin) along. A change of its
 * access re-reads its permission lists. The order of its content is not read.
 */
import type { KindInformer } from '../../model/kind.js';
import { isRecord } from '../common.js';
import { actionOf, countLists, itemRead } from '../informer-common.js';
import { orgSpacesPath, spacePath } from '../space/model.js';
import { collectionPath, collectionsPath } from './model.js';

export const collectionInformer: KindInformer = {
  targets: ['collection'],
  stale(change, org, view) {
    const a = actionOf(change);
    if (!a) return undefined;
    const path = collectionPath(change.id);
    if (a.part === 'content') return [];
    if (a.part === 'permission') return [{ under: `${path}/permissions` }, ...countLists(view, org)];
    if (a.part !== '') return undefined;
    const own = itemRead(collectionsPath(org), change.id, path);
    if (a.verb !== 'deleted') return [own];
    const inside = view
      .lists(orgSpacesPath(org))
      .flatMap((l) => l.items)
      .filter((s) => isRecord(s) && s['parent'] === change.id && typeof s['id'] === 'string')
      // Read, not assumed gone: the kept list may be older than a move out of the collection.
      .map((s) =>
        itemRead(
          orgSpacesPath(org),
          String((s as Record<string, unknown>)['id']),
          spacePath(String((s as Record<string, unknown>)['id'])),
          { hiddenIf: 'deletedAt' },
        ),
      );
    return [own, { under: path }, ...inside, ...countLists(view, org)];
  },
};
