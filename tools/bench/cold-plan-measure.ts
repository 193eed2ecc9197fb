/**
 * The headline of the report (issue 14): cold `docops plan` wall time ÷ its critical path for organizations of
 * 1,000, 10,000 and 30,000 members, each split into before the first request / I/O ÷ bound / after the last
 * response (cold-plan.ts). Requests counted by the sandbox, compared with the lower bound.
 */
import { TARGETS } from './config.js';
import { measureColdPlan, type ColdPlanMeasure } from './cold-plan.js';
import { fmt, ms, ratio2, type MeasureModule, type MeasureOutput, type Row } from './measure.js';
import { commandSummary } from './startup-bench.js';

/** `planRatio1k`, `planRatio10k`, `planRatio30k`, … */
export const planRatioKey = (members: number): string =>
  `planRatio${members % 1000 === 0 ? `${members / 1000}k` : members}`;

/** The target of a size, where there is one. */
const targetOf = (members: number): number | undefined => (members === 1000 ? TARGETS.planRatio1k : undefined);

export function coldPlanRow(m: ColdPlanMeasure): Row {
  const r = m.median;
  const target = targetOf(m.members);
  return {
    measure: `Cold \`docops plan\`, ${fmt(m.members)} members: wall ÷ critical path (${fmt(m.lowerBound)} requests)`,
    measured:
      `${ms(r.wallMs)} ÷ ${ms(m.criticalPathMs)}: before first request ${ms(r.beforeFirstRequestMs)} · ` +
      `I/O ${ms(r.ioMs)} = ${ratio2(m.ioRatio)}× bound · after last response ${ms(r.afterLastResponseMs)} (median of ${m.runs.length})`,
    ratio: ratio2(m.ratio),
    target: target === undefined ? '' : `≤ ${target.toFixed(1)}`,
    ...(target === undefined ? {} : { met: m.ratio <= target }),
  };
}

export const coldPlanMeasure: MeasureModule = {
  name: 'coldPlan',
  async run(env): Promise<MeasureOutput> {
    const kinds = new Set(env.kinds.map((k) => k.kind));
    const sizes: ColdPlanMeasure[] = [];
    for (const [i, { members, runs }] of env.config.coldPlans.entries()) {
      env.log(`cold docops plan, ${fmt(members)} members (${runs} runs)`);
      sizes.push(
        await measureColdPlan({
          members,
          base: env.config.sizes,
          latencyMs: env.config.latencyMs,
          concurrency: env.config.concurrency,
          runs,
          kinds,
          startSandbox: env.startSandbox,
          // Files and CPU of `plan` for the start-up row, on the smallest organization.
          ...(i === 0 ? { probeRuns: 3 } : {}),
        }),
      );
    }
    const notes: string[] = [];
    for (const m of sizes) {
      const counts = new Set(m.runs.map((r) => r.requests));
      if (counts.size > 1 || !counts.has(m.lowerBound))
        notes.push(
          `cold plan of ${fmt(m.members)} members: requests ${[...counts].join(', ')} (sandbox) for a lower bound of ${m.lowerBound}`,
        );
      const target = targetOf(m.members);
      if (target !== undefined && m.ratio > target) {
        notes.push(
          `cold plan of ${fmt(m.members)} members above target: ${ms(m.median.beforeFirstRequestMs)} before the first request (start-up and reading the manifests), ` +
            `I/O ${ratio2(m.ioRatio)}× its bound; see docs/dev/benchmarks.md, "Start-up"`,
        );
      }
    }
    const probed = sizes[0]?.probe;
    const rows = sizes.map(coldPlanRow);
    if (probed)
      rows.push({
        measure: `Informational: \`plan\` of ${fmt(sizes[0]!.members)} members, whole process`,
        measured: commandSummary({ name: 'plan', ...probed }),
        ratio: '',
        target: '',
      });
    return {
      keys: Object.fromEntries(sizes.map((m) => [planRatioKey(m.members), m.ratio])),
      details: sizes,
      rows,
      notes,
    };
  },
};
