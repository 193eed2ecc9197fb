/**
 * Loading the manifests while the debounce waits. A file event starts a load at once (one at a time); the run
 * the debounced trigger starts takes that load when it is still current — it started after the last file event,
 * so it read every change the events announced — instead of reading and validating the whole directory again
 * (~0.3–0.6 s for a 10,000-member organization) after the quiet time. A load overtaken by a later event is
 * dropped and another starts when it ends; a run finding no current load loads itself. Nothing here touches the
 * API: a load only reads files.
 */

export interface Preloader<T> {
  /** A file event: whatever was loaded before is stale; start loading again (after the load in flight). */
  changed(): void;
  /** The current load (awaiting it when in flight) or a fresh one; each load is taken at most once. */
  take(): Promise<T>;
  /** Loads started so far (tests). */
  readonly started: number;
}

export function createPreloader<T>(load: () => Promise<T>): Preloader<T> {
  /** Bumped by every file event. */
  let generation = 0;
  let current: { generation: number; result: Promise<T>; settled: boolean } | undefined;
  let started = 0;

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

  return {
    changed() {
      generation++;
      if (!current || current.settled) start();
    },
    take() {
      const c = current;
      if (c && c.generation === generation) {
        current = undefined;
        return c.result;
      }
      current = undefined; // a stale load in flight ends without starting another
      started++;
      return load();
    },
    get started() {
      return started;
    },
  };
}
