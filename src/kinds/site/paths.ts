/**
 * Paths of sections and site spaces: the server's rule for a path it derives or keeps (`base`, `base-2`, …
 * unique in its container), and what a plan knows about a site space's path when its reorder step starts.
 */
import type { DocPath } from '../../manifests/paths.js';

export const MAX_PATH = 100;

/** `base` if free, else `base-2`, `base-3` … (within 100 characters): how the server makes a path unique. */
export function uniquePath(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, MAX_PATH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** A free path to park a site space on while the path it leaves is handed to another one. */
export function parkingPath(from: string, taken: ReadonlySet<string>): string {
  return uniquePath(`${from.slice(0, MAX_PATH - '-swap'.length)}-swap`, taken);
}

/** What the plan knows about one site space's path. */
export interface PathPlan {
  /** The path when the reorder step starts; undefined when unknown (site spaces created concurrently derive theirs). */
  now: string | undefined;
  /**
   * The path it must have after the plan (written in the manifest, or kept by a re-point); the reorder step sets
   * it when the steps before could not (the path was held) or a move made the server change it.
   */
  want?: string;
  /**
   * The wanted path is only kept, not written (a re-point keeps the path the site space it replaces had): when a
   * site space the manifest does not list holds it, a free variant is taken, as the server does on a move.
   */
  soft?: boolean;
  /**
   * A path a later step (the replace of a root site space, delete phase) gives it: the reorder step keeps it free
   * of every site space but this one and `replaced` (deleted by that step first).
   */
  reserve?: string;
  replaced?: string;
  /** When `now` is unknown because several creates derive one path: the paths it may have. */
  maybe?: string[];
  /** Where the manifest writes the site space (for a blocked plan). */
  at?: DocPath;
}
