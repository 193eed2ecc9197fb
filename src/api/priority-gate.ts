/**
 * At most `limit` tasks running at once; waiting tasks start urgent-first, then in arrival order.
 *
 * The client sends the next page of a list it is already reading as urgent: pages are a chain (each needs
 * the previous page's cursor), while the fan-out of child lists can go in any order. With one FIFO queue a
 * 10-page member list waited behind 1,000 team member lists after its second page and then read its last 8
 * pages alone at the end of the plan, one request in flight out of 8.
 */
export interface PriorityGate {
  run<T>(urgent: boolean, task: () => Promise<T>): Promise<T>;
}

export function createPriorityGate(limit: number): PriorityGate {
  const max = Math.max(1, limit);
  let running = 0;
  // Two FIFO queues of waiters, each an array with a read index (shift() would be O(n) per start).
  const queues: { items: (() => void)[]; head: number }[] = [
    { items: [], head: 0 },
    { items: [], head: 0 },
  ];

  const next = (): (() => void) | undefined => {
    for (const q of queues) {
      if (q.head < q.items.length) {
        const wake = q.items[q.head]!;
        q.items[q.head++] = noop;
        if (q.head === q.items.length) {
          q.items = [];
          q.head = 0;
        }
        return wake;
      }
    }
    return undefined;
  };

  /** The finished task's slot goes straight to the next waiter, so `running` never over- or undercounts. */
  const release = (): void => {
    const wake = next();
    if (wake) wake();
    else running--;
  };

  return {
    async run<T>(urgent: boolean, task: () => Promise<T>): Promise<T> {
      if (running < max) running++;
      else await new Promise<void>((resolve) => queues[urgent ? 0 : 1]!.items.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

const noop = (): void => {};
