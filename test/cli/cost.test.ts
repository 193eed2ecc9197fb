import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Plan, Step } from '../../src/core/plan.js';
import { costLine, estimateCost, parseSavedPlan } from '../../src/plan-file/index.js';
import { translations } from '../../src/sandbox/index.js';
import { doc, exampleManifests, liveCli, manifestsOf, tempDir, type LiveCli } from './safety-cli-helpers.js';

function step(id: string, phase: Step['phase'], wave: number, requests: number): Step {
  return {
    id,
    action: phase === 'prune' ? 'delete' : phase === 'create' ? 'create' : phase === 'update' ? 'update' : 'delete',
    phase,
    kind: 'Team',
    org: 'o',
    key: id,
    wave,
    before: null,
    after: null,
    dependsOn: [],
    requests: Array.from({ length: requests }, () => ({ method: 'PUT' as const, path: `/x/${id}` })),
  };
}

describe('estimateCost', () => {
  it('takes, per wave group, the larger of the longest step and the requests spread over the concurrency', () => {
    const plan: Plan = {
      formatVersion: 1,
      // Group create:1 — steps of 1, 1 and 4 requests: critical path 4 × 100 = 400 > 6 / 2 × 100 = 300.
      // Group update:1 — ten 1-request steps: 10 / 2 × 100 = 500 > 1 × 100.
      steps: [step('a', 'create', 1, 1), step('b', 'create', 1, 1), step('c', 'create', 1, 4), ...Array.from({ length: 10 }, (_, i) => step(`u${i}`, 'update', 1, 1))],
      unmanaged: [],
      warnings: [],
      blocked: [],
    };
    const cost = estimateCost(plan, { concurrency: 2, latencyMs: 100 });
    expect(cost).toEqual({ requests: 16, estimatedMs: 900, concurrency: 2, latencyMs: 100 });
    expect(costLine(cost)).toBe('API cost: 16 requests, ~0.9s at concurrency 2 (100ms/request)');
    expect(estimateCost({ ...plan, steps: [] }, { concurrency: 8 })).toEqual({ requests: 0, estimatedMs: 0, concurrency: 8, latencyMs: 100 });
  });
});

describe('the cost docops plan shows is what apply sends', () => {
  async function planThenApply(dir: string, flags: string[], setup: (cli: LiveCli) => void = () => {}) {
    const cli = await liveCli();
    setup(cli);
    const file = path.join(await tempDir(), 'plan.json');
    const planned = await cli.run(['plan', '-m', dir, '--out', file, '--concurrency', '4', '--latency-ms', '50', ...flags]);
    expect(planned.code).toBe(0);
    const saved = parseSavedPlan(await readFile(file, 'utf8'));
    expect(planned.stdout).toContain(costLine(saved.cost));
    expect(planned.stdout).toMatch(new RegExp(`^API cost: ${saved.cost.requests} requests, ~\\d+\\.\\ds at concurrency 4 \\(50ms/request\\)$`, 'm'));
    cli.sb.resetStats();
    const applied = await cli.run(['apply', '-m', dir, '--plan', file, '--force', '--journal-dir', await tempDir(), ...flags]);
    expect(applied.code).toBe(0);
    return { saved, writes: cli.writes() };
  }

  it('for the example manifests (team create with members, membership, role change)', async () => {
    const { saved, writes } = await planThenApply(await exampleManifests(), []);
    expect(saved.cost.requests).toBeGreaterThan(0);
    expect(writes).toBe(saved.cost.requests);
  });

  it('for a prune of many objects', async () => {
    const dir = await manifestsOf({ 'translations.yaml': doc('Translation', '  title: French docs\n') });
    const { saved, writes } = await planThenApply(dir, ['--prune', 'Translation'], (cli) => {
      for (let i = 0; i < 30; i++) {
        translations(cli.sb.store).put({ id: `tr-${i}`, orgId: 'org-demo', title: `T ${i}`, languages: [], createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' });
      }
    });
    expect(saved.cost.requests).toBe(30);
    expect(writes).toBe(30);
    // 30 one-request deletes in one group at concurrency 4, 50 ms each: 30 / 4 × 50 ms.
    expect(saved.cost.estimatedMs).toBe(375);
  });
});
