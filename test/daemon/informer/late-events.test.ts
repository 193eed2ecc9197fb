/**
 * Issue 33, `auditDelay`: the daemon with the informer on an audit log whose events arrive 5–35 s after their
 * change, out of order, while a second actor makes random changes of every kind (drift-ops.ts) and manifest edits
 * start scoped runs in between. Every few cycles the actor pauses; once every event is visible, ONE poll (and the
 * run it starts) must leave the organization equal to the manifests: a drift still there is a lost drift.
 *
 * The sandbox's clock is the test's (it moves 5 s per poll), so a seed runs the same every time. `npm test` runs
 * 3 seeds; the tally over 20: DOCOPS_LATE_SEEDS=20 (prints one line per seed).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pollOnce } from './poll.js';
import { fastClient, loadDesired, planOnce, tempDir } from '../../helpers/pipeline.js';
import { CAROL } from '../../audit/fixtures.js';
import { startTestDaemon, type TestDaemon } from '../helpers.js';
import { randomChange, rngOf } from './drift-ops.js';

const SEEDS = Number(process.env['DOCOPS_LATE_SEEDS'] ?? 3);
const verbose = process.env['DOCOPS_LATE_SEEDS'] !== undefined;
const POLL_MS = 5_000;
const CYCLES = 24;
const QUIET_EVERY = 6;
const EXAMPLE = join(import.meta.dirname, '../../../config.example/manifests');

let running: TestDaemon | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** Fire the poll timer once no run is going, and wait until every run it started has ended. */
async function poll(d: TestDaemon): Promise<void> {
  await pollOnce(d, POLL_MS, 20_000);
  await expect.poll(() => d.daemon.busy, { timeout: 20_000 }).toEqual({ running: false, pending: false });
}

async function lateSeed(seed: number): Promise<{ lost: string[]; changes: number; runs: number }> {
  let now = Date.now();
  const dir = tempDir('late-events');
  cpSync(EXAMPLE, dir, { recursive: true });
  const d = (running = await startTestDaemon({
    files: {},
    config: {
      manifestsDir: dir,
      informer: { enabled: true, pollMs: POLL_MS, resyncMs: 0, overlapMs: 60_000, maxOverlapMs: 3_600_000 },
      debounceMs: 50,
    },
    sandbox: { now: () => new Date(now), actorTokens: [CAROL], faults: `auditDelay=20s:15s,seed=${seed}` },
  }));
  const client = fastClient(d.sandbox);
  const rng = rngOf(seed);
  const carol = (method: string, path: string, body?: unknown) =>
    fetch(`${d.sandbox.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${CAROL.token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const lost: string[] = [];
  let changes = 0;
  try {
    const desired = await loadDesired(dir);
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const quiet = cycle % QUIET_EVERY === 0;
      if (!quiet) {
        for (let i = Math.floor(rng() * 4); i > 0; i--) {
          const op = randomChange(d.sandbox, rng, ++changes);
          if (op) await carol(op.method, op.path, op.body);
        }
        // Now and then a manifest edit starts a scoped run that reads the log first (issue 33 §1).
        if (rng() < 0.3) {
          const next = d.nextRun((r) => r.reasons.includes('watch'));
          writeFileSync(
            join(dir, 'translations.yaml'),
            `# edit ${cycle}\n${readFileSync(join(EXAMPLE, 'translations.yaml'), 'utf8')}`,
          );
          await next;
        }
        now += POLL_MS;
        await poll(d);
        continue;
      }
      now += 40_000; // every event of the changes so far is visible now
      await poll(d); // one poll
      const left = await planOnce(client, desired);
      lost.push(...left.steps.map((s) => `cycle ${cycle}: ${s.id}`));
    }
    return { lost, changes, runs: d.daemon.runs.length };
  } finally {
    await client.close();
  }
}

describe('a drift whose audit event arrives late is reverted by the poll that finds it', () => {
  it(`no drift is lost (${SEEDS} seeds, events 5–35 s late and out of order)`, async () => {
    let total = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const o = await lateSeed(seed);
      if (verbose) console.log(JSON.stringify({ seed, ...o }));
      total += o.changes;
      expect(o.lost, `seed ${seed}`).toEqual([]);
      await running?.stop();
      running = undefined;
    }
    expect(total).toBeGreaterThan(SEEDS * 10);
  }, 600_000);
});
