import { describe, expect, it } from 'vitest';
import type { BenchConfig } from '../../tools/bench/config.js';
import { TINY_BENCH } from './tiny-config.js';
import { measureCpu, medianRun } from '../../tools/bench/cpu.js';
import { measureRead } from '../../tools/bench/read-bench.js';
import { runBench } from '../../tools/bench/harness.js';
import { markdownTable } from '../../tools/bench/report.js';
import { splitMembers } from '../../tools/bench/documents.js';
import { startInProcess } from '../../tools/bench/sandbox-env.js';
import { KINDS } from '../../src/kinds/index.js';

const tiny: BenchConfig = TINY_BENCH;

describe('bench harness on a tiny organization', () => {
  it('plans a no-op at the lower bound of requests, applies every change and converges', async () => {
    const r = await runBench(tiny, {
      kinds: KINDS,
      startSandbox: startInProcess,
      measureCpu: (s) => measureCpu(s, KINDS),
      measureRead: (s) => measureRead(s, KINDS),
    });
    // Only explanations of missed timing targets (never anomalies such as a non-empty plan or failed steps).
    expect(r.notes.filter((n) => !/^wall ratios/.test(n))).toEqual([]);
    expect(r.plan.steps).toBe(0);
    expect(r.plan.requests).toBe(r.plan.lowerBound);
    expect(r.requestsRatio).toBe(1);
    // 6 role changes (6 steps) + 2 teams changed (one bulk request each) + 2 new teams.
    expect(r.apply.changes).toBe(6 + 2 * 3 + 2);
    expect(r.apply.plannedRequests).toBe(6 + 2 + 2);
    expect(r.apply.sentRequests).toBe(r.apply.plannedRequests);
    expect(r.apply.replanSteps).toBe(0);
    expect(r.cpu.steps).toBe(0);
    expect(r.refreshBaselineRequests).toBeGreaterThan(r.plan.requests);
    for (const key of [
      'requestsRatio',
      'planWallRatio',
      'diffCpuMs',
      'peakRssMb',
      'applyWallRatio',
      'refreshBaselineRequests',
    ] as const) {
      expect(Number.isFinite(r[key])).toBe(true);
    }
    const table = markdownTable(r);
    expect(table).toContain(
      `| Requests, no-op plan ÷ lower bound | ${r.plan.requests} ÷ ${r.plan.lowerBound} | 1.00 |`,
    );
    expect(table.split('\n').filter((l) => l.startsWith('| ')).length).toBe(9);
    // Reading the CPU organization from YAML files gives at least one entry per member and per team.
    expect(r.read.entries).toBeGreaterThanOrEqual(tiny.cpuSizes.members + tiny.cpuSizes.teams);
    expect(r.read.bytes).toBeGreaterThan(0);
    // The floor did the members' work in the same process: every generated member validated and compared, none differing.
    expect(r.cpuFloor).toMatchObject({ members: tiny.cpuSizes.members, differing: 0 });
    expect(r.cpuFloorMs).toBeGreaterThan(0);
    expect(r.cpuFloor).toBe(r.cpu.floor);
    expect(table).toContain(`| Reference: the floor, least CPU for the ${tiny.cpuSizes.members} members alone`);
  }, 60_000);
});

describe('medianRun', () => {
  it('picks the run with the middle CPU time, whatever the order', () => {
    const runs = [700, 500, 900, 650, 820].map((cpuMs, i) => ({ cpuMs, i }));
    expect(medianRun(runs)).toEqual({ cpuMs: 700, i: 0 });
    expect(medianRun([{ cpuMs: 3 }, { cpuMs: 1 }])).toEqual({ cpuMs: 1 });
    expect(() => medianRun([])).toThrow(/no runs/);
  });
});

describe('splitMembers', () => {
  it('spreads one Members document over files of at most N members, in order, leaving other files alone', () => {
    const members = Array.from({ length: 5 }, (_, i) => ({ email: `m${i}@x.test`, role: 'read' }));
    const doc = (kind: string, spec: Record<string, unknown>) => ({
      apiVersion: 'docops/v1' as const,
      kind,
      metadata: { organization: 'o' },
      spec,
    });
    const files = new Map([
      ['members.yaml', [doc('Members', { invite: true, members })]],
      ['teams.yaml', [doc('Team', { title: 'T' })]],
    ]);
    const split = splitMembers(files, 2);
    expect([...split.keys()]).toEqual(['members-1.yaml', 'members-2.yaml', 'members-3.yaml', 'teams.yaml']);
    expect(
      [...split.values()].flatMap((docs) => docs.flatMap((d) => (d.spec['members'] as unknown[] | undefined) ?? [])),
    ).toEqual(members);
    expect(split.get('members-3.yaml')![0]!.spec).toEqual({ invite: true, members: [members[4]] });
    expect(splitMembers(files, 5)).toEqual(files);
  });
});
