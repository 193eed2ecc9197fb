import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Plan, Step } from '../../src/model/plan.js';
import { costLine, estimateCost, parseSavedPlan } from '../../src/plan-file/index.js';
import { pacedMs } from '../../src/plan-file/cost.js';
import { startSandbox } from '@docops/sandbox';
import { parseRateLimit } from '../../packages/sandbox/src/rate-limit.js';
import { runCli } from './run-cli.js';
import { translations } from '@docops/sandbox';
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
      steps: [
        step('a', 'create', 1, 1),
        step('b', 'create', 1, 1),
        step('c', 'create', 1, 4),
        ...Array.from({ length: 10 }, (_, i) => step(`u${i}`, 'update', 1, 1)),
      ],
      unmanaged: [],
      warnings: [],
      blocked: [],
    };
    const cost = estimateCost(plan, { concurrency: 2, latencyMs: 100 });
    expect(cost).toEqual({ requests: 16, estimatedMs: 900, concurrency: 2, latencyMs: 100 });
    expect(costLine(cost)).toBe('API cost: 16 requests, ~0.9s at concurrency 2 (100ms/request)');
    expect(estimateCost({ ...plan, steps: [] }, { concurrency: 8 })).toEqual({
      requests: 0,
      estimatedMs: 0,
      concurrency: 8,
      latencyMs: 100,
    });
  });
});

describe('the cost under an announced rate limit', () => {
  const plan = (requests: number): Plan => ({
    formatVersion: 1,
    steps: [step('a', 'create', 1, requests)],
    unmanaged: [],
    warnings: [],
    blocked: [],
  });

  it('requests beyond the burst (above half the limit) go at the rate the budget comes back', () => {
    // 60 a minute with 45 left: 15 go at once, the other 25 at one a second.
    const cost = estimateCost(plan(40), {
      concurrency: 8,
      latencyMs: 100,
      rateLimit: { limit: 60, remaining: 45, resetInMs: 20_000 },
    });
    expect(cost.estimatedMs).toBe(25_000);
    expect(costLine(cost)).toBe(
      "API cost: 40 requests, ~25.0s at concurrency 8 (100ms/request; paced to the API's rate limit of 60, 45 left)",
    );
    // A run that fits in the burst costs what its latency costs.
    expect(
      estimateCost(plan(10), { concurrency: 8, latencyMs: 100, rateLimit: { limit: 60, remaining: 45 } }).estimatedMs,
    ).toBe(1000);
    // A reset further off than a minute is the window (an hourly limit).
    expect(pacedMs(100, { limit: 1000, remaining: 0, resetInMs: 3_600_000 })).toBe(360_000);
  });

  it('docops plan against a rate-limited API estimates with the budget its reads saw', async () => {
    const sb = await startSandbox({ host: '127.0.0.1', port: 0, rateLimit: parseRateLimit('600/min') });
    try {
      const planned = await runCli(
        ['plan', '-m', await exampleManifests(), '--api-url', sb.url, '--log-level', 'silent'],
        { DOCOPS_TOKEN: sb.token },
      );
      expect(planned.code).toBe(0);
      expect(planned.stdout).toMatch(
        /API cost: \d+ requests, ~[\d.]+s at concurrency 8 \(100ms\/request; paced to the API's rate limit of 600, \d+ left\)/,
      );
    } finally {
      await sb.close();
    }
  });

  it('a command held back by the rate limit says so on stderr', async () => {
    // The first request is refused with 429 and Retry-After 4: every request of the process waits 4 s.
    const sb = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      faults: { tooManyRequests: 1, maxFaults: 1, retryAfterSeconds: 4, rateLimit: parseRateLimit('600/min') },
    });
    try {
      const planned = await runCli(
        ['plan', '-m', await exampleManifests(), '--api-url', sb.url, '--log-format', 'json'],
        { DOCOPS_TOKEN: sb.token },
      );
      expect(planned.code, planned.stderr).toBe(0);
      expect(planned.stderr).toMatch(/waiting [3-4]\.\d s for the API's rate limit \(the API answered 429/);
    } finally {
      await sb.close();
    }
  });
});

describe('the cost docops plan shows is what apply sends', () => {
  async function planThenApply(dir: string, flags: string[], setup: (cli: LiveCli) => void = () => {}) {
    const cli = await liveCli();
    setup(cli);
    const file = path.join(await tempDir(), 'plan.json');
    const planned = await cli.run([
      'plan',
      '-m',
      dir,
      '--out',
      file,
      '--concurrency',
      '4',
      '--latency-ms',
      '50',
      ...flags,
    ]);
    expect(planned.code).toBe(0);
    const saved = parseSavedPlan(await readFile(file, 'utf8'));
    expect(planned.stdout).toContain(costLine(saved.cost));
    expect(planned.stdout).toMatch(
      new RegExp(`^API cost: ${saved.cost.requests} requests, ~\\d+\\.\\ds at concurrency 4 \\(50ms/request\\)$`, 'm'),
    );
    cli.sb.resetStats();
    const applied = await cli.run([
      'apply',
      '-m',
      dir,
      '--plan',
      file,
      '--force',
      '--journal-dir',
      await tempDir(),
      ...flags,
    ]);
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
        translations(cli.sb.store).put({
          id: `tr-${i}`,
          orgId: 'org-demo',
          title: `T ${i}`,
          languages: [],
          createdAt: '2024-01-01T00:00:00.000Z',
          updatedAt: '2024-01-01T00:00:00.000Z',
        });
      }
    });
    expect(saved.cost.requests).toBe(30);
    expect(writes).toBe(30);
    // 30 one-request deletes in one group at concurrency 4, 50 ms each: 30 / 4 × 50 ms.
    expect(saved.cost.estimatedMs).toBe(375);
  });
});
