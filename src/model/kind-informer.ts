/**
 * The part of the kind contract the daemon's informer uses (KindDefinition.informer, src/daemon/informer): between
 * full reads it follows the organization's audit events, and each kind says which reads an event on its objects
 * made stale, so only those are read again (src/engine/read-cache.ts).
 */

/** One audit event, as the informer hands it to a kind: what changed (src/audit/targets.ts names it) and how. */
export interface AuditChange {
  /** The object's type (`member`, `team`, `space`, `site` …) and id. */
  type: string;
  id: string;
  /** `<type>.<verb>` or `<type>.<part>.<verb>` (`team.member.created`, `site.section.updated`). */
  action: string;
}

/**
 * A read a change made stale (src/engine/read-cache.ts): a list to read again, or only one item of it (its path;
 * the item whose `key` field, default `id`, equals `id`; an answer 404 or carrying the field `hiddenIf` is not
 * listed, e.g. a space in the bin), a GET to repeat, or every read below a path.
 * Stale reads are lazy: only what the next fetch asks for is read.
 */
export type StaleRead =
  | { list: string; item?: { id: string; path: string; key?: string; hiddenIf?: string } }
  | { get: string }
  | { under: string };

/** The reads the informer holds, for a kind to find what depends on a changed object (e.g. the lists naming a team). */
export interface ReadsView {
  /** Lists read so far whose path starts with `prefix`, with their items as last read. */
  lists(prefix: string): { path: string; items: readonly unknown[] }[];
}

/**
 * What a kind's `stale` sees: the reads held, and whether prune is on for a (kind, org) — under prune the kinds
 * read counts embedded in list items (a team's `members`, a member's `teams` and `spaces`), which other objects'
 * changes alter.
 */
export interface InformerView extends ReadsView {
  prune(kind: string, org: string): boolean;
}

/** See KindDefinition.informer and docs/daemon.md ("The informer"). */
export interface KindInformer {
  /** The audit target types whose events are this kind's to interpret (each type is claimed by one kind). */
  targets: readonly string[];
  /**
   * The reads the change made stale in `org`, including those of objects that depend on the changed one (lists
   * embedding its title …). Undefined when the kind cannot tell (an action it does not know): a gap.
   */
  stale(change: AuditChange, org: string, view: InformerView): StaleRead[] | undefined;
}
