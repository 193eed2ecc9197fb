/**
 * Loading the manifests while the debounce waits. `quietMs` after the last file event a load starts (one at a
 * time); the run the debounced trigger starts takes that load when it is still current — no event came after it
 * started — instead of reading and validating the whole directory again after the quiet time (~0.3–0.6 s for a
 * 10,000-member organization). A load overtaken by a later event is dropped and another starts when it ends; a run
 * finding no current load loads itself. Nothing here touches the API: a load only reads files.
 *
 * Why a short quiet time, not at once: chokidar drops a file's `change` events for 50 ms after one it emits, so
 * a write within those 50 ms has no event of its own. A load starting PRELOAD_QUIET_MS (> 50 ms) after the last
 * event it saw starts after every such write, so it reads it.
 */

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

export function createPreloader<T>(load: () => Promise<T>, quietMs = PRELOAD_QUIET_MS): Preloader<T> {
  /** Bumped by every file event. */
  let generation = 0;
  let current: { generation: number; result: Promise<T>; settled: boolean } | undefined;
  let started = 0;
  let timer: NodeJS.Timeout | undefined;

  const start = (): void => {
    const entry = { generation, result: load(), settled: false };
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
        return c.result;
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
