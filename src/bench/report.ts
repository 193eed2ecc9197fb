/** The benchmark result as the markdown table the README shows. */
import { TARGETS } from './config.js';
import type { BenchResult } from './harness.js';
import { rateLimitRows } from './rate-limit-bench.js';

const n = (x: number): string => x.toLocaleString('en-US');
const mark = (ok: boolean): string => (ok ? '✅' : '❌');

export function markdownTable(r: BenchResult): string {
  const c = r.config;
  const rows: string[][] = [
    [
      'Requests, no-op plan ÷ lower bound',
      `${n(r.plan.requests)} ÷ ${n(r.plan.lowerBound)}`,
      r.requestsRatio.toFixed(2),
      `${TARGETS.requestsRatio.toFixed(2)}`,
      mark(r.requestsRatio <= TARGETS.requestsRatio),
    ],
    [
      `Plan wall time ÷ critical path (${c.latencyMs} ms latency, concurrency ${c.concurrency})`,
      `${n(r.plan.wallMs)} ms ÷ ${n(r.plan.criticalPathMs)} ms`,
      r.planWallRatio.toFixed(2),
      `≤ ${TARGETS.planWallRatio}`,
      mark(r.planWallRatio <= TARGETS.planWallRatio),
    ],
    [
      `CPU of validate + diff + plan, ${n(r.cpu.entities)} entities, no I/O`,
      `${r.diffCpuMs} ms (validate ${Math.round(r.cpu.validateCpuMs)}, diff ${Math.round(r.cpu.diffCpuMs)}${r.cpu.runsCpuMs ? `; median of ${r.cpu.runsCpuMs.join(', ')}` : ''})`,
      '',
      `< ${TARGETS.diffCpuMs} ms`,
      mark(r.diffCpuMs < TARGETS.diffCpuMs),
    ],
    [
      `Reference: least CPU for the ${n(r.cpuFloor.members)} members alone (schema, entries, two maps, compare)`,
      `${r.cpuFloorMs} ms`,
      `docops ${(r.diffCpuMs / r.cpuFloorMs).toFixed(1)}×`,
      '',
      '',
    ],
    [
      `Informational: reading the same entities from YAML (${n(r.read.files)} files, ${(r.read.bytes / 2 ** 20).toFixed(1)} MiB; parse + validate)`,
      `${n(r.readCpuMs)} ms CPU, ${n(Math.round(r.read.wallMs))} ms wall`,
      '',
      '',
      '',
    ],
    ['Peak RSS of the same run', `${r.peakRssMb} MB`, '', `< ${TARGETS.peakRssMb} MB`, mark(r.peakRssMb < TARGETS.peakRssMb)],
    [
      `Apply of ${n(r.apply.changes)} changes (${n(r.apply.steps)} steps, ${n(r.apply.sentRequests)} requests) ÷ bound`,
      `${n(r.apply.wallMs)} ms ÷ ${n(r.apply.boundMs)} ms`,
      r.applyWallRatio.toFixed(2),
      `≤ ${TARGETS.applyWallRatio}`,
      mark(r.applyWallRatio <= TARGETS.applyWallRatio),
    ],
    ...rateLimitRows(r),
    [
      'Baseline: per-resource refresh (one GET per managed object)',
      `${n(r.refreshBaselineRequests)} requests`,
      `${r.refreshBaseline.vsDocopsPlan.toFixed(0)}× docops`,
      '',
      '',
    ],
  ];
  const e = r.entities;
  const header = [
    `Organization: ${n(e['members'] ?? 0)} members, ${n(e['teams'] ?? 0)} teams, ${n(e['teamMemberships'] ?? 0)} team memberships, ` +
      `${n(e['sites'] ?? 0)} sites (${n(e['sections'] ?? 0)} sections, ${n(e['siteSpaces'] ?? 0)} site spaces), ${n(e['spaces'] ?? 0)} spaces; ` +
      `kinds: ${r.kinds.join(', ')}. ${r.machine.cpus} × ${r.machine.cpuModel}, Node ${r.machine.node}, ${r.date.slice(0, 10)}.`,
    '',
    '| Measure | Measured | Ratio | Target | Met |',
    '|---|---|---|---|---|',
  ];
  const notes = r.notes.length > 0 ? ['', ...r.notes.map((x) => `- ${x}`)] : [];
  return [...header, ...rows.map((row) => `| ${row.join(' | ')} |`), ...notes].join('\n') + '\n';
}
