/** Sizes, latency and targets of `npm run bench` (issue 8). */
import type { ChangeSizes, OrgSizes } from './org-model.js';

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
}

export const DEFAULT_CONFIG: BenchConfig = {
  sizes: { members: 10_000, teams: 1_000, teamMemberships: 20_000, translations: 5, spaces: 500, sites: 50, sectionsPerSite: 4, spacesPerSection: 2, sectionsPerGroup: 2 },
  // 1 + 60,000 + 2,000 + 30,000 + 10 + 6,289 + 100 sites × (1 + 5 sections + 1 group + 10 site spaces) = 100,000.
  cpuSizes: { members: 60_000, teams: 2_000, teamMemberships: 30_000, translations: 10, spaces: 6_289, sites: 100, sectionsPerSite: 5, spacesPerSection: 2, sectionsPerGroup: 2 },
  // 500 role changes + 100 teams × 4 membership changes + 100 new teams = 1,000 changes.
  changes: { roleChanges: 500, teamsChanged: 100, changesPerTeam: 4, newTeams: 100 },
  latencyMs: 20,
  concurrency: 8,
  planRuns: 3,
  cpuRuns: 5,
};

export const TARGETS = {
  requestsRatio: 1.0,
  planWallRatio: 1.25,
  diffCpuMs: 250,
  peakRssMb: 300,
  applyWallRatio: 1.25,
} as const;
