/** What one benchmark run measured (harness.ts runs it; report.ts renders it). */
import type { ApplyMeasure } from './apply-bench.js';
import type { BenchConfig } from './config.js';
import type { CpuMeasure } from './cpu.js';
import type { FloorMeasure } from './cpu-floor.js';
import type { PlanMeasure } from './plan-bench.js';
import type { ReadMeasure } from './read-bench.js';

export interface BenchResult {
  requestsRatio: number;
  planWallRatio: number;
  diffCpuMs: number;
  peakRssMb: number;
  applyWallRatio: number;
  refreshBaselineRequests: number;
  date: string;
  machine: { cpus: number; cpuModel: string; totalMemMb: number; node: string; platform: string };
  config: BenchConfig;
  kinds: string[];
  entities: Record<string, number>;
  plan: {
    requests: number;
    lowerBound: number;
    /** Without the per-site site-spaces lists (they are embedded in the sections list). */
    strictLowerBound: number;
    requestsRatioStrict: number;
    chainRequests: number;
    criticalPathMs: number;
    wallMs: number;
    runs: PlanMeasure['runs'];
    steps: number;
    firstSteps: string[];
    byRoute: Record<string, number>;
  };
  apply: ApplyMeasure & { changes: number };
  cpu: CpuMeasure;
  /** CPU of the least work validate + diff of the CPU benchmark's members alone needs (cpu-floor.ts), same process. */
  cpuFloorMs: number;
  cpuFloor: FloorMeasure;
  /** diffCpuMs ÷ cpuFloorMs: median of the runs' own ratios (each run measures both). */
  cpuFloorRatio: number;
  /** CPU of parse + validate of the same organization from YAML files (not a target). */
  readCpuMs: number;
  read: ReadMeasure;
  refreshBaseline: { byType: Record<string, number>; total: number; vsDocopsPlan: number };
  notes: string[];
}
