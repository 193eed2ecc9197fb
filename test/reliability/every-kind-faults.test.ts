/**
 * Issue 22's target: a plan that creates objects of every kind (every-kind-world.ts), planned and applied under
 * 20 % 429, 10 % 5xx and 5 % resets, converges in ONE apply in at least 19 of 20 seeds — the next plan is empty —
 * and in every seed nothing exists twice and no DELETE was sent that the plan did not ask for. The same with each
 * 5xx and reset half after the server processed the request (so recovery finds creates as well as re-sends them).
 *
 * `npm test` runs seeds 1–10 (and 1–5 of the second spec), allowing one seed that needs a second apply. The
 * issue's tally over 20 seeds (19 must converge), or more (95 %), prints one line per seed and the count:
 * `DOCOPS_FAULT_SEEDS=20 npx vitest run test/reliability/every-kind-faults.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import {
  convergeOnce,
  ISSUE22_FAULTS,
  ISSUE22_FAULTS_AFTER,
  everyKindManifests,
  type SeedOutcome,
} from './every-kind-world.js';

const SEEDS = Number(process.env['DOCOPS_FAULT_SEEDS'] ?? 10);
const verbose = process.env['DOCOPS_FAULT_SEEDS'] !== undefined;
/** Seeds of `n` that must converge in one apply: all but one up to 20 seeds (19 of 20), 95 % beyond. */
const needed = (n: number): number => n - Math.max(1, Math.floor(n * 0.05));

async function tally(faults: string, seeds: number): Promise<SeedOutcome[]> {
  const dir = everyKindManifests();
  const out: SeedOutcome[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const o = await convergeOnce(seed, faults, dir);
    if (verbose) console.log(JSON.stringify({ ...o, left: o.left.slice(0, 8) }));
    // Every seed, converged or not: nothing twice, no DELETE beyond the plan.
    expect(o.duplicates, `seed ${seed}`).toEqual([]);
    expect(o.unplannedDeletes, `seed ${seed}`).toEqual([]);
    out.push(o);
  }
  if (verbose)
    console.log(`${faults}: ${out.filter((o) => o.converged).length} of ${seeds} seeds converged in one apply`);
  return out;
}

const summary = (out: readonly SeedOutcome[]): string =>
  out
    .filter((o) => !o.converged)
    .map((o) => `seed ${o.seed}: left ${o.left.join(', ')}; failed ${o.failed.map((f) => f.message).join('; ')}`)
    .join('\n');

describe('one apply of a plan that creates every kind, under faults', () => {
  it(`converges in all but one of ${SEEDS} seeds (19 of 20 for the issue's tally) under ${ISSUE22_FAULTS}`, async () => {
    const out = await tally(ISSUE22_FAULTS, SEEDS);
    expect(out[0]!.steps).toBeGreaterThan(55);
    // The faults happened and creates were looked up (and, the faults coming before processing, sent again).
    expect(out.every((o) => o.faults > 10)).toBe(true);
    expect(out.reduce((n, o) => n + (o.recovered['absent'] ?? 0), 0)).toBeGreaterThan(0);
    expect(out.filter((o) => o.converged).length, summary(out)).toBeGreaterThanOrEqual(needed(SEEDS));
  }, 120_000);

  it('converges in all but one seed when half of the 5xx and resets come after processing', async () => {
    const seeds = Math.ceil(SEEDS / 2);
    const out = await tally(ISSUE22_FAULTS_AFTER, seeds);
    expect(out.reduce((n, o) => n + (o.recovered['found'] ?? 0), 0)).toBeGreaterThan(0);
    expect(out.filter((o) => o.converged).length, summary(out)).toBeGreaterThanOrEqual(needed(seeds));
  }, 120_000);

  it('plans a create of every kind', async () => {
    const [o] = await tally('429=0', 1);
    expect(o!.createKinds).toEqual([
      'Collection',
      'CollectionAccess',
      'Members',
      'OpenAPISpec',
      'SamlProvider',
      'Site',
      'SiteAccess',
      'SiteSection',
      'SiteSectionGroup',
      'SiteShareLink',
      'SiteSpace',
      'Space',
      'SpaceAccess',
      'Team',
      'Translation',
    ]);
    expect(o!.converged).toBe(true);
  });
});
