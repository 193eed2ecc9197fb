/**
 * fleetCycleRatio (issue 26): one `docops daemon` reconciling 30 organizations of 1,000 members (every kind),
 * each in a sandbox of its own (a child process) with its own token at its own rate limit, behind one API
 * address. A full cycle — from the first organization's start-up run starting to the last one's ending, by the
 * daemon's run records — divided by the slowest organization's cycle alone (the same daemon with only that
 * organization). Goal ≤ 1.25: the organizations proceed side by side, none waits behind another. The
 * organizations are alike, so "alone" is measured for the three slowest in the fleet run, and the slowest of
 * those counts.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOCUMENTS_PER_FILE } from './cold-plan.js';
import { until } from './daemon-bench.js';
import { orgDocuments, splitDocuments, splitMembers, writeManifests } from './documents.js';
import { startFleetDaemon, startTokenRouter, logTail } from './fleet-env.js';
import { fmt, ms, ratio2, type MeasureModule, type MeasureOutput } from './measure.js';
import { BENCH_SIZES, generateOrg, scaledSizes } from './org-model.js';
import { MEMBERS_PER_FILE } from './read-bench.js';
import type { BenchSandbox, SandboxRequest } from './sandbox-env.js';

const ORGS = Number(process.env.DOCOPS_BENCH_FLEET_ORGS ?? 30); // fewer only to try the measure out
const MEMBERS = 1000;
/**
 * Each token's budget: a bucket of 8 refilled at 4 a second, so an organization's full read (~120 requests) is paced
 * by it (~30 s), as a real token's is (GitBook's docs give 60 a minute as an example), and thirty sandboxes on two
 * cores serve the requests as they come.
 */
const RATE_LIMIT = '8/2s';
const GOAL = 1.25;

export interface FleetCycleMeasure {
  organizations: number;
  members: number;
  rateLimit: string;
  fleetCycleMs: number;
  /** Each organization's start-up run in the fleet: when it started after the first one, and how long it took, ms. */
  fleetRunsMs: Record<string, { startMs: number; durationMs: number }>;
  /** The machine's 1-minute load average before and after (two shared cores: a loaded machine stretches the cycle). */
  loadAverage: number[];
  /** The organizations measured alone and their cycle, ms. */
  aloneMs: Record<string, number>;
  slowestAloneMs: number;
  ratio: number;
}

interface OrgStatus {
  org: string;
  runs: { startedAt: string; durationMs: number; result: string }[];
}

