/**
 * Issue 14's bench row: the no-op plan of the benchmark organization against a sandbox rate limit (a token bucket
 * per token, rateLimit= in the fault spec) that allows the whole plan in about 10 s: its lower bound of requests
 * ÷ 10, per second, with a bucket of one second's worth. Bound = requests ÷ rate (requests counted by the
 * sandbox, the refused ones left out); target ≤ 1.15 × the bound with zero 429 answers (from the sandbox's
 * stats). Each run starts with a fresh, full bucket (the limit is set again through PUT /_sandbox/faults) and a
 * new client, so nothing learned in one run paces the next.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '#src/api/client.js';
import type { KindDefinition } from '#src/model/kind.js';
import { computePlan } from '#src/engine/reconcile.js';
import { loadManifests } from '#src/manifests/index.js';
import { lowerBoundRequests } from './bounds.js';
import type { BenchConfig } from './config.js';
import { fmt, type MeasureModule, type Row } from './measure.js';
import { orgDocuments, writeManifests } from './documents.js';
import { planNeeds } from './needs.js';
import { generateOrg } from './org-model.js';
import type { BenchSandbox, SandboxRequest } from './sandbox-env.js';

export const RATE_LIMIT_TARGET = { ratio: 1.15, tooManyRequests: 0 } as const;

export interface RateLimitRun {
  wallMs: number;
  /** Requests the sandbox answered (not counting the 429s). */
  requests: number;
  /** 429 answers of the rate limit. */
  rateLimited: number;
  /** requests ÷ rate. */
  boundMs: number;
  ratio: number;
  steps: number;
}

export interface RateLimitBench {
  /** Median run's wall time ÷ (requests ÷ rate). */
  rateLimitRatio: number;
  /** 429 answers over all runs. */
  rateLimit429s: number;
  rateLimit: {
    spec: string;
    perSecond: number;
    targetSeconds: number;
    concurrency: number;
    latencyMs: number;
    runs: RateLimitRun[];
  };
}

export interface RateLimitBenchDeps {
  kinds: readonly KindDefinition[];
  startSandbox(req: SandboxRequest): Promise<BenchSandbox>;
  log?: (line: string) => void;
}

const ratio = (a: number, b: number): number => (b === 0 ? Number.NaN : Math.round((a / b) * 1000) / 1000);

export async function runRateLimitBench(
  config: BenchConfig,
  deps: RateLimitBenchDeps,
  opts: { targetSeconds?: number; runs?: number } = {},
): Promise<RateLimitBench> {
  const log = deps.log ?? (() => {});
  const targetSeconds = opts.targetSeconds ?? 10;
  const runCount = opts.runs ?? 3;
  const names = new Set(deps.kinds.map((k) => k.kind));
  const org = generateOrg(config.sizes);
  const perSecond = Math.max(1, Math.ceil(lowerBoundRequests(planNeeds(org, names)) / targetSeconds));
  const spec = `latency=${config.latencyMs}ms,rateLimit=${perSecond}/s`;
  const tmp = await mkdtemp(join(tmpdir(), 'docops-bench-rl-'));
  const sb = await deps.startSandbox({ sizes: config.sizes, latencyMs: config.latencyMs });
  try {
    await writeManifests(tmp, orgDocuments(org, names));
    const { desired } = await loadManifests(tmp, deps.kinds);
    const plan = async (): Promise<number> => {
      const client = createClient({ baseUrl: sb.url, token: sb.token, concurrency: config.concurrency });
      try {
        return (await computePlan(client, deps.kinds, desired)).plan.steps.length;
      } finally {
        await client.close();
      }
    };
    log(`no-op plan under a rate limit of ${perSecond}/s: one warm-up without the limit, then ${runCount} runs`);
    await plan();
    const runs: RateLimitRun[] = [];
    for (let i = 0; i < runCount; i++) {
      await setFaults(sb, spec); // a fresh, full bucket
      await sb.resetStats();
      const started = performance.now();
      const steps = await plan();
      const wallMs = performance.now() - started;
      const stats = await sb.stats();
      const requests = stats.total - stats.rateLimited;
      const boundMs = (requests / perSecond) * 1000;
      runs.push({
        wallMs: Math.round(wallMs),
        requests,
        rateLimited: stats.rateLimited,
        boundMs: Math.round(boundMs),
        ratio: ratio(wallMs, boundMs),
        steps,
      });
      log(
        `  run ${i + 1}: ${Math.round(wallMs)} ms for ${requests} requests (bound ${Math.round(boundMs)} ms), ${stats.rateLimited} × 429`,
      );
    }
    const median = [...runs].sort((a, b) => a.ratio - b.ratio)[Math.floor(runs.length / 2)]!;
    return {
      rateLimitRatio: median.ratio,
      rateLimit429s: runs.reduce((n, r) => n + r.rateLimited, 0),
      rateLimit: { spec, perSecond, targetSeconds, concurrency: config.concurrency, latencyMs: config.latencyMs, runs },
    };
  } finally {
    await sb.close();
    await rm(tmp, { recursive: true, force: true });
  }
}

async function setFaults(sb: BenchSandbox, spec: string): Promise<void> {
  const res = await fetch(`${sb.origin}/_sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ spec }),
  });
  if (!res.ok) throw new Error(`sandbox faults: HTTP ${res.status}`);
}

/** The measure module (run.ts): rateLimitRatio and rateLimit429s at latest.json's top level, one table row. */
export const rateLimitMeasure: MeasureModule = {
  name: 'rateLimit',
  async run(env) {
    const r = await runRateLimitBench(env.config, { kinds: env.kinds, startSandbox: env.startSandbox, log: env.log });
    const [row] = rateLimitRows(r);
    return {
      keys: { rateLimitRatio: r.rateLimitRatio, rateLimit429s: r.rateLimit429s },
      details: r.rateLimit,
      rows: [row!],
      notes: row!.met
        ? []
        : [`rate-limited plan off target: ${r.rateLimitRatio} × the bound, ${r.rateLimit429s} × 429`],
    };
  },
};

export function rateLimitRows(r: RateLimitBench): Row[] {
  const d = r.rateLimit;
  const median = [...d.runs].sort((a, b) => a.ratio - b.ratio)[Math.floor(d.runs.length / 2)];
  return [
    {
      measure: `No-op plan under a rate limit of ${fmt(d.perSecond)}/s per token (~${d.targetSeconds} s for the plan) ÷ requests ÷ rate; 429s over ${d.runs.length} runs`,
      measured: median ? `${fmt(median.wallMs)} ms ÷ ${fmt(median.boundMs)} ms; ${r.rateLimit429s} × 429` : '',
      ratio: r.rateLimitRatio.toFixed(2),
      target: `≤ ${RATE_LIMIT_TARGET.ratio}, ${RATE_LIMIT_TARGET.tooManyRequests} × 429`,
      met: r.rateLimitRatio <= RATE_LIMIT_TARGET.ratio && r.rateLimit429s <= RATE_LIMIT_TARGET.tooManyRequests,
    },
  ];
}
