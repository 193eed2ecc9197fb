/** The client's in-flight bound: never more than `limit` running, urgent waiters first, FIFO otherwise. */
import { describe, expect, test } from 'vitest';
import { createPriorityGate } from '../../src/api/priority-gate.js';

/** A task that runs until released, recording when it started. */
function controllable(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { task: async () => (log.push(name), await done, name), finish };
}

const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('createPriorityGate', () => {
  test('runs at most `limit` tasks; urgent waiters start before earlier normal ones, each class in order', async () => {
    const gate = createPriorityGate(2);
    const started: string[] = [];
    const t = Object.fromEntries(['a', 'b', 'n1', 'n2', 'u1', 'u2'].map((n) => [n, controllable(started, n)]));
    const results = [
      gate.run(false, t['a']!.task),
      gate.run(false, t['b']!.task),
      gate.run(false, t['n1']!.task),
      gate.run(false, t['n2']!.task),
      gate.run(true, t['u1']!.task),
      gate.run(true, t['u2']!.task),
    ];
    await flush();
    expect(started).toEqual(['a', 'b']);
    t['a']!.finish();
    await flush();
    expect(started).toEqual(['a', 'b', 'u1']);
    t['b']!.finish();
    t['u1']!.finish();
    await flush();
    expect(started).toEqual(['a', 'b', 'u1', 'u2', 'n1']);
    t['u2']!.finish();
    t['n1']!.finish();
    await flush();
    expect(started).toEqual(['a', 'b', 'u1', 'u2', 'n1', 'n2']);
    t['n2']!.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'n1', 'n2', 'u1', 'u2']);
  });

  test('a failing task frees its slot and its error reaches the caller', async () => {
    const gate = createPriorityGate(1);
    const failing = gate.run(false, async () => {
      throw new Error('boom');
    });
    const after = gate.run(false, async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    expect(await after).toBe('next');
  });

  test('a limit below 1 still lets one task run', async () => {
    expect(await createPriorityGate(0).run(false, async () => 42)).toBe(42);
  });
});
