/**
 * What the create requests of the kinds carry so apply can tell, after a failure that leaves it open, whether the
 * create happened (RecoverSpec in src/core/plan.ts): the identity each kind matches live objects by.
 */
import type { LiveObject } from '../core/kind.js';
import type { RecoverSpec } from '../core/plan.js';

/**
 * Identity by title (Team, Translation, Collection, Space, Site, section group): the listed item with the title
 * the request body sends — never one of the live objects that already had that title when the plan was made
 * (another entry claimed it by its pinned id and renames it later in the plan).
 */
export function recoverByTitle(live: readonly { id: string; title: string }[], title: string): RecoverSpec {
  const exclude = live.filter((o) => o.title === title).map((o) => o.id);
  return { match: [{ field: 'title', body: '/title' }], ...(exclude.length > 0 ? { exclude } : {}) };
}

/** recoverByTitle for live objects keyed by their title. */
export function recoverByKey(live: readonly LiveObject[], title: string): RecoverSpec {
  return recoverByTitle(
    live.filter((o) => o.key === title).map((o) => ({ id: o.id, title: o.key })),
    title,
  );
}
