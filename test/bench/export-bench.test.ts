import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../tools/bench/config.js';
import {
  EXPORT_SIZES,
  exportRoundTrip,
  exportRoundTripMeasure,
  type ExportRoundTrip,
} from '../../tools/bench/export-bench.js';
import { startInProcess } from '../../tools/bench/sandbox-env.js';
import { KINDS } from '../../src/kinds/index.js';

const small = {
  members: 60,
  teams: 4,
  teamMemberships: 20,
  translations: 1,
  spaces: 3,
  sites: 1,
  sectionsPerSite: 2,
  spacesPerSection: 1,
  sectionsPerGroup: 0,
};

describe('export round-trip bench row', () => {
  it('is the 100,000-member organization that left npm test', () => {
    expect(EXPORT_SIZES.members).toBe(100_000);
    expect(exportRoundTripMeasure.name).toBe('exportRoundTrip');
  });

  it('exports, validates and plans a small organization with the built CLI, and reports the round trip', async () => {
    const out = await exportRoundTrip(small).run({
      config: DEFAULT_CONFIG,
      kinds: KINDS,
      startSandbox: startInProcess,
      log: () => {},
    });
    const trip = out.details as ExportRoundTrip;
    expect(trip.members).toBe(60);
    expect(trip.files).toBeGreaterThanOrEqual(3); // organization, members, teams at least
    expect(trip.largestFileBytes).toBeGreaterThan(0);
    expect(out.keys['exportRoundTripMs']).toBe(Math.round(trip.exportMs + trip.validateMs + trip.planMs));
    expect(out.rows[0]?.measure).toContain('60 members');
  }, 60_000);
});
