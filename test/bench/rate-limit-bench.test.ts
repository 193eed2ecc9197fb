import { describe, expect, it } from 'vitest';
import type { BenchConfig } from '../../tools/bench/config.js';
import { TINY_BENCH } from './tiny-config.js';
import { lowerBoundRequests } from '../../tools/bench/bounds.js';
import { planNeeds } from '../../tools/bench/needs.js';
import { generateOrg } from '../../tools/bench/org-model.js';
import { rateLimitRows, runRateLimitBench } from '../../tools/bench/rate-limit-bench.js';
import { startInProcess } from '../../tools/bench/sandbox-env.js';
import { KINDS } from '../../src/kinds/index.js';

// Its cold plans are not what this row measures.
const tiny: BenchConfig = { ...TINY_BENCH, coldPlans: [] };

describe('rate-limit bench row on a tiny organization', () => {
  it('plans a no-op under the sandbox rate limit, counts requests and 429s from the sandbox, and renders its row', async () => {
    const r = await runRateLimitBench(
      tiny,
      { kinds: KINDS, startSandbox: startInProcess },
      { targetSeconds: 0.5, runs: 2 },
    );
    expect(r.rateLimit.runs).toHaveLength(2);
    // The rate: the plan's lower bound of requests ÷ 0.5 s; the no-op plan reads exactly that many.
    const bound = lowerBoundRequests(planNeeds(generateOrg(tiny.sizes), new Set(KINDS.map((k) => k.kind))));
    const perSecond = Math.ceil(bound / 0.5);
    expect(r.rateLimit).toMatchObject({ perSecond, spec: `latency=1ms,rateLimit=${perSecond}/s` });
    for (const run of r.rateLimit.runs) {
      expect(run).toMatchObject({ steps: 0, requests: bound, rateLimited: 0 });
      expect(run.boundMs).toBe(Math.round((bound / perSecond) * 1000));
    }
    expect(r.rateLimit429s).toBe(0);
    expect(Number.isFinite(r.rateLimitRatio)).toBe(true);
    const [row] = rateLimitRows(r);
    expect(row?.measure).toContain(`rate limit of ${perSecond}/s per token`);
    expect(row?.measured).toContain('0 × 429');
  }, 30_000);
});
