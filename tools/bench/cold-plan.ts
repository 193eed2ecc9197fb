/**
 * Cold `docops plan` as a user runs it: a fresh process of the installed command (package.json `bin`) against
 * the filled sandbox, timed from spawn to exit by this process. The sandbox (its stats and its HTTP server)
 * tells how many requests it served and when the first arrived and the last response left, which splits the
 * wall time into before the first request (start-up: modules, manifests), the I/O (compared with the critical
 * path) and after the last response (diff, render, exit). Nothing comes from docops's own view.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { criticalPathMs, longestChain, lowerBoundRequests } from './bounds.js';
import { orgDocuments, splitDocuments, splitMembers, writeManifests } from './documents.js';
import { planNeeds } from './needs.js';
import { generateOrg, scaledSizes, type OrgSizes } from './org-model.js';
import { MEMBERS_PER_FILE } from './read-bench.js';
import type { BenchSandbox, SandboxRequest } from './sandbox-env.js';
import { cleanEnv, docopsCommand, modulesByOrigin, runProbed, runTimed } from './spawn.js';

/** Documents per file (1,000 teams of 20 members are ~0.8 MB of YAML). */
export const DOCUMENTS_PER_FILE = 1000;

/** The bench organization scaled to `members`: teams, memberships, spaces and sites in the same proportions. */

export interface ColdPlanRun {
  wallMs: number;
  /** Spawn → the first /v1 request reaches the sandbox. */
  beforeFirstRequestMs: number;
  /** First request → last response, as the sandbox saw them. */
  ioMs: number;
  /** Last response → the process has exited. */
  afterLastResponseMs: number;
  /** Requests the sandbox served (its stats). */
  requests: number;
}

export interface ColdPlanMeasure {
  members: number;
  sizes: OrgSizes;
  lowerBound: number;
  chainRequests: number;
  criticalPathMs: number;
  runs: ColdPlanRun[];
  /** The run with the median wall time. */
  median: ColdPlanRun;
  /** median wall ÷ critical path. */
  ratio: number;
  /** The median run's I/O ÷ critical path. */
  ioRatio: number;
  /** CPU of the whole process (median of probe runs) and the files it loaded, when asked for (probeRuns). */
  probe?: { cpuMs: number; modules: number; byOrigin: Record<string, number> };
}

export interface ColdPlanOptions {
  members: number;
  base: OrgSizes;
  latencyMs: number;
  concurrency: number;
  runs: number;
  kinds: ReadonlySet<string>;
  startSandbox(req: SandboxRequest): Promise<BenchSandbox>;
  /** The command to run (default: node and the package's bin). */
  command?: readonly string[];
  /** After the measured runs, this many runs reporting their CPU and one counting files (default none). */
  probeRuns?: number;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

export async function measureColdPlan(opts: ColdPlanOptions): Promise<ColdPlanMeasure> {
  const sizes = scaledSizes(opts.base, opts.members);
  const org = generateOrg(sizes);
  const needs = planNeeds(org, opts.kinds);
  const lowerBound = lowerBoundRequests(needs);
  const chainRequests = longestChain(needs);
  const cpMs = criticalPathMs({
    chainRequests,
    totalRequests: lowerBound,
    concurrency: opts.concurrency,
    latencyMs: opts.latencyMs,
  });
  const dir = await mkdtemp(join(tmpdir(), 'docops-cold-plan-'));
  const sb = await opts.startSandbox({ sizes, latencyMs: opts.latencyMs });
  try {
    // Files well under the loader's 2 MiB limit, as a large organization keeps them (and export writes them).
    await writeManifests(
      dir,
      splitDocuments(splitMembers(orgDocuments(org, opts.kinds), MEMBERS_PER_FILE), DOCUMENTS_PER_FILE),
    );
    const command = opts.command ?? docopsCommand();
    const args = [
      'plan',
      '-m',
      dir,
      '--api-url',
      sb.url,
      '--concurrency',
      String(opts.concurrency),
      '--detailed-exitcode',
    ];
    const env = cleanEnv({ DOCOPS_TOKEN: sb.token });
    // One unmeasured run: the files in the page cache and the sandbox's code warm, as a real API's is.
    await runTimed([...command, ...args], env);
    const runs: ColdPlanRun[] = [];
    for (let i = 0; i < opts.runs; i++) {
      await sb.resetStats();
      const exit = await runTimed([...command, ...args], env);
      // --detailed-exitcode: 0 is a plan with no changes, as the organization and the manifests are equal.
      if (exit.code !== 0)
        throw new Error(
          `cold plan of ${opts.members} members exited ${exit.code}:\n${exit.stderr}\n${exit.stdout.slice(0, 2000)}`,
        );
      const [timing, stats] = await Promise.all([sb.timing(), sb.stats()]);
      if (timing.firstRequestAt === undefined || timing.lastResponseAt === undefined)
        throw new Error('the sandbox saw no request');
      runs.push({
        wallMs: round1(exit.wallMs),
        beforeFirstRequestMs: round1(timing.firstRequestAt - exit.startedAt),
        ioMs: round1(timing.lastResponseAt - timing.firstRequestAt),
        afterLastResponseMs: round1(exit.endedAt - timing.lastResponseAt),
        requests: stats.total,
      });
    }
    const median = [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor((runs.length - 1) / 2)]!;
    const ratio = (a: number): number => Math.round((a / cpMs) * 1000) / 1000;
    const result: ColdPlanMeasure = {
      members: opts.members,
      sizes,
      lowerBound,
      chainRequests,
      criticalPathMs: cpMs,
      runs,
      median,
      ratio: ratio(median.wallMs),
      ioRatio: ratio(median.ioMs),
    };
    if (opts.probeRuns) {
      const p = await runProbed(command, args, env, { runs: opts.probeRuns });
      result.probe = { cpuMs: p.cpuMs, modules: p.modules.length, byOrigin: modulesByOrigin(p.modules) };
    }
    return result;
  } finally {
    await sb.close();
    await rm(dir, { recursive: true, force: true });
  }
}
