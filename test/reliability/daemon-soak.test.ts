/**
 * Daemon soak: 40 reconcile cycles against a faulty sandbox, alternating valid and invalid manifest edits.
 * The daemon never crashes, an invalid edit writes nothing and keeps the last good manifests (readiness says
 * why it is not ready), the organization converges once the faults stop, and the heap stays roughly flat.
 * Memory is compared after forced garbage collections, with a generous bound: this is not a timing test.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { RunRecord } from '../../src/daemon/run.js';
import { createLogger } from '../../src/log.js';
import { SUPPORT, startTestDaemon, teamTitles, teamYaml, writes, type TestDaemon } from '../daemon/helpers.js';

const CYCLES = 40;
const FAULTS = '429=0.05,retryAfter=0,5xx=0.03,reset=0.02,resetAfter=0.01,spike=0.02:20ms,seed=11';
// Measured growth over the last 30 cycles is under 1 MB; 8 MB catches a leak of ~250 KB per cycle.
const HEAP_GROWTH_LIMIT = 8 * 1024 * 1024;

/** `global.gc` whether or not node was started with --expose-gc. */
function forceGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function heapAfterGc(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const validEdit = (i: number): string =>
  teamYaml(`Soak ${i}`, ['bob@acme.test', 'carol@acme.test', i % 4 === 0 ? 'erin@acme.test' : 'dan@acme.test']);
const invalidEdits = [
  'apiVersion: docops/v1\nkind: Team\nmetadata:\n  organization: org-demo\nspec:\n  title: [unclosed\n',
  'apiVersion: docops/v1\nkind: Team\nmetadata:\n  organization: org-demo\nspec:\n  title: 42\n',
  'apiVersion: docops/v1\nkind: Teem\nmetadata:\n  organization: org-demo\nspec:\n  title: Typo\n',
  teamYaml('Listed twice', ['bob@acme.test', 'BOB@acme.test']),
];

let t: TestDaemon | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('daemon soak', () => {
  it(`survives ${CYCLES} cycles of valid and invalid edits under faults, keeps the last good state, heap flat`, async () => {
    t = await startTestDaemon({
      files: { 'support.yaml': SUPPORT },
      faults: FAULTS,
      // No watch-triggered runs (each cycle triggers once), quiet logs (a log array would grow), fast retries.
      config: { debounceMs: 60_000 },
      deps: {
        logger: createLogger({ level: 'silent', format: 'json', stream: { write: () => {} } }),
        createClient: async (o) =>
          createClient({ ...o, retry: { maxRetries: 5, minDelayMs: 2, maxDelayMs: 20, maxRetryAfterMs: 50 } }),
      },
    });
    const gc = forceGc();
    const results: RunRecord['result'][] = [];
    const heap: number[] = [];
    let goodDocuments = 0;

    for (let i = 0; i < CYCLES; i++) {
      const valid = i % 2 === 0;
      if (valid) t.write('soak.yaml', validEdit(i));
      else t.write('soak.yaml', invalidEdits[(i >> 1) % invalidEdits.length]!);
      const writesBefore = writes(t.sandbox);
      const run = await t.daemon.trigger('http');
      results.push(run.result);
      if (valid) {
        expect(['success', 'failed'], JSON.stringify(run)).toContain(run.result);
        goodDocuments = run.documents ?? goodDocuments;
      } else {
        expect(run.result).toBe('invalid_manifests');
        expect(writes(t.sandbox), 'an invalid edit wrote to the API').toBe(writesBefore);
        const ready = t.daemon.readiness();
        expect(ready.ready).toBe(false);
        expect(ready.body).toMatchObject({ manifests: { ok: false }, lastGoodManifests: { documents: goodDocuments } });
      }
      if (i === 9 || i >= CYCLES - 10) heap.push(heapAfterGc(gc));
    }

    // Faults off: one more good run converges, and the next one finds nothing to do.
    t.sandbox.setFaults(undefined);
    t.write('soak.yaml', validEdit(CYCLES));
    expect((await t.daemon.trigger('http')).result).toBe('success');
    expect(await t.daemon.trigger('http')).toMatchObject({ result: 'success', planned: 0 });
    expect((await t.get('/readyz')).status).toBe(200);
    expect((await t.get('/healthz')).status).toBe(200);
    expect(await teamTitles(t.sandbox)).toContain(`Soak ${CYCLES}`);
    // Titles are unique: no retried create made a duplicate.
    const titles = await teamTitles(t.sandbox);
    expect(new Set(titles).size).toBe(titles.length);

    expect(results.filter((r) => r === 'invalid_manifests')).toHaveLength(CYCLES / 2);
    expect(t.sandbox.stats().requests.some((r) => r.fault !== undefined)).toBe(true);
    const [warm, ...last] = heap;
    const lastAverage = last.reduce((a, b) => a + b, 0) / last.length;
    expect(lastAverage - warm!, `heap grew from ${warm} to ${lastAverage}`).toBeLessThan(HEAP_GROWTH_LIMIT);
  });
});
