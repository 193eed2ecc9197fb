/**
 * At most `limit` tasks running at once; waiting tasks start urgent-first, then in arrival order, and background
 * tasks only after every other.
 *
 * The client sends the next page of a list it is already reading as urgent: pages are a chain (each needs
 * the previous page's cursor), while the fan-out of child lists can go in any order. With one FIFO queue a
 * 10-page member list waited behind 1,000 team member lists after its second page and then read its last 8
 * pages alone at the end of the plan, one request in flight out of 8.
 *
 * Background tasks (the informer's periodic full read, src/api/client.ts `background()`) never hold the last
 * slot: a request of any other kind finds one free, or the first one a task gives back.
 */
export interface PriorityGate {
  run<T>(urgent: boolean, task: () => Promise<T>, background?: boolean): Promise<T>;
}

interface Queue {
  items: (() => void)[];
  head: number;
}

export function createPriorityGate(limit: number): PriorityGate {
  const max = Math.max(1, limit);
  // Background tasks leave one slot free when there is more than one.
  const backgroundMax = max > 1 ? max - 1 : 1;
  let running = 0;
  // FIFO queues of waiters, each an array with a read index (shift() would be O(n) per start): urgent, normal,
  // background urgent, background.
  const queues: Queue[] = [0, 1, 2, 3].map(() => ({ items: [], head: 0 }));

  const take = (q: Queue): (() => void) | undefined => {
    if (q.head >= q.items.length) return undefined;
    const wake = q.items[q.head]!;
    q.items[q.head++] = noop;
    if (q.head === q.items.length) {
      q.items = [];
      q.head = 0;
    }
    return wake;
  };

  /** The finished task's slot goes straight to the next waiter, so `running` never over- or undercounts. */
  const release = (): void => {
    const wake =
      take(queues[0]!) ??
      take(queues[1]!) ??
      (running - 1 < backgroundMax ? (take(queues[2]!) ?? take(queues[3]!)) : undefined);
    if (wake) wake();
    else running--;
  };

  return {
    async run<T>(urgent: boolean, task: () => Promise<T>, background = false): Promise<T> {
      if (running < (background ? backgroundMax : max)) running++;
      else await new Promise<void>((resolve) => queues[(background ? 2 : 0) + (urgent ? 0 : 1)]!.items.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

const noop = (): void => {};
