/** Sizes, latency and targets of `npm run bench` (issue 8). */
import { BENCH_SIZES, type ChangeSizes, type OrgSizes } from './org-model.js';

export interface BenchConfig {
  /** The organization behind the plan and apply benchmarks. */
  sizes: OrgSizes;
  /** The organization of the no-I/O CPU benchmark (~100,000 entities). */
  cpuSizes: OrgSizes;
  changes: ChangeSizes;
  latencyMs: number;
  concurrency: number;
  /** Measured no-op plans (after one warm-up); the median counts. */
  planRuns: number;
  /** Cold CPU runs (each in a fresh process) of the CPU benchmark and of its floor; the median counts. */
  cpuRuns: number;
  /** Alternating pairs of the start-up ratios (docops ÷ `node -e 0`). */
  startupPairs: number;
  /** Runs per command of the start-up CPU probe; the median counts. */
  startupCpuRuns: number;
  /** Cold `docops plan` runs per organization size (members); the median counts. */
  coldPlans: readonly { members: number; runs: number }[];
}

export const DEFAULT_CONFIG: BenchConfig = {
  sizes: BENCH_SIZES,
  // 1 + 60,000 + 2,000 + 30,000 + 10 + 6,289 + 100 sites × (1 + 5 sections + 1 group + 10 site spaces) = 100,000.
  cpuSizes: {
    members: 60_000,
    teams: 2_000,
    teamMemberships: 30_000,
    translations: 10,
    spaces: 6_289,
    sites: 100,
    sectionsPerSite: 5,
    spacesPerSection: 2,
    sectionsPerGroup: 2,
  },
  // 500 role changes + 100 teams × 4 membership changes + 100 new teams = 1,000 changes.
  changes: { roleChanges: 500, teamsChanged: 100, changesPerTeam: 4, newTeams: 100 },
  latencyMs: 20,
  concurrency: 8,
  planRuns: 3,
  cpuRuns: 5,
  startupPairs: 20,
  startupCpuRuns: 5,
  // The organization above scaled to 1,000 and 30,000 members (same proportions, scaledSizes in cold-plan.ts).
  coldPlans: [
    { members: 1_000, runs: 7 },
    { members: 10_000, runs: 3 },
    { members: 30_000, runs: 3 },
  ],
};

export const TARGETS = {
  /** Cold `docops plan` wall ÷ critical path, 1,000 members (issue 14). */
  planRatio1k: 2.0,
  /** `docops --version` wall ÷ `node -e 0`. */
  versionRatio: 1.5,
  /** `docops validate -m config.example/manifests` wall ÷ `node -e 0`. */
  validateRatio: 3.0,
  requestsRatio: 1.0,
  planWallRatio: 1.25,
  /** No longer a target (issue 14): the runtime's floor is above it. Kept for the informational row. */
  diffCpuMs: 250,
  peakRssMb: 300,
  applyWallRatio: 1.25,
} as const;
