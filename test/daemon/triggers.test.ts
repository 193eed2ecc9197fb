import { mkdirSync, mkdtempSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backoffDelay, createRetrier } from '../../src/daemon/backoff.js';
import {
  createCoalescingRunner,
  RunnerStoppedError,
  watchManifests,
  type TriggerReason,
} from '../../src/daemon/triggers.js';
import { FakeClock } from './fakes.js';

function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

describe('createCoalescingRunner', () => {
  it('runs one at a time and folds every trigger during a run into one follow-up', async () => {
    const runs: TriggerReason[][] = [];
    let active = 0;
    let maxActive = 0;
    const gates = [gate(), gate()];
    const runner = createCoalescingRunner(async (reasons) => {
      active++;
      maxActive = Math.max(maxActive, active);
      runs.push(reasons);
      await gates[runs.length - 1]!.wait;
      active--;
      return runs.length;
    });
    const first = runner.trigger('start');
    const during = [
      runner.trigger('watch'),
      runner.trigger('schedule'),
      runner.trigger('watch'),
      runner.trigger('http'),
    ];
    expect(runner.pending).toBe(true);
    gates[0]!.open();
    expect(await first).toBe(1);
    gates[1]!.open();
    expect(await Promise.all(during)).toEqual([2, 2, 2, 2]);
    expect(runs).toEqual([['start'], ['watch', 'schedule', 'http']]);
    expect(maxActive).toBe(1);
    expect(runner.running).toBe(false);
  });

  it('refuses triggers after stop and drops the queued follow-up, waiting for the current run', async () => {
    const g = gate();
    let finished = false;
    const runner = createCoalescingRunner(async () => {
      await g.wait;
      finished = true;
      return 'done';
    });
    const current = runner.trigger('start');
    const queued = runner.trigger('watch');
    const stopped = runner.stop();
    await expect(queued).rejects.toBeInstanceOf(RunnerStoppedError);
    await expect(runner.trigger('http')).rejects.toBeInstanceOf(RunnerStoppedError);
    g.open();
    await stopped;
    expect(finished).toBe(true);
    expect(await current).toBe('done');
  });
});

describe('backoff', () => {
  it('doubles from initialMs to maxMs with jitter between half and the full delay', () => {
    const policy = { initialMs: 1000, maxMs: 300_000 };
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, policy, () => 1))).toEqual([1000, 2000, 4000, 8000]);
    expect([1, 2, 3].map((n) => backoffDelay(n, policy, () => 0))).toEqual([500, 1000, 2000]);
    expect(backoffDelay(40, policy, () => 1)).toBe(300_000);
    expect(backoffDelay(1000, policy, () => 0.5)).toBe(225_000);
  });

  it('schedules one retry at a time, and a success resets the count', () => {
    const clock = new FakeClock();
    let retries = 0;
    const retrier = createRetrier(
      { initialMs: 10, maxMs: 1000 },
      () => retries++,
      clock,
      () => 1,
    );
    expect(retrier.failed()).toEqual({ attempt: 1, delayMs: 10 });
    expect(retrier.failed()).toEqual({ attempt: 2, delayMs: 20 });
    expect(clock.timers.filter((t) => !t.cleared).map((t) => t.ms)).toEqual([20]);
    clock.fireLast();
    expect(retries).toBe(1);
    retrier.succeeded();
    expect(retrier.failed()).toEqual({ attempt: 1, delayMs: 10 });
    retrier.cancel();
    expect(clock.timers.every((t) => t.cleared)).toBe(true);
  });
});

describe('watchManifests', () => {
  it('follows a symlink swapped to a new checkout (git-sync style)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'docops-watch-'));
    for (const rev of ['rev1', 'rev2']) {
      mkdirSync(join(root, rev));
      writeFileSync(join(root, rev, 'a.yaml'), `# ${rev}\n`);
    }
    symlinkSync(join(root, 'rev1'), join(root, 'current'));
    const bursts: string[][] = [];
    let notify = (): void => {};
    const watcher = await watchManifests(
      join(root, 'current'),
      50,
      (paths) => {
        bursts.push(paths);
        notify();
      },
      (err) => {
        throw err;
      },
    );
    try {
      const swapped = new Promise<void>((r) => (notify = r));
      symlinkSync(join(root, 'rev2'), join(root, 'next'));
      renameSync(join(root, 'next'), join(root, 'current')); // atomic swap, as git-sync does
      await swapped;
      expect(bursts.length).toBeGreaterThanOrEqual(1);
      // The new target is watched: a change inside it is seen.
      const edited = new Promise<void>((r) => (notify = r));
      writeFileSync(join(root, 'rev2', 'b.yaml'), '# new\n');
      await edited;
      expect(bursts.flat().some((p) => p.endsWith('b.yaml'))).toBe(true);
    } finally {
      await watcher.close();
    }
  });

  it('sees changes below a symlinked subdirectory (git-sync: root/current -> .worktrees/HASH)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'docops-watch-'));
    mkdirSync(join(root, '.worktrees', 'abc', 'teams'), { recursive: true });
    symlinkSync(join('.worktrees', 'abc'), join(root, 'current'));
    const throughLink = join(root, 'current', 'teams', 'core.yaml');
    const seen: string[] = [];
    let notify = (): void => {};
    const watcher = await watchManifests(
      root,
      20,
      (paths) => {
        seen.push(...paths);
        if (seen.includes(throughLink)) notify();
      },
      (err) => {
        throw err;
      },
    );
    try {
      // Resolves only once the change is reported through the link: chokidar follows it (followSymlinks).
      const reported = new Promise<void>((r) => (notify = r));
      writeFileSync(throughLink, '# new\n');
      await reported;
      expect(seen).toContain(throughLink);
    } finally {
      await watcher.close();
    }
  });
});
