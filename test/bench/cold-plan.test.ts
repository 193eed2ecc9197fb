/**
 * The start-up and cold-plan measures on a tiny organization, against a build of src/: the mechanics (the
 * split adds up to the wall time, requests come from the sandbox and meet the bound, the probe sees the
 * process's modules), never how fast anything is.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { measureColdPlan } from '../../tools/bench/cold-plan.js';
import { coldPlanRow, planRatioKey } from '../../tools/bench/cold-plan-measure.js';
import { DEFAULT_CONFIG } from '../../tools/bench/config.js';
import { startInProcess } from '../../tools/bench/sandbox-env.js';
import { cleanEnv, runProbed } from '../../tools/bench/spawn.js';
import { wallRatio } from '../../tools/bench/startup-bench.js';
import { KINDS } from '../../src/kinds/index.js';
import { quickBuild } from '../daemon/build.js';

let docops: string[];
let probeUrl: string;

beforeAll(() => {
  const build = quickBuild();
  docops = [process.execPath, join(build, 'dist/cli/main.js')];
  probeUrl = new URL(`file://${join(build, 'dist-tools/bench/probe.js')}`).href;
}, 60_000);

describe('cold plan measure', () => {
  it('splits each run into before the first request, I/O and after the last response, with the sandbox counting requests', async () => {
    const m = await measureColdPlan({
      members: 40,
      base: DEFAULT_CONFIG.sizes,
      latencyMs: 1,
      concurrency: 4,
      runs: 2,
      kinds: new Set(KINDS.map((k) => k.kind)),
      startSandbox: startInProcess,
      command: docops,
    });
    expect(m.sizes).toMatchObject({ members: 40, teams: 4, teamMemberships: 80 });
    expect(m.runs).toHaveLength(2);
    for (const r of m.runs) {
      expect(r.requests).toBe(m.lowerBound);
      expect(r.beforeFirstRequestMs).toBeGreaterThan(0);
      expect(r.ioMs).toBeGreaterThan(0);
      expect(r.afterLastResponseMs).toBeGreaterThan(0);
      expect(Math.abs(r.beforeFirstRequestMs + r.ioMs + r.afterLastResponseMs - r.wallMs)).toBeLessThan(0.5);
    }
    expect(m.ratio).toBeCloseTo(m.median.wallMs / m.criticalPathMs, 2);
    expect(coldPlanRow(m).measured).toContain('before first request');
    expect(planRatioKey(1000)).toBe('planRatio1k');
    expect(planRatioKey(30_000)).toBe('planRatio30k');
  }, 60_000);
});

describe('start-up measures', () => {
  it('pairs two commands and takes the median of the pairs’ ratios', async () => {
    const r = await wallRatio([process.execPath, '-e', '0'], [process.execPath, '-e', '0'], 3, cleanEnv());
    expect(r.ratios).toHaveLength(3);
    expect(r.ratio).toBeGreaterThan(0);
    expect([...r.ratios].sort((a, b) => a - b)[1]).toBe(r.ratio);
  });

  it('the probe reports the modules and the CPU of a process', async () => {
    const p = await runProbed(docops, ['--version'], cleanEnv(), { runs: 1, probeUrl });
    expect(p.cpuMs).toBeGreaterThan(0);
    expect(p.modules.some((m) => m.endsWith('/dist/cli/main.js'))).toBe(true);
    expect(p.modules.some((m) => m.includes('/bench/probe'))).toBe(false);
  });
});
