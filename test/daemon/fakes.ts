/** Hand-cranked cron scheduler and retry clock: tests decide when a tick or a timer fires. */
import type { Clock } from '../../src/daemon/backoff.js';
import type { Scheduler } from '../../src/daemon/triggers.js';

export class FakeScheduler implements Scheduler {
  ticks: (() => void)[] = [];
  expressions: string[] = [];
  schedule(expression: string, tick: () => void) {
    this.expressions.push(expression);
    this.ticks.push(tick);
    return { stop: () => void (this.ticks = this.ticks.filter((t) => t !== tick)) };
  }
  tick(): void {
    for (const t of this.ticks) t();
  }
}

export class FakeClock implements Clock {
  timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
  /** What `now()` answers when a test sets it (the real time until then). */
  nowMs: number | undefined;
  now(): number {
    return this.nowMs ?? Date.now();
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const t = { fn, ms, cleared: false };
    this.timers.push(t);
    return t;
  }
  clearTimeout(handle: unknown): void {
    (handle as { cleared: boolean }).cleared = true;
  }
  /** Fire the newest pending timer. */
  fireLast(): void {
    const t = this.timers.filter((x) => !x.cleared).at(-1);
    if (!t) throw new Error('no pending timer');
    t.cleared = true;
    t.fn();
  }
}
