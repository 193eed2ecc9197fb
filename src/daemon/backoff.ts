/**
 * Retrying failed reconciles without hammering the API: exponential backoff with jitter. Attempt n waits
 * between half and all of min(max, initial · 2^(n-1)) ("equal jitter"), so delays never shrink while they
 * grow, and many daemons that failed together do not retry together. A success resets the count.
 */

export interface Clock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** The time (ms since the epoch) for what the daemon schedules by the clock (docs health); default Date.now. */
  now?(): number;
}

export const systemClock: Clock = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref(); // a pending retry alone does not keep the process alive
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
}

/** Delay before retry `attempt` (1-based). `random` is in [0, 1). */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(attempt - 1, 52));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

export interface Retrier {
  /** Schedule the next retry after a failure; returns its attempt number and delay. */
  failed(): { attempt: number; delayMs: number };
  /** Forget failures (and cancel the scheduled retry). */
  succeeded(): void;
  /** Cancel the scheduled retry, keeping the failure count. */
  cancel(): void;
  readonly attempt: number;
}

export function createRetrier(
  policy: BackoffPolicy,
  retry: () => void,
  clock: Clock = systemClock,
  random: () => number = Math.random,
): Retrier {
  let attempt = 0;
  let handle: unknown;
  const cancel = (): void => {
    if (handle !== undefined) clock.clearTimeout(handle);
    handle = undefined;
  };
  return {
    failed() {
      cancel();
      attempt++;
      const delayMs = backoffDelay(attempt, policy, random);
      handle = clock.setTimeout(() => {
        handle = undefined;
        retry();
      }, delayMs);
      return { attempt, delayMs };
    },
    succeeded() {
      cancel();
      attempt = 0;
    },
    cancel,
    get attempt() {
      return attempt;
    },
  };
}
