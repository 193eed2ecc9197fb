/** The client's in-flight bound: never more than `limit` running, urgent waiters first, FIFO otherwise, background last. */
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

  test('background tasks leave a slot to the others and start after every other waiter', async () => {
    const gate = createPriorityGate(3);
    const started: string[] = [];
    const t = Object.fromEntries(['b1', 'b2', 'b3', 'f1', 'f2', 'u1'].map((n) => [n, controllable(started, n)]));
    const results = [
      gate.run(false, t['b1']!.task, true),
      gate.run(false, t['b2']!.task, true),
      gate.run(false, t['b3']!.task, true),
    ];
    await flush();
    expect(started).toEqual(['b1', 'b2']); // the third slot stays free
    results.push(gate.run(false, t['f1']!.task));
    await flush();
    expect(started).toEqual(['b1', 'b2', 'f1']);
    results.push(gate.run(false, t['f2']!.task), gate.run(true, t['u1']!.task));
    t['b1']!.finish();
    await flush();
    expect(started).toEqual(['b1', 'b2', 'f1', 'u1']); // not b3, which waited longer
    t['b2']!.finish();
    await flush();
    expect(started).toEqual(['b1', 'b2', 'f1', 'u1', 'f2']);
    t['f1']!.finish();
    await flush();
    expect(started).toEqual(['b1', 'b2', 'f1', 'u1', 'f2']); // two others run: b3 would take the last slot
    t['u1']!.finish();
    await flush();
    expect(started).toEqual(['b1', 'b2', 'f1', 'u1', 'f2', 'b3']);
    t['f2']!.finish();
    t['b3']!.finish();
    expect((await Promise.all(results)).sort()).toEqual(['b1', 'b2', 'b3', 'f1', 'f2', 'u1']);
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
