/**
 * What an audit event names, derived from an API path: the object the path is about — the first object below the
 * organization — and the part of it the path addresses. The sandbox names the objects of the rows a write changes
 * the same way (packages/sandbox/src/audit-objects.ts), docops matches events to plan steps (match.ts) and follows them
 * (the daemon's informer) with it, so they agree by construction. A kind whose objects the real API names
 * differently declares `KindDefinition.auditTargets` and its `informer`.
 *
 *   /orgs/o1                              → organization o1
 *   /orgs/o1/members/u1                   → member u1
 *   /orgs/o1/teams                        → team (no id: the collection a team is created in)
 *   /orgs/o1/teams/t1/members/u1          → team t1, part member
 *   /spaces/s1, /spaces/s1/move           → space s1 (part move)
 *   /orgs/o1/sites/x/sections/y           → site x, part section
 */

/** A path's object: its type and, when the path names it, its id; and what below it the path addresses. */
export interface PathTarget {
  type: string;
  /** Absent when the path is the collection the object is created in (`/orgs/o1/teams`). */
  id?: string;
  /** The parts below the object, singular (`['member']`, `['permission', 'team']`, `['move']`); empty: the object. */
  part: string[];
}

export function singular(collection: string): string {
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

/** The organization prefix is dropped unless the path is the organization itself. */
export function pathTarget(path: string): PathTarget | undefined {
  const segs = path
    .split('?')[0]!
    .split('/')
    .filter((s) => s !== '')
    .map(decode);
  if (segs[0] === 'v1') segs.shift();
  if (segs.length === 0) return undefined;
  const top = segs[0] === 'orgs' && segs.length > 2 ? segs.slice(2) : segs;
  const [collection, id, ...rest] = top;
  const part: string[] = [];
  for (let i = 0; i < rest.length; i += 2) part.push(singular(rest[i]!));
  return { type: singular(collection!), ...(id !== undefined ? { id } : {}), part };
}
