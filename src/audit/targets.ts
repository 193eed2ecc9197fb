/**
 * What an audit event names, derived from an API path: the same derivation serves the sandbox (which records an
 * event for every write it accepts) and docops's default matching of events to plan steps, so the two agree by
 * construction. A kind whose objects the real API names differently declares `KindDefinition.auditTargets`.
 *
 *   /orgs/o1                       → organization o1
 *   /orgs/o1/members/u1            → member u1
 *   /orgs/o1/teams/t1/members/u1   → team.member u1
 *   /spaces/s1, /orgs/o1/spaces    → space s1 (a create names the id it made)
 *   /spaces/s1/move                → space s1, verb `move`
 */

export interface AuditTarget {
  /** Kind of resource, e.g. `member`, `team`, `team.member`, `organization`. */
  type: string;
  /** Stable identifier of the resource (its API id). */
  id: string;
}

/**
 * A path's resource: its type (every collection on the way, singular, joined by `.`) and, when the path ends in
 * an id, that id. A path ending in a collection or a verb (`/orgs/o1/teams`, `/spaces/s1/move`) also names the
 * object it sits under (`parent`), when there is one.
 */
export interface PathTarget {
  type: string;
  id?: string;
  /** The last segment when it is not an id: a collection created in, or a verb. */
  trailing?: string;
  parent?: AuditTarget;
}

function singular(collection: string): string {
  if (collection === 'orgs') return 'organization';
  if (collection.endsWith('ies')) return `${collection.slice(0, -3)}y`;
  if (collection.endsWith('s')) return collection.slice(0, -1);
  return collection;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The organization prefix is dropped from the type unless the path is the organization itself. */
export function pathTarget(path: string): PathTarget | undefined {
  const segs = path.split('?')[0]!.split('/').filter((s) => s !== '').map(decode);
  if (segs[0] === 'v1') segs.shift();
  if (segs.length === 0) return undefined;
  const pairs: { coll: string; id?: string }[] = [];
  for (let i = 0; i < segs.length; i += 2) pairs.push({ coll: segs[i]!, ...(segs[i + 1] !== undefined ? { id: segs[i + 1]! } : {}) });
  const nested = pairs.length > 1 && pairs[0]!.coll === 'orgs' ? pairs.slice(1) : pairs;
  const typeOf = (ps: typeof pairs): string => ps.map((p) => singular(p.coll)).join('.');
  const last = nested.at(-1)!;
  if (last.id !== undefined) return { type: typeOf(nested), id: last.id };
  const parentPairs = nested.length > 1 ? nested.slice(0, -1) : pairs.length > 1 ? pairs.slice(0, 1) : [];
  const parentId = parentPairs.at(-1)?.id;
  return {
    type: typeOf(nested),
    trailing: last.coll,
    ...(parentId !== undefined ? { parent: { type: typeOf(parentPairs), id: parentId } } : {}),
  };
}
