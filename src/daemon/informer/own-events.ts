/**
 * docops's own writes, as the audit log will show them: each write applied adds its object and the part of it
 * the write addressed (`team`/t/`member` for PUT …/teams/t/members/u, `site`/x/'' for PATCH …/sites/x); the poll
 * that finds an event of the token's own user on that object and part takes one away and skips the event — that
 * part was read again right after the write (Informer.wrote), so the event brings nothing new. An event on
 * another part (a side effect of the write) is followed. One event per write:
 * a second process writing the same object with the same token leaves one event more than docops wrote, and
 * that one is followed. An entry nobody takes expires (the event may never come: the real log may not record
 * every write); a later event on the object is then followed, which costs a read, never a miss.
 */
export const OWN_WRITE_TTL_MS = 10 * 60 * 1000;

const keyOf = (type: string, id: string, part: string): string => `${type}\u0000${id}\u0000${part}`;

/** The part of an action `<type>[.<part>].<verb>` ('' for the object itself). */
export const partOf = (action: string): string => action.split('.').slice(1, -1).join('.');

export class OwnEvents {
  private readonly pending = new Map<string, number[]>();

  constructor(private readonly ttlMs = OWN_WRITE_TTL_MS) {}

  add(type: string, id: string, part: string, now: number): void {
    const key = keyOf(type, id, part);
    const list = this.pending.get(key);
    if (list) list.push(now + this.ttlMs);
    else this.pending.set(key, [now + this.ttlMs]);
  }

  /** Whether an event of the token's user on (type, id) is one of docops's writes (and takes it away). */
  take(type: string, id: string, part: string, now: number): boolean {
    const key = keyOf(type, id, part);
    const list = (this.pending.get(key) ?? []).filter((until) => until > now);
    const hit = list.shift() !== undefined;
    if (list.length > 0) this.pending.set(key, list);
    else this.pending.delete(key);
    return hit;
  }

  /** How many writes on (type, id) are still expected. */
  count(type: string, id: string, part: string, now: number): number {
    return (this.pending.get(keyOf(type, id, part)) ?? []).filter((until) => until > now).length;
  }

  clear(): void {
    this.pending.clear();
  }
}

/** Whether every event is one of docops's writes still expected (counted per object and part), asking nothing. */
export function allOwn(
  own: OwnEvents,
  events: readonly { action: string; actor: { id: string }; target: { type: string; id: string } }[],
  self: string | undefined,
  now: number,
): boolean {
  const needed = new Map<string, { type: string; id: string; part: string; n: number }>();
  for (const e of events) {
    if (self === undefined || e.actor.id !== self) return false;
    const part = partOf(e.action);
    const key = keyOf(e.target.type, e.target.id, part);
    const x = needed.get(key) ?? { type: e.target.type, id: e.target.id, part, n: 0 };
    x.n++;
    needed.set(key, x);
  }
  return [...needed.values()].every((x) => own.count(x.type, x.id, x.part, now) >= x.n);
}
