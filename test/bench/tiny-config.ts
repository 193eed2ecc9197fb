/** The bench's config scaled to a tiny organization (a few dozen members), for tests of its measures. */
import type { BenchConfig } from '../../tools/bench/config.js';

export const TINY_BENCH: BenchConfig = {
  sizes: {
    members: 40,
    teams: 5,
    teamMemberships: 30,
    translations: 2,
    spaces: 8,
    sites: 2,
    sectionsPerSite: 2,
    spacesPerSection: 2,
    sectionsPerGroup: 1,
  },
  cpuSizes: {
    members: 50,
    teams: 4,
    teamMemberships: 24,
    translations: 1,
    spaces: 6,
    sites: 1,
    sectionsPerSite: 2,
    spacesPerSection: 2,
    sectionsPerGroup: 1,
  },
  changes: { roleChanges: 6, teamsChanged: 2, changesPerTeam: 3, newTeams: 2 },
  latencyMs: 1,
  concurrency: 4,
  planRuns: 1,
  cpuRuns: 1,
  startupPairs: 1,
  startupCpuRuns: 1,
  coldPlans: [{ members: 40, runs: 1 }],
};
