/**
 * Loading the manifests while the debounce waits. `quietMs` after the last file event a load starts (one at a
 * time); the run the debounced trigger starts takes that load when it is still current — no event came after it
 * started — instead of reading and validating the whole directory again after the quiet time (~0.3–0.6 s for a
 * 10,000-member organization). A load overtaken by a later event is dropped and another starts when it ends; a run
 * finding no current load loads itself. Nothing here touches the API: a load only reads files.
 *
 * A file event can come later than a run: a write followed at once by `POST /reconcile` (or the schedule) finds
 * a load made before the write, its event still on the way. So a load keeps the `fingerprint` of the files taken
 * just before it started (their names, sizes and modification times: no file is read), and a run takes it only
 * when the files still have that fingerprint; else it loads itself.
 *
 * Why a short quiet time, not at once: chokidar drops a file's `change` events for 50 ms after one it emits, so
 * a write within those 50 ms has no event of its own. A load starting PRELOAD_QUIET_MS (> 50 ms) after the last
 * event it saw starts after every such write, so it reads it.
 */

import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isIgnoredDirectory } from '../manifests/discover.js';

export const PRELOAD_QUIET_MS = 100;

export interface Preloader<T> {
  /** A file event: whatever was loaded before is stale; load again once events are quiet for `quietMs`. */
  changed(): void;
  /** The current load (awaiting it when in flight) or a fresh one; each load is taken at most once. */
  take(): Promise<T>;
  /** Loads started so far (tests). */
  readonly started: number;
  /** Drop the pending timer (shutdown). */
  cancel(): void;
}

export function createPreloader<T>(
  load: () => Promise<T>,
  quietMs = PRELOAD_QUIET_MS,
  fingerprint?: () => Promise<string>,
): Preloader<T> {
  /** Bumped by every file event. */
  let generation = 0;
  let current:
    { generation: number; result: Promise<T>; settled: boolean; print: Promise<string> | undefined } | undefined;
  let started = 0;
  let timer: NodeJS.Timeout | undefined;

  const start = (): void => {
    // The fingerprint first: a write after it (even one the load reads) makes the load fail the check at take().
    const print = fingerprint?.();
    print?.catch(() => {});
    const entry = { generation, result: print ? print.then(load, load) : load(), settled: false, print };
    started++;
    current = entry;
    entry.result.catch(() => {}); // a failed preload nobody takes is not an unhandled rejection
    const done = (): void => {
      entry.settled = true;
      // Overtaken while loading: load again, so the next run finds a current load.
      if (current === entry && entry.generation !== generation) start();
    };
    entry.result.then(done, done);
  };

  const cancel = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };

  return {
    changed() {
      generation++;
      cancel();
      timer = setTimeout(() => {
        timer = undefined;
        // A load in flight is stale now; it starts the next one when it ends.
        if (!current || current.settled) start();
      }, quietMs);
    },
    take() {
      const c = current;
      if (c && c.generation === generation && timer === undefined) {
        current = undefined;
        if (!c.print || !fingerprint) return c.result;
        const print = c.print;
        return (async () => {
          const [then, now] = await Promise.all([print.catch(() => undefined), fingerprint().catch(() => undefined)]);
          if (then !== undefined && then === now) return c.result;
          started++;
          return load();
        })();
      }
      cancel();
      current = undefined; // a stale load in flight ends without starting another
      started++;
      return load();
    },
    get started() {
      return started;
    },
    cancel,
  };
}

/**
 * What the manifests directory holds, without reading a file: each file's path, size and modification time (in
 * nanoseconds), recursively, skipping the directories discovery skips (hidden ones, node_modules).
 */
export async function directoryFingerprint(dir: string): Promise<string> {
  const out: string[] = [];
  const walk = async (at: string): Promise<void> => {
    for (const e of await readdir(at, { withFileTypes: true })) {
      const path = join(at, e.name);
      if (e.isDirectory()) {
        if (!isIgnoredDirectory(e.name)) await walk(path);
      } else if (e.isFile()) {
        const st = await stat(path, { bigint: true });
        out.push(`${path}\u0000${st.size}\u0000${st.mtimeNs}`);
      }
    }
  };
  await walk(dir);
  return out.sort().join('\n');
}
