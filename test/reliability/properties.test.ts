/**
 * Properties over random live and desired worlds (Members, Team, Translation):
 *  (a) apply, then plan again: the plan is empty (against a real sandbox seeded with the live world);
 *  (b) with prune off, no delete is ever planned; with prune on, only live objects no manifest names are deleted;
 *  (c) the plan order respects every dependency: each dependsOn and each ref points into an earlier group;
 *  (d) planning never writes (the read-only API records any attempt).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { groups, groupOf } from '../../src/engine/order.js';
import { PHASES, type Plan } from '../../src/model/plan.js';
import { refsIn } from '../../src/model/refs.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { fastClient, loadDesired, planAndApply, planOnce, tempDir } from '../helpers/pipeline.js';
import { worldApi } from '../helpers/world-api.js';
import { fillStore, worldManifests, writeManifests, type World } from '../helpers/world.js';
import { desiredWorldArb, liveWorldArb, optionsArb, type Options } from './arbitraries.js';

const SEED = 20240607;
const scenario = fc.record({ live: liveWorldArb, desired: desiredWorldArb, options: optionsArb });

async function desiredState(world: World) {
  const dir = tempDir('prop');
  writeManifests(dir, worldManifests(world));
  return loadDesired(dir);
}

/** A pure plan: the live world served by a read-only fake API. */
async function purePlan(live: World, desired: World, options: Options): Promise<{ plan: Plan; writes: string[] }> {
  const api = worldApi(live);
  const plan = await planOnce(api, await desiredState(desired), options);
  return { plan, writes: api.writes };
}

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('random worlds', () => {
  it('(a) after one apply the next plan is empty', async () => {
    const seen = { steps: 0, deletes: 0, invites: 0 };
    await fc.assert(
      fc.asyncProperty(scenario, async ({ live, desired, options }) => {
        const sb = await startSandbox({ seed: 'empty' });
        sandbox = sb;
        const client = fastClient(sb, 4);
        try {
          fillStore(sb.store, live);
          const state = await desiredState(desired);
          const { plan, report } = await planAndApply(client, state, options);
          expect(report.failed).toEqual([]);
          seen.steps += plan.steps.length;
          seen.deletes += plan.steps.filter((s) => s.action === 'delete').length;
          seen.invites += plan.steps.filter((s) => s.requests.some((r) => r.path.endsWith('/invites'))).length;
          const again = await planOnce(client, state, options);
          expect(again.steps.map((s) => s.id)).toEqual([]);
        } finally {
          await client.close();
          await sb.close();
        }
      }),
      { numRuns: 40, seed: SEED },
    );
    // The generators must produce real work, or the property proves nothing.
    expect(seen.steps).toBeGreaterThan(100);
    expect(seen.deletes).toBeGreaterThan(5);
    expect(seen.invites).toBeGreaterThan(3);
  });

  it('(b) with prune off no delete step is planned; with prune on only unnamed live objects are deleted', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ live, desired, options }) => {
        const off = await purePlan(live, desired, {
          ...options,
          prune: { Members: false, Team: false, Translation: false },
        });
        expect(
          off.plan.steps.filter((s) => s.action === 'delete' || s.phase === 'delete' || s.phase === 'prune'),
        ).toEqual([]);
        expect(off.plan.steps.flatMap((s) => s.requests).filter((r) => r.method === 'DELETE')).toEqual([]);

        const on = await purePlan(live, desired, options);
        const named = {
          Members: new Set(desired.members.map((m) => m.email.toLowerCase())),
          Team: new Set(desired.teams.map((t) => t.title)),
          Translation: new Set(desired.translations.map((t) => t.title)),
        };
        for (const s of on.plan.steps.filter((x) => x.action === 'delete')) {
          const kind = s.kind as keyof typeof named;
          expect(options.prune[kind], `${s.id} deletes without prune`).toBe(true);
          expect(named[kind].has(s.key), `${s.id} deletes an object a manifest names`).toBe(false);
        }
      }),
      { numRuns: 300, seed: SEED },
    );
  });

  it('(c) every dependency and every ref points to a step in an earlier group, phases in declared order', async () => {
    const seen = { dependsOn: 0, refs: 0 };
    await fc.assert(
      fc.asyncProperty(scenario, async ({ live, desired, options }) => {
        const { plan } = await purePlan(live, desired, options);
        const groupIndex = new Map<string, number>();
        groups(plan.steps).forEach((g, i) => g.forEach((s) => groupIndex.set(s.id, i)));
        for (const s of plan.steps) {
          seen.dependsOn += s.dependsOn.length;
          seen.refs += refsIn(s.requests).length;
          const mine = groupIndex.get(s.id)!;
          const needed = [
            ...s.dependsOn,
            ...refsIn(s.requests)
              .map((r) => r.stepId)
              .filter((id) => id !== s.id),
          ];
          for (const d of needed) {
            const theirs = groupIndex.get(d);
            expect(theirs, `${s.id} needs unknown step ${d}`).toBeDefined();
            expect(theirs!, `${s.id} (${groupOf(s)}) needs ${d}`).toBeLessThan(mine);
          }
        }
        const phaseRanks = plan.steps.map((s) => PHASES.indexOf(s.phase));
        expect(phaseRanks).toEqual([...phaseRanks].sort((a, b) => a - b));
      }),
      { numRuns: 300, seed: SEED },
    );
    expect(seen.dependsOn).toBeGreaterThan(20);
    expect(seen.refs).toBeGreaterThan(20);
  });

  it('(d) planning never sends a write', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ live, desired, options }) => {
        const { writes } = await purePlan(live, desired, options);
        expect(writes).toEqual([]);
      }),
      { numRuns: 100, seed: SEED },
    );
  });
});
