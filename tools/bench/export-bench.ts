/**
 * The 100,000-member export round trip, moved out of `npm test` (where it took ~37 s; a 25,000-member round trip
 * stays there): `docops export` of a generated organization, `validate` of what it wrote (offline), then `plan`
 * of it against the same sandbox, which must find nothing to change, with every file within the export's budget.
 * A round trip that does not close fails the benchmark (it throws); its times are informational.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPORT_FILE_BUDGET } from '#src/export/layout.js';
import { fmt, ms, type MeasureModule, type MeasureOutput } from './measure.js';
import { BENCH_ORG, type OrgSizes } from './org-model.js';
import { cleanEnv, docopsCommand, runTimed, type Exited } from './spawn.js';

export const EXPORT_SIZES: OrgSizes = {
  members: 100_000,
  teams: 1_000,
  teamMemberships: 30_000,
  translations: 10,
  spaces: 20,
  sites: 2,
  sectionsPerSite: 2,
  spacesPerSection: 2,
  sectionsPerGroup: 0,
};

export interface ExportRoundTrip {
  members: number;
  files: number;
  largestFileBytes: number;
  exportMs: number;
  validateMs: number;
  planMs: number;
}

function mustExit(step: string, exit: Exited, code: number): void {
  if (exit.code !== code)
    throw new Error(
      `export round trip: ${step} exited ${String(exit.code)}, not ${code}:\n${exit.stderr.slice(0, 2000)}`,
    );
}

/** The measure on an organization of `sizes` (the benchmark's: EXPORT_SIZES; its test's: a small one). */
export const exportRoundTrip = (sizes: OrgSizes): MeasureModule => ({
  name: 'exportRoundTrip',
  async run(env): Promise<MeasureOutput> {
    env.log(`export round trip, ${fmt(sizes.members)} members`);
    const sb = await env.startSandbox({ sizes, latencyMs: 0 });
    const dir = await mkdtemp(join(tmpdir(), 'docops-bench-export-'));
    try {
      const cli = docopsCommand();
      const vars = cleanEnv({ DOCOPS_TOKEN: sb.token });
      const exported = await runTimed([...cli, 'export', '--org', BENCH_ORG, '-o', dir, '--api-url', sb.url], vars);
      mustExit('export', exported, 0);
      const validated = await runTimed([...cli, 'validate', '-m', dir, '--log-level', 'silent'], cleanEnv());
      mustExit('validate', validated, 0);
      // --detailed-exitcode: 0 only when the plan has no changes.
      const planned = await runTimed([...cli, 'plan', '-m', dir, '--api-url', sb.url, '--detailed-exitcode'], vars);
      mustExit('plan (changes found after a round trip)', planned, 0);
      const entries = await Promise.all((await readdir(dir, { recursive: true })).map((f) => stat(join(dir, f))));
      const fileSizes = entries.filter((e) => e.isFile()).map((e) => e.size);
      const largest = Math.max(...fileSizes);
      if (largest > EXPORT_FILE_BUDGET + 1024)
        throw new Error(
          `export round trip: a file of ${largest} bytes is over the export budget (${EXPORT_FILE_BUDGET})`,
        );
      const trip: ExportRoundTrip = {
        members: sizes.members,
        files: fileSizes.length,
        largestFileBytes: largest,
        exportMs: exported.wallMs,
        validateMs: validated.wallMs,
        planMs: planned.wallMs,
      };
      return {
        keys: { exportRoundTripMs: Math.round(trip.exportMs + trip.validateMs + trip.planMs) },
        details: trip,
        rows: [
          {
            measure: `Export round trip, ${fmt(trip.members)} members: export → validate → plan finds no changes`,
            measured: `export ${ms(trip.exportMs)} · validate ${ms(trip.validateMs)} · plan ${ms(trip.planMs)}; ${fmt(trip.files)} files, largest ${fmt(largest)} bytes`,
            ratio: '',
            target: '',
          },
        ],
        notes: [],
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
      await sb.close();
    }
  },
});

export const exportRoundTripMeasure = exportRoundTrip(EXPORT_SIZES);
