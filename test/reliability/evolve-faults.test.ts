/**
 * Issue 33, "Under evolve" (the randomized test of "Done when"): the change world answered by a newer API
 * (`evolve=0.3`: per object, fields docops does not know and values outside the spec's enums), planned and applied
 * once per seed: 0 duplicates, 0 unintended deletes, every unknown field still there after every read-modify-write,
 * every managed value docops does not know shown raw (text, markdown, JSON) and fixed, every unmanaged one left as
 * it is, and the export of the evolved organization validating and planning no change (evolve-world.ts).
 *
 * `npm test` runs seeds 1–10; the tally over 20 seeds prints one line per seed and the totals:
 * `DOCOPS_EVOLVE_SEEDS=20 npx vitest run test/reliability/evolve-faults.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { evolveManifests, evolveOnce, type EvolveOutcome } from './evolve-world.js';

const SEEDS = Number(process.env['DOCOPS_EVOLVE_SEEDS'] ?? 10);
const verbose = process.env['DOCOPS_EVOLVE_SEEDS'] !== undefined;
const EVOLVE = 0.3;

describe(`one apply of the change world under evolve=${EVOLVE}`, () => {
  it(`holds over ${SEEDS} seeds: nothing lost, nothing silently changed, the export plans no change`, async () => {
    const dirs = evolveManifests();
    const out: EvolveOutcome[] = [];
    for (let seed = 1; seed <= SEEDS; seed++) {
      const o = await evolveOnce(seed, EVOLVE, dirs);
      if (verbose) console.log(JSON.stringify(o));
      const at = `seed ${seed}`;
      expect(o.duplicates, at).toEqual([]);
      expect(o.unplannedDeletes, at).toEqual([]);
      expect(o.failed, at).toEqual([]);
      expect(o.left, at).toEqual([]);
      expect(o.lostFields, at).toEqual([]);
      expect(o.driftProblems, at).toEqual([]);
      expect(o.unmanagedProblems, at).toEqual([]);
      expect(o.exportProblems, at).toEqual([]);
      out.push(o);
    }
    const sum = (f: (o: EvolveOutcome) => number): number => out.reduce((n, o) => n + f(o), 0);
    const totals = {
      seeds: out.length,
      converged: out.filter((o) => o.converged).length,
      evolvedObjects: sum((o) => o.evolved),
      unknownFieldsChecked: sum((o) => o.fields),
      wholeObjectWrites: sum((o) => o.rmw),
      driftShownRawAndFixed: sum((o) => o.driftShown),
      unmanagedLeftAsIs: sum((o) => o.unmanagedKept),
    };
    if (verbose) console.log(JSON.stringify(totals));
    // The world did what it is for: objects evolved, read-modify-writes sent, drift shown, values left alone.
    expect(totals.converged).toBe(SEEDS);
    expect(totals.wholeObjectWrites).toBeGreaterThan(0);
    expect(totals.driftShownRawAndFixed).toBeGreaterThan(0);
    expect(totals.unmanagedLeftAsIs).toBeGreaterThan(0);
  }, 300_000);
});
