/**
 * What the create requests of the kinds carry so apply can tell, after a failure that leaves it open, whether the
 * create happened (RecoverSpec in src/model/plan.ts): the identity each kind matches live objects by.
 */
import type { LiveObject } from '../model/kind.js';
import type { RecoverMatch, RecoverSpec } from '../model/plan.js';

/**
 * Identity by title (Team, Translation, Site, section group): the listed item with the title the request body
 * sends — never one of the live objects that already had that title when the plan was made (another entry claimed
 * it by its pinned id and renames it later in the plan). Excluding those excludes every object of the plan's live
 * read that could match: an object read with another title cannot.
 */
export function recoverByTitle(
  live: readonly { id: string; title: string }[],
  title: string,
  also: readonly RecoverMatch[] = [],
): RecoverSpec {
  const exclude = live.filter((o) => o.title === title).map((o) => o.id);
  return { match: [{ field: 'title', body: '/title' }, ...also], ...(exclude.length > 0 ? { exclude } : {}) };
}

/** recoverByTitle for live objects keyed by their title. */
export function recoverByKey(live: readonly LiveObject[], title: string): RecoverSpec {
  return recoverByTitle(
    live.filter((o) => o.key === title).map((o) => ({ id: o.id, title: o.key })),
    title,
  );
}

/**
 * Identity by title and parent (Space, Collection): the listed item with the title and the parent collection the
 * request body sends (none: an item at the top level), minus the plan's live objects with that title. An object
 * of that title in another collection — another entry's, made in the same apply, or someone else's — is not it.
 */
export function recoverByTitleInParent(live: readonly LiveObject[], title: string): RecoverSpec {
  return recoverByTitle(
    live.filter((o) => o.key === title).map((o) => ({ id: o.id, title: o.key })),
    title,
    [{ field: 'parent', body: '/parent' }],
  );
}
