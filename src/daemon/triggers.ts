/**
 * What makes the daemon reconcile, and the runner that keeps it to one run at a time:
 * - the manifests directory changes (chokidar, debounced: an editor's atomic save or a checkout touching
 *   fifty files is one burst, hence one run);
 * - the cron schedule ticks (node-cron; injectable so tests tick by hand);
 * - POST /reconcile and retries of failed runs call `trigger` directly.
 * Triggers arriving during a run coalesce into ONE follow-up run.
 */
import { lstat } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { schedule as cronSchedule } from 'node-cron';

/**
 * `leader`: this replica just took the lease (ha); its first run reconciles everything. `poll`: the informer's poll
 * found changes (src/daemon/informer). `full`: POST /reconcile?full=1, a full read on demand. `approval`: a
 * waiting plan was approved (src/policy).
 */
export type TriggerReason = 'start' | 'watch' | 'schedule' | 'http' | 'retry' | 'leader' | 'poll' | 'full' | 'approval';

export class RunnerStoppedError extends Error {
  constructor() {
    super('the daemon is stopping; no new reconcile starts');
    this.name = 'RunnerStoppedError';
  }
}

export interface CoalescingRunner<R> {
  /** Ask for a run; resolves with the outcome of the run that covers this trigger. */
  trigger(reason: TriggerReason): Promise<R>;
  readonly running: boolean;
  /** Whether a follow-up run is already queued. */
  readonly pending: boolean;
  /** Refuse new triggers, drop the queued follow-up, and wait for the current run. */
  stop(): Promise<void>;
}

interface Deferred<R> {
  reasons: TriggerReason[];
  promise: Promise<R>;
  resolve(value: R): void;
  reject(error: unknown): void;
}

function deferred<R>(reasons: TriggerReason[]): Deferred<R> {
  let resolve!: (value: R) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<R>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {}); // a dropped follow-up nobody awaits must not be an unhandled rejection
  return { reasons, promise, resolve, reject };
}

export function createCoalescingRunner<R>(run: (reasons: TriggerReason[]) => Promise<R>): CoalescingRunner<R> {
  let current: Promise<void> | undefined;
  let queued: Deferred<R> | undefined;
  let stopped = false;

  const start = (job: Deferred<R>): void => {
    current = (async () => {
      try {
        job.resolve(await run(job.reasons));
      } catch (err) {
        job.reject(err);
      }
      const next = queued;
      queued = undefined;
      current = undefined;
      if (next && !stopped) start(next);
    })();
  };

  return {
    trigger(reason) {
      if (stopped) return Promise.reject(new RunnerStoppedError());
      if (current === undefined) {
        const job = deferred<R>([reason]);
        start(job);
        return job.promise;
      }
      queued ??= deferred<R>([]);
      if (!queued.reasons.includes(reason)) queued.reasons.push(reason);
      return queued.promise;
    },
    get running() {
      return current !== undefined;
    },
    get pending() {
      return queued !== undefined;
    },
    async stop() {
      stopped = true;
      queued?.reject(new RunnerStoppedError());
      queued = undefined;
      await current;
    },
  };
}

/** Runs `fn` once `quietMs` have passed without another call. */
export function debounce(fn: () => void, quietMs: number): { call(): void; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  return {
    call() {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        fn();
      }, quietMs);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

export interface ManifestWatcher {
  close(): Promise<void>;
}

const IGNORED = /(^|[/\\])(\.git|node_modules)([/\\]|$)/;

/**
 * Watch `dir` recursively; `onChange` runs once per burst of events (after `debounceMs` of quiet).
 * When `dir` or one of its ancestors is a symlink (git-sync swaps one atomically to publish a checkout),
 * the symlink's parent is watched too, and the recursive watch is re-created on the new target.
 * Resolves once the initial scan is done, so no change made after it is missed. `onEvent` runs at every event,
 * before the quiet time (the daemon starts loading the manifests then: src/daemon/preload.ts).
 */
export async function watchManifests(
  dir: string,
  debounceMs: number,
  onChange: (paths: string[]) => void,
  onError: (err: Error) => void,
  onEvent?: () => void,
): Promise<ManifestWatcher> {
  const root = resolve(dir);
  let changed: string[] = [];
  const burst = debounce(() => {
    const paths = changed;
    changed = [];
    onChange(paths);
  }, debounceMs);
  const noteChange = (path: string): void => {
    if (changed.length < 100) changed.push(path);
    onEvent?.();
    burst.call();
  };

  const watchTree = async (): Promise<FSWatcher> => {
    // followSymlinks (chokidar's default, spelled out): the loader follows links inside the manifests
    // directory (src/manifests/discover.ts), so a change below a symlinked subdirectory must trigger a run.
    const w = watch(root, {
      ignoreInitial: true,
      followSymlinks: true,
      ignored: (p: string) => IGNORED.test(p.slice(root.length)),
    });
    w.on('all', (_event, path) => noteChange(path));
    w.on('error', (err) => onError(err instanceof Error ? err : new Error(String(err))));
    await new Promise<void>((res) => w.once('ready', () => res()));
    return w;
  };

  let tree = await watchTree();
  let link: FSWatcher | undefined;
  const symlink = await nearestSymlink(root);
  if (symlink) {
    // followSymlinks off: the link itself is the watched entry, and replacing it is a 'change'.
    link = watch(dirname(symlink), { ignoreInitial: true, depth: 0, followSymlinks: false });
    let linkReady = false;
    link.on('all', (_event, path) => {
      if (!linkReady || resolve(path) !== symlink) return;
      // The old watch follows the old target; watch the new one.
      const old = tree;
      void old
        .close()
        .then(watchTree)
        .then((w) => {
          tree = w;
          noteChange(path);
        }, onError);
    });
    link.on('error', (err) => onError(err instanceof Error ? err : new Error(String(err))));
    await new Promise<void>((res) => link!.once('ready', () => res()));
    linkReady = true; // chokidar reports the link itself as added during its initial scan
  }

  return {
    async close() {
      burst.cancel();
      await Promise.all([tree.close(), link?.close()]);
    },
  };
}

/** The deepest path, among `path` and its ancestors, that is a symlink. */
async function nearestSymlink(path: string): Promise<string | undefined> {
  let p = path;
  for (;;) {
    try {
      if ((await lstat(p)).isSymbolicLink()) return p;
    } catch {
      // missing: keep going up
    }
    const parent = dirname(p);
    if (parent === p || parent === sep) return undefined;
    p = parent;
  }
}

/** Something that calls `tick` on a cron schedule; node-cron by default, a hand-cranked fake in tests. */
export interface Scheduler {
  schedule(expression: string, tick: () => void): { stop(): void | Promise<void> };
}

export const nodeCronScheduler: Scheduler = {
  schedule(expression, tick) {
    // Overlap is handled by the coalescing runner, so node-cron just ticks.
    const task = cronSchedule(expression, () => tick(), { name: 'docops-reconcile' });
    return { stop: () => task.destroy() };
  },
};
