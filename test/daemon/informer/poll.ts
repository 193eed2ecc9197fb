/** Crank the daemon's informer by hand (its poll timer is a FakeClock timer of `pollMs`). */
import { expect } from 'vitest';
import type { TestDaemon } from '../helpers.js';

/** Once no run is going (a poll is skipped during one), fire the pending poll timer and wait until the next is set. */
export async function pollOnce(d: TestDaemon, pollMs: number, timeout = 1_000): Promise<void> {
  await expect.poll(() => d.daemon.busy.running, { timeout }).toBe(false);
  const pending = () => d.clock.timers.filter((x) => !x.cleared && x.ms === pollMs);
  const timer = pending().at(-1);
  if (!timer) throw new Error('no poll timer');
  timer.cleared = true;
  const before = d.clock.timers.length;
  timer.fn();
  await expect.poll(() => d.clock.timers.length > before && pending().length === 1, { timeout }).toBe(true);
}
