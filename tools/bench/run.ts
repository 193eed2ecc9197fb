/**
 * `npm run bench`: every measure module on the default sizes, in the order of MEASURES (which is also the
 * order of the table's rows). Prints the table and writes bench/results/latest.json (each module's headline
 * keys at the top level, its details under its name) and latest.md, relative to the working directory (the
 * package root under npm). A new measure is one more module in MEASURES (see measure.ts).
 * `--only NAME[,NAME]` (a module's name) runs those modules and prints their rows without writing the results:
 * for working on one measure; the numbers users see come from a whole run. `--only NAME --merge` also writes
 * their keys and details into the existing latest.json (noted under `partialRuns` with the date; latest.md is
 * left as it is): a new measure's numbers on a shared machine without running every other measure again.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { KINDS } from '#src/kinds/index.js';
import { coldPlanMeasure } from './cold-plan-measure.js';
import { daemonSaveMeasure } from './daemon-bench.js';
import { DEFAULT_CONFIG } from './config.js';
import { measureCpuInChild, measureReadInChild } from './cpu.js';
import { steadyMeasure } from './harness.js';
import type { BenchEnv, MeasureModule, MeasureOutput } from './measure.js';
import { entityCounts, generateOrg } from './org-model.js';
import { headerLine, renderTable } from './report.js';
import { startInChild } from './sandbox-env.js';
import { rateLimitMeasure } from './rate-limit-bench.js';
import { startupMeasure } from './startup-bench.js';
import { informerMeasure } from './informer-bench.js';
import { fleetCycleMeasure } from './fleet-cycle-bench.js';
import { fleetTakeoverMeasure } from './fleet-takeover-bench.js';
import { exportRoundTripMeasure } from './export-bench.js';

const MEASURES: readonly MeasureModule[] = [
  // The headline (issue 14): cold plans of 1,000, 10,000 and 30,000 members, then start-up.
  coldPlanMeasure,
  startupMeasure,
  rateLimitMeasure,
  // Issue 15: the running daemon, save → first write of a scoped reconcile.
  daemonSaveMeasure,
  // Issue 25: the daemon following the audit log instead of reading everything.
  informerMeasure,
  // Issue 26: one daemon for many organizations, and replicas sharing them on shard Leases.
  fleetCycleMeasure,
  fleetTakeoverMeasure,
  // Issue 24: the 100,000-member export round trip (a smaller one runs in npm test).
  exportRoundTripMeasure,
  steadyMeasure({
    measureCpu: (sizes) => measureCpuInChild(sizes, DEFAULT_CONFIG.cpuRuns),
    // Each read takes ~1 s; three runs give a median.
    measureRead: (sizes) => measureReadInChild(sizes, 3),
  }),
];

// The targets are for the runtimes docops supports and ships (the image and the Action run Node 24); Node 20 is
// past its end of life and nothing is tuned for it alone (issue 24), so a run on it says so with its numbers.
const EOL_NOTE =
  Number(process.versions.node.split('.')[0]) < 22
    ? `ran on Node ${process.version}, past its end of life: the targets are for Node 22 and 24 (npx -y node@24 dist-tools/bench/run.js)`
    : undefined;
if (EOL_NOTE) process.stderr.write(`bench: ${EOL_NOTE}\n`);
const withEolNote = (outputs: readonly MeasureOutput[]): readonly Pick<MeasureOutput, 'rows' | 'notes'>[] =>
  EOL_NOTE ? [{ rows: [], notes: [EOL_NOTE] }, ...outputs] : outputs;

const env: BenchEnv = {
  config: DEFAULT_CONFIG,
  kinds: KINDS,
  startSandbox: startInChild,
  log: (line) => process.stderr.write(`bench: ${line}\n`),
};

const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? undefined : new Set((process.argv[onlyAt + 1] ?? '').split(',').filter(Boolean));
const unknown = only ? [...only].filter((n) => !MEASURES.some((m) => m.name === n)) : [];
if (only && (only.size === 0 || unknown.length > 0)) {
  process.stderr.write(
    `bench: --only takes measure names: ${MEASURES.map((m) => m.name).join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}\n`,
  );
  process.exit(1);
}
const selected = only ? MEASURES.filter((m) => only.has(m.name)) : MEASURES;

const outputs: MeasureOutput[] = [];
for (const m of selected) outputs.push(await m.run(env));
if (only) {
  const merge = process.argv.includes('--merge');
  if (merge) {
    const file = join(process.cwd(), 'bench', 'results', 'latest.json');
    const result = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    const date = new Date().toISOString();
    const partial = (result['partialRuns'] ?? {}) as Record<string, unknown>;
    for (const [i, o] of outputs.entries()) {
      Object.assign(result, o.keys);
      result[selected[i]!.name] = o.details;
      partial[selected[i]!.name] = { date, notes: o.notes };
    }
    result['partialRuns'] = partial;
    await writeFile(file, JSON.stringify(result, null, 2) + '\n');
  }
  process.stdout.write(
    renderTable(
      `Partial run (--only ${[...only].join(',')}), ${merge ? 'merged into bench/results/latest.json' : 'not written to bench/results'}.`,
      withEolNote(outputs),
    ),
  );
  process.exit(0);
}

const date = new Date().toISOString();
const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  totalMemMb: Math.round(totalmem() / 2 ** 20),
  node: process.version,
  platform: `${process.platform}-${process.arch}`,
};
const result: Record<string, unknown> = {};
for (const o of outputs) Object.assign(result, o.keys);
Object.assign(result, { date, machine });
for (const [i, o] of outputs.entries()) {
  if (o.topLevel) Object.assign(result, o.details, o.keys);
  else result[selected[i]!.name] = o.details;
}
result['notes'] = [...(EOL_NOTE ? [EOL_NOTE] : []), ...outputs.flatMap((o) => o.notes)];

const header = headerLine({
  entities: entityCounts(generateOrg(DEFAULT_CONFIG.sizes)),
  kinds: KINDS.map((k) => k.kind),
  machine,
  date,
});
const table = renderTable(header, withEolNote(outputs));
const out = join(process.cwd(), 'bench', 'results');
await mkdir(out, { recursive: true });
await writeFile(join(out, 'latest.json'), JSON.stringify(result, null, 2) + '\n');
await writeFile(join(out, 'latest.md'), table);
process.stdout.write(table);
