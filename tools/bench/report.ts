/**
 * The benchmark's markdown table (bench/results/latest.md, the README's table): a header line, then the rows of
 * every measure module in the order run.ts lists them, then their notes. steadyRows are the rows of the
 * steady-state benchmark (harness.ts).
 */
import { TARGETS } from './config.js';
import type { BenchResult } from './result.js';
import type { MeasureOutput, Row } from './measure.js';

const n = (x: number): string => x.toLocaleString('en-US');
const mark = (ok: boolean | undefined): string => (ok === undefined ? '' : ok ? '✅' : '❌');

export function steadyRows(r: BenchResult): Row[] {
  const c = r.config;
  return [
    {
      measure: 'Requests, no-op plan ÷ lower bound',
      measured: `${n(r.plan.requests)} ÷ ${n(r.plan.lowerBound)}`,
      ratio: r.requestsRatio.toFixed(2),
      target: TARGETS.requestsRatio.toFixed(2),
      met: r.requestsRatio <= TARGETS.requestsRatio,
    },
    {
      measure: `Warm plan (a daemon's, process already running) wall time ÷ critical path (${c.latencyMs} ms latency, concurrency ${c.concurrency})`,
      measured: `${n(r.plan.wallMs)} ms ÷ ${n(r.plan.criticalPathMs)} ms`,
      ratio: r.planWallRatio.toFixed(2),
      target: `≤ ${TARGETS.planWallRatio}`,
      met: r.planWallRatio <= TARGETS.planWallRatio,
    },
    {
      measure: `Apply of ${n(r.apply.changes)} changes (${n(r.apply.steps)} steps, ${n(r.apply.sentRequests)} requests) ÷ bound`,
      measured: `${n(r.apply.wallMs)} ms ÷ ${n(r.apply.boundMs)} ms`,
      ratio: r.applyWallRatio.toFixed(2),
      target: `≤ ${TARGETS.applyWallRatio}`,
      met: r.applyWallRatio <= TARGETS.applyWallRatio,
    },
    {
      measure: `Informational: CPU of validate + diff + plan, ${n(r.cpu.entities)} entities, no I/O, as a multiple of the floor measured in the same process`,
      measured: `${r.diffCpuMs} ms (validate ${Math.round(r.cpu.validateCpuMs)}, diff ${Math.round(r.cpu.diffCpuMs)}${r.cpu.runsCpuMs ? `; median of ${r.cpu.runsCpuMs.join(', ')}` : ''})`,
      ratio: `${r.cpuFloorRatio.toFixed(1)}× floor`,
      target: '',
    },
    {
      measure: `Reference: the floor, least CPU for the ${n(r.cpuFloor.members)} members alone (schema, entries, two maps, compare), same process`,
      measured: `${r.cpuFloorMs} ms`,
      ratio: '',
      target: '',
    },
    {
      measure: `Informational: reading the same entities from YAML (${n(r.read.files)} files, ${(r.read.bytes / 2 ** 20).toFixed(1)} MiB; parse + validate)`,
      measured: `${n(r.readCpuMs)} ms CPU, ${n(Math.round(r.read.wallMs))} ms wall`,
      ratio: '',
      target: '',
    },
    {
      measure: 'Peak RSS of the same run',
      measured: `${r.peakRssMb} MB`,
      ratio: '',
      target: `< ${TARGETS.peakRssMb} MB`,
      met: r.peakRssMb < TARGETS.peakRssMb,
    },
    {
      measure: 'Baseline: per-resource refresh (one GET per managed object)',
      measured: `${n(r.refreshBaselineRequests)} requests`,
      ratio: `${r.refreshBaseline.vsDocopsPlan.toFixed(0)}× docops`,
      target: '',
    },
  ];
}

/** The line above the table: the steady-state organization, the machine and the date. */
export function headerLine(r: Pick<BenchResult, 'entities' | 'kinds' | 'machine' | 'date'>): string {
  const e = r.entities;
  return (
    `Organization: ${n(e['members'] ?? 0)} members, ${n(e['teams'] ?? 0)} teams, ${n(e['teamMemberships'] ?? 0)} team memberships, ` +
    `${n(e['sites'] ?? 0)} sites (${n(e['sections'] ?? 0)} sections, ${n(e['siteSpaces'] ?? 0)} site spaces), ${n(e['spaces'] ?? 0)} spaces ` +
    `(the cold plans scale it to their member counts); kinds: ${r.kinds.join(', ')}. ${r.machine.cpus} × ${r.machine.cpuModel}, Node ${r.machine.node}, ${r.date.slice(0, 10)}.`
  );
}

export function renderTable(header: string, outputs: readonly Pick<MeasureOutput, 'rows' | 'notes'>[]): string {
  const rows = outputs.flatMap((o) => o.rows);
  const notes = outputs.flatMap((o) => o.notes);
  const lines = [
    header,
    '',
    '| Measure | Measured | Ratio | Target | Met |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${[r.measure, r.measured, r.ratio, r.target, mark(r.met)].join(' | ')} |`),
    ...(notes.length > 0 ? ['', ...notes.map((x) => `- ${x}`)] : []),
  ];
  return lines.join('\n') + '\n';
}

/** The steady-state benchmark alone as a table. */
export const markdownTable = (r: BenchResult): string =>
  renderTable(headerLine(r), [{ rows: steadyRows(r), notes: r.notes }]);
