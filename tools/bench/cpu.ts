/**
 * The no-I/O benchmark: CPU time of validate (envelope + schema + toDesired + crossValidate + duplicates,
 * i.e. the loader after YAML parsing) and diff + order for a large organization whose desired and live
 * state are built in memory. The live state comes from the kinds' real fetch code reading in-memory lists.
 * The same process first measures the floor (cpu-floor.ts) for the members alone, with a validator of its
 * own, so docops's CPU is stated as a multiple of a floor measured under the same conditions.
 */
import { fork } from 'node:child_process';
import { ValidationError } from '#src/model/errors.js';
import type { DesiredEntry, KindDefinition } from '#src/model/kind.js';
import { diffAll, fetchLive } from '#src/engine/reconcile.js';
import { validateParsedFiles, type ParsedFile } from '#src/manifests/load.js';
import type { ParsedYamlDoc } from '#src/manifests/parse.js';
import { orgDocuments } from './documents.js';
import { memoryClient } from './live-items.js';
import { measureFloor, type FloorMeasure } from './cpu-floor.js';
import type { ReadMeasure } from './read-bench.js';
import { entityCounts, ENTITY_KIND, generateOrg, type OrgSizes } from './org-model.js';

export interface CpuMeasure {
  entities: number;
  entityCounts: Record<string, number>;
  documents: number;
  /** user + system CPU of validate + diff + order. */
  cpuMs: number;
  validateCpuMs: number;
  diffCpuMs: number;
  wallMs: number;
  /** CPU of building the live state through the kinds' fetch (not part of the target). */
  liveBuildCpuMs: number;
  /** Peak resident set size of the whole process (KiB from getrusage → MB). */
  peakRssMb: number;
  steps: number;
  /** CPU of every run when several were made (measureCpuInChild); this measure is the median one. */
  runsCpuMs?: number[];
  /** The floor for the members alone, measured in the same process just before (cpu-floor.ts). */
  floor: FloorMeasure;
  /** cpuMs ÷ floor.cpuMs of this run. */
  floorRatio: number;
  /** floorRatio of every run, when several were made. */
  runsFloorRatio?: number[];
}

const cpuMsSince = (start: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
};

/** The loader's steps after parsing (its own code), on documents that are already plain data. */
function validate(files: readonly ParsedFile[], kinds: readonly KindDefinition[]): Map<string, DesiredEntry[]> {
  const { desired, issues } = validateParsedFiles(files, kinds);
  if (issues.length > 0) throw new ValidationError(issues);
  return desired;
}

export async function measureCpu(sizes: OrgSizes, kinds: readonly KindDefinition[]): Promise<CpuMeasure> {
  const membersKind = kinds.find((k) => k.kind === 'Members');
  if (!membersKind) throw new Error('the CPU benchmark needs the Members kind (for its floor)');
  const floor = measureFloor(sizes.members, membersKind);
  const org = generateOrg(sizes);
  const names = new Set(kinds.map((k) => k.kind));
  const files = orgDocuments(org, names);
  const parsed: ParsedFile[] = [...files].map(([file, docs]) => ({
    issues: [],
    documents: docs.map((value, index): ParsedYamlDoc => {
      const at = { file, line: index + 1, column: 1 };
      return { file, index, value: structuredClone(value), pos: () => at, keyPos: () => at };
    }),
  }));
  // Only entities of registered kinds are validated and diffed.
  const counts = Object.fromEntries(
    Object.entries(entityCounts(org)).filter(([what]) => names.has(ENTITY_KIND[what] ?? '')),
  );
  const client = memoryClient(org);

  // Measured cold, as one `docops plan` run is: validate, then (unmeasured) the live state through the same
  // fetch code a real plan runs, then diff + order.
  let wallMs = 0;
  let t = performance.now();
  const start = process.cpuUsage();
  const desired = validate(parsed, kinds);
  const validateCpuMs = cpuMsSince(start);
  wallMs += performance.now() - t;

  const liveStart = process.cpuUsage();
  const live = await fetchLive(client, kinds, desired);
  const liveBuildCpuMs = cpuMsSince(liveStart);

  t = performance.now();
  const diffStart = process.cpuUsage();
  const plan = diffAll(kinds, desired, live);
  const diffCpuMs = cpuMsSince(diffStart);
  wallMs += performance.now() - t;
  const cpuMs = validateCpuMs + diffCpuMs;

  return {
    entities: Object.values(counts).reduce((a, b) => a + b, 0),
    entityCounts: counts,
    documents: parsed.reduce((n, f) => n + f.documents.length, 0),
    cpuMs,
    validateCpuMs,
    diffCpuMs,
    wallMs,
    liveBuildCpuMs,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    steps: plan.steps.length,
    floor,
    floorRatio: floor.cpuMs > 0 ? cpuMs / floor.cpuMs : Number.NaN,
  };
}

/** Run the CPU child (dist-tools/bench/cpu-child.js) once in a fresh process, so peak RSS and cold code are its own. */
function inChild<T>(args: string[]): Promise<T> {
  const child = fork(new URL('./cpu-child.js', import.meta.url), args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise<T>((resolve, reject) => {
    let result: T | undefined;
    child.once('message', (m) => (result = m as T));
    child.once('error', reject);
    child.once('exit', (code) =>
      result ? resolve(result) : reject(new Error(`CPU benchmark child exited with code ${code} and no result`)),
    );
  });
}

/** The run with the median `cpuMs` of `runs` (odd counts pick the middle one). */
export function medianRun<T extends { cpuMs: number }>(runs: readonly T[]): T {
  if (runs.length === 0) throw new Error('no runs');
  return [...runs].sort((a, b) => a.cpuMs - b.cpuMs)[Math.floor((runs.length - 1) / 2)]!;
}

/**
 * The CPU child with `args` in `runs` fresh processes, one after another: the median run, with every run's
 * CPU. A single cold run swings by ±30 % (whether a major GC lands inside the measured part), hence several.
 */
async function medianInChildren<T extends { cpuMs: number }>(
  args: string[],
  runs: number,
): Promise<T & { runsCpuMs: number[]; all: T[] }> {
  const all: T[] = [];
  for (let i = 0; i < runs; i++) all.push(await inChild<T>(args));
  return { ...medianRun(all), runsCpuMs: all.map((r) => Math.round(r.cpuMs)), all };
}

/** measureCpu (this file, with its floor) in fresh child processes; the median run, with every run's ratio to its floor. */
export async function measureCpuInChild(sizes: OrgSizes, runs = 1): Promise<CpuMeasure> {
  const { all, ...median } = await medianInChildren<CpuMeasure>(['plan', JSON.stringify(sizes)], runs);
  return { ...median, runsFloorRatio: all.map((r) => Math.round(r.floorRatio * 100) / 100) };
}

/** measureRead (read-bench.ts) in fresh child processes; the median run. */
export const measureReadInChild = (sizes: OrgSizes, runs = 1): Promise<ReadMeasure & { runsCpuMs: number[] }> =>
  medianInChildren<ReadMeasure>(['read', JSON.stringify(sizes)], runs);