/** Runs the daemon on `ids` until each has its start-up run; each run's [start, end] in epoch ms. */
async function cycle(
  root: string,
  ids: string[],
  router: string,
  tokens: Map<string, string>,
  concurrency: number,
): Promise<Record<string, [number, number]>> {
  const config = join(root, `docops-${ids.length}-${ids[0]}.yaml`);
  const lines = [
    'listen: 127.0.0.1:0',
    `apiUrl: ${router}`,
    `concurrency: ${concurrency}`,
    `journalDir: ${join(root, 'journal')}`,
    'logLevel: info',
    'organizations:',
  ];
  for (const id of ids)
    lines.push(
      `  - { id: ${id}, manifests: ${join(root, 'orgs', id)}, tokenEnv: TOKEN_${id.replace(/-/g, '_').toUpperCase()} }`,
    );
  await writeFile(config, lines.join('\n') + '\n');
  const env = Object.fromEntries(ids.map((id) => [`TOKEN_${id.replace(/-/g, '_').toUpperCase()}`, tokens.get(id)!]));
  const d = startFleetDaemon(config, env);
  try {
    const status = await until('every organization’s start-up run', async () => {
      const url = d.url();
      if (url === undefined) return undefined;
      const s = (await (await fetch(`${url}/api/status`)).json()) as { organizations: OrgStatus[] };
      return s.organizations.every((o) => o.runs.length > 0) ? s : undefined;
    }).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}\n${logTail(d)}`);
    });
    const out: Record<string, [number, number]> = {};
    for (const o of status.organizations) {
      const run = o.runs.at(-1)!;
      if (run.result !== 'success') throw new Error(`${o.org}: its start-up run ended ${run.result}\n${logTail(d)}`);
      const start = Date.parse(run.startedAt);
      out[o.org] = [start, start + run.durationMs];
    }
    return out;
  } finally {
    await d.stop();
  }
}

const span = (runs: Record<string, [number, number]>): number =>
  Math.max(...Object.values(runs).map((r) => r[1])) - Math.min(...Object.values(runs).map((r) => r[0]));

export async function measureFleetCycle(opts: {
  latencyMs: number;
  concurrency: number;
  kinds: ReadonlySet<string>;
  startSandbox(req: SandboxRequest): Promise<BenchSandbox>;
}): Promise<FleetCycleMeasure> {
  const sizes = scaledSizes(BENCH_SIZES, MEMBERS);
  const ids = Array.from({ length: ORGS }, (_, i) => `org-fleet-${String(i).padStart(2, '0')}`);
  const root = await mkdtemp(join(tmpdir(), 'docops-fleet-bench-'));
  const sandboxes: BenchSandbox[] = [];
  try {
    // Random, as real tokens are (a token holding the id would have the id redacted wherever it appears).
    const tokens = new Map(ids.map((id) => [id, randomBytes(16).toString('hex')]));
    for (const id of ids) {
      sandboxes.push(
        await opts.startSandbox({
          sizes,
          latencyMs: opts.latencyMs,
          org: id,
          token: tokens.get(id)!,
          rateLimit: RATE_LIMIT,
        }),
      );
      const dir = join(root, 'orgs', id);
      await mkdir(dir, { recursive: true });
      await writeManifests(
        dir,
        splitDocuments(
          splitMembers(orgDocuments(generateOrg(sizes, id), opts.kinds), MEMBERS_PER_FILE),
          DOCUMENTS_PER_FILE,
        ),
      );
    }
    const load = loadavg()[0]!;
    const router = await startTokenRouter(new Map(ids.map((id, i) => [tokens.get(id)!, sandboxes[i]!.origin])));
    try {
      const fleet = await cycle(root, ids, router.url, tokens, opts.concurrency);
      const slowest = Object.entries(fleet)
        .sort((a, b) => b[1][1] - b[1][0] - (a[1][1] - a[1][0]))
        .slice(0, 3)
        .map(([id]) => id);
      const aloneMs: Record<string, number> = {};
      // Alone after a full bucket again: each token's budget refills while the previous daemon stops.
      for (const id of slowest) aloneMs[id] = span(await cycle(root, [id], router.url, tokens, opts.concurrency));
      const slowestAloneMs = Math.max(...Object.values(aloneMs));
      const fleetCycleMs = span(fleet);
      return {
        organizations: ORGS,
        members: MEMBERS,
        rateLimit: RATE_LIMIT,
        fleetCycleMs,
        fleetRunsMs: Object.fromEntries(
          Object.entries(fleet).map(([id, [a, b]]) => [
            id,
            { startMs: a - Math.min(...Object.values(fleet).map((r) => r[0])), durationMs: b - a },
          ]),
        ),
        loadAverage: [load, loadavg()[0]!],
        aloneMs,
        slowestAloneMs,
        ratio: Math.round((fleetCycleMs / slowestAloneMs) * 1000) / 1000,
      };
    } finally {
      await router.close();
    }
  } finally {
    await Promise.all(sandboxes.map((s) => s.close()));
    await rm(root, { recursive: true, force: true });
  }
}

export const fleetCycleMeasure: MeasureModule = {
  name: 'fleetCycle',
  async run(env): Promise<MeasureOutput> {
    env.log(`fleet: one daemon, ${ORGS} organizations × ${fmt(MEMBERS)} members, each token at ${RATE_LIMIT}`);
    const m = await measureFleetCycle({
      latencyMs: env.config.latencyMs,
      concurrency: env.config.concurrency,
      kinds: new Set(env.kinds.map((k) => k.kind)),
      startSandbox: env.startSandbox,
    });
    const met = m.ratio <= GOAL;
    return {
      keys: { fleetCycleRatio: m.ratio },
      details: m,
      rows: [
        {
          measure: `One daemon, ${m.organizations} organizations × ${fmt(m.members)} members, each token at its own rate limit (${m.rateLimit}): full cycle ÷ the slowest organization's cycle alone`,
          measured: `${ms(m.fleetCycleMs)} vs ${ms(m.slowestAloneMs)}`,
          ratio: ratio2(m.ratio),
          target: `≤ ${GOAL}`,
          met,
        },
      ],
      notes: met
        ? []
        : [
            `fleet: a cycle of ${m.organizations} organizations took ${ratio2(m.ratio)} × the slowest one alone (goal ≤ ${GOAL})`,
          ],
    };
  },
};
