/**
 * The informer (issue 25): the installed `docops daemon` in a child process following the 10,000-member sandbox
 * (another child, 20 ms latency) through its audit events, with every kind's manifests. After its start-up full
 * read, as the sandbox counts them (requests of a second actor, who makes the changes, not counted):
 * - quietCycleRequests: the requests of one poll cycle with no change (goal ≤ 2);
 * - driftCycleRequestsPer10: the requests from 10 changes of mixed kinds until the daemon has reverted them and
 *   read what it wrote (goal ≤ 2 + 10 × 3);
 * - driftDetectMs10kAt60PerMin: with the sandbox limiting the token to 60 requests a minute and the daemon's
 *   background resync under way (a full read at that rate takes about 19 minutes), a member's role changed →
 *   the daemon's revert write reaching the sandbox (goal ≤ 60,000 ms).
 * The daemon polls every POLL_SECONDS (the default is 30) and resyncs every minute (the default is 4 hours), so
 * that the resync is under way when the last measure starts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOCUMENTS_PER_FILE } from './cold-plan.js';
import { sleep, startDaemon, until } from './daemon-bench.js';
import { orgDocuments, splitDocuments, splitMembers, writeManifests } from './documents.js';
import { fmt, ms, type MeasureModule, type MeasureOutput } from './measure.js';
import { BENCH_ORG, generateOrg, type OrgSizes } from './org-model.js';
import { MEMBERS_PER_FILE } from './read-bench.js';
import { epochNow } from './request-clock.js';
import type { BenchSandbox, SandboxRequest } from './sandbox-env.js';

/** The poll interval the benchmark configures (the default is 30 s). */
export const POLL_SECONDS = 5;
const ACTOR = { token: `actor-${randomBytes(8).toString('hex')}`, userId: 'u-5' }; // member 5 is an admin
const GOALS = { quiet: 2, drift: 2 + 10 * 3, detectMs: 60_000 };

export interface InformerMeasure {
  members: number;
  pollSeconds: number;
  startupRunMs: number;
  quietCycleRequests: number;
  driftCycleRequestsPer10: number;
  driftRuns: { reasons: string[]; applied?: number; reads?: unknown }[];
  /** Requests by route of the drift cycle. */
  driftRoutes: Record<string, number>;
  driftDetectMs10kAt60PerMin: number;
}

interface Run {
  id: number;
  result: string;
  reasons: string[];
  applied?: number;
  reads?: unknown;
}

interface Org {
  lastPollAt?: string;
  resyncing: boolean;
  mode: string;
}

async function daemonState(url: string): Promise<{ run: Run | undefined; org: Org | undefined }> {
  const [ready, status] = await Promise.all([
    fetch(`${url}/readyz`).then((r) => r.json()),
    fetch(`${url}/api/status`).then((r) => r.json()),
  ]);
  return {
    run: (ready as { lastRun: Run | null }).lastRun ?? undefined,
    org: (status as { informer?: { orgs: Org[] } }).informer?.orgs[0],
  };
}

/**
 * The second actor's changes: ten objects of four kinds, each one docops puts back in place (renaming a team,
 * a space or a translation would make docops create the one its manifest names: identity is the title).
 */
function tenChanges(sections: readonly string[]): { method: string; path: string; body?: unknown }[] {
  const org = `/orgs/${BENCH_ORG}`;
  return [
    ...[7, 8, 9, 10].map((i) => ({ method: 'PATCH', path: `${org}/members/u-${i}`, body: { role: 'admin' } })), // none of them is one
    { method: 'PATCH', path: org, body: { defaultRole: 'edit' } },
    { method: 'DELETE', path: `${org}/teams/team-3/members/u-61` },
    { method: 'DELETE', path: `${org}/teams/team-4/members/u-81` },
    { method: 'PUT', path: `${org}/teams/team-5/members/u-101`, body: { role: 'owner' } },
    ...sections.map((id, i) => ({
      method: 'PATCH',
      path: `${org}/sites/site-${i + 1}/sections/${id}`,
      body: { title: `Renamed section ${i}` },
    })),
  ];
}

export async function measureInformer(opts: {
  sizes: OrgSizes;
  latencyMs: number;
  concurrency: number;
  kinds: ReadonlySet<string>;
  startSandbox(req: SandboxRequest): Promise<BenchSandbox>;
}): Promise<InformerMeasure> {
  const org = generateOrg(opts.sizes);
  const root = await mkdtemp(join(tmpdir(), 'docops-informer-bench-'));
  const dir = join(root, 'manifests');
  const sb = await opts.startSandbox({ sizes: opts.sizes, latencyMs: opts.latencyMs, actor: ACTOR });
  const actor = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${sb.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ACTOR.token}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`the second actor's ${method} ${path}: HTTP ${res.status}`);
    return res.status === 204 ? undefined : res.json();
  };
  let daemon: Awaited<ReturnType<typeof startDaemon>> | undefined;
  try {
    await writeManifests(
      dir,
      splitDocuments(splitMembers(orgDocuments(org, opts.kinds), MEMBERS_PER_FILE), DOCUMENTS_PER_FILE),
    );
    const config = join(root, 'docops.yaml');
    const lines = [
      `manifests: ${dir}`,
      `apiUrl: ${sb.url}`,
      'listen: 127.0.0.1:0',
      `concurrency: ${opts.concurrency}`,
      `journalDir: ${join(root, 'journal')}`,
      'logLevel: info',
    ];
    await writeFile(config, [...lines, `informer: { pollSeconds: ${POLL_SECONDS}, resyncMinutes: 1 }`, ''].join('\n'));
    const started = epochNow();
    daemon = await startDaemon(config, sb);
    const d = daemon;
    const first = await until('the start-up reconcile', async () => (await daemonState(d.url)).run);
    if (first.result !== 'success')
      throw new Error(`the daemon's start-up reconcile ended ${first.result}:\n${d.stderr().slice(-4000)}`);
    const startupRunMs = Math.round(epochNow() - started);
    const polled = async (after: string | undefined): Promise<string> =>
      until('a poll', async () =>
        ((await daemonState(d.url)).org?.lastPollAt ?? '') > (after ?? '')
          ? (await daemonState(d.url)).org!.lastPollAt
          : undefined,
      );

    // Quiet: one whole poll cycle, from just after a poll to the end of the next.
    const p0 = await polled(undefined);
    await sb.resetStats();
    await polled(p0);
    const quietCycleRequests = (await sb.stats()).total;
    if ((await daemonState(d.url)).run?.id !== first.id) throw new Error('a quiet poll started a run');

    // One unmeasured change first: the daemon's first apply asks once who the token is (as the first save of
    // the daemonSave measure warms the daemon).
    await actor('PATCH', `/orgs/${BENCH_ORG}/members/u-13`, { role: 'read' }); // an edit member
    const warmed = await until('the first revert', async () => {
      const run = (await daemonState(d.url)).run;
      return run && run.id > first.id && (run.applied ?? 0) > 0 ? run : undefined;
    });

    // Ten changes of mixed kinds; the sections are the first of site-1's and of site-2's.
    const firstSection = async (site: string): Promise<string> =>
      ((await actor('GET', `/orgs/${BENCH_ORG}/sites/${site}/sections`)) as { items: { id: string }[] }).items[0]!.id;
    const changes = tenChanges([await firstSection('site-1'), await firstSection('site-2')]);
    await sb.resetStats();
    for (const c of changes) await actor(c.method, c.path, c.body);
    const driftRuns: Run[] = [];
    await until('the reverts', async () => {
      const run = (await daemonState(d.url)).run;
      if (run && run.id > (driftRuns.at(-1)?.id ?? warmed.id)) driftRuns.push(run);
      return driftRuns.reduce((n, r) => n + (r.applied ?? 0), 0) >= changes.length ? true : undefined;
    });
    const stats = await sb.stats();
    const driftRoutes: Record<string, number> = {};
    for (const r of stats.requests)
      driftRoutes[`${r.method} ${r.route}`] = (driftRoutes[`${r.method} ${r.route}`] ?? 0) + 1;
    const driftCycleRequestsPer10 = stats.total - changes.length; // less the actor's writes

    // 60 requests a minute, a background resync going; one member's role changed → the revert write.
    await fetch(`${sb.origin}/_sandbox/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ spec: `latency=${opts.latencyMs}ms,rateLimit=60/min` }),
    });
    await until('the background resync', async () => ((await daemonState(d.url)).org?.resyncing ? true : undefined));
    await sleep(POLL_SECONDS * 1000); // the resync under way for a while: its requests queue for the budget
    await sb.resetStats();
    const changedAt = epochNow();
    await actor('PATCH', `/orgs/${BENCH_ORG}/members/u-11`, { role: 'read' }); // an admin
    const revertedAt = await until('the revert write', async () => (await sb.timing()).firstWriteAt).catch(
      (err: unknown) => {
        throw new Error(`${(err as Error).message}\n${d.stderr().slice(-6000)}`);
      },
    );
    return {
      members: org.members.length,
      pollSeconds: POLL_SECONDS,
      startupRunMs,
      quietCycleRequests,
      driftCycleRequestsPer10,
      driftRuns: driftRuns.map((r) => ({
        reasons: r.reasons,
        ...(r.applied !== undefined ? { applied: r.applied } : {}),
        ...(r.reads !== undefined ? { reads: r.reads } : {}),
      })),
      driftRoutes,
      driftDetectMs10kAt60PerMin: Math.round(revertedAt - changedAt),
    };
  } finally {
    if (daemon && daemon.child.exitCode === null) {
      const exited = new Promise((r) => daemon!.child.once('exit', r));
      daemon.child.kill('SIGTERM');
      await exited;
    }
    await sb.close();
    await rm(root, { recursive: true, force: true });
  }
}

export const informerMeasure: MeasureModule = {
  name: 'informer',
  async run(env): Promise<MeasureOutput> {
    env.log(`informer: quiet poll, 10 changes, drift → revert at 60/min, ${fmt(env.config.sizes.members)} members`);
    const m = await measureInformer({
      sizes: env.config.sizes,
      latencyMs: env.config.latencyMs,
      concurrency: env.config.concurrency,
      kinds: new Set(env.kinds.map((k) => k.kind)),
      startSandbox: env.startSandbox,
    });
    const notes: string[] = [];
    if (m.quietCycleRequests > GOALS.quiet)
      notes.push(`informer: a quiet poll cycle took ${m.quietCycleRequests} requests (goal ≤ ${GOALS.quiet})`);
    if (m.driftCycleRequestsPer10 > GOALS.drift)
      notes.push(
        `informer: 10 changes took ${m.driftCycleRequestsPer10} requests (goal ≤ ${GOALS.drift}); see informer.driftRoutes`,
      );
    if (m.driftDetectMs10kAt60PerMin > GOALS.detectMs)
      notes.push(
        `informer: change → revert took ${ms(m.driftDetectMs10kAt60PerMin)} at 60 a minute (goal ≤ ${ms(GOALS.detectMs)})`,
      );
    const members = fmt(m.members);
    return {
      keys: {
        quietCycleRequests: m.quietCycleRequests,
        driftCycleRequestsPer10: m.driftCycleRequestsPer10,
        driftDetectMs10kAt60PerMin: m.driftDetectMs10kAt60PerMin,
      },
      details: m,
      rows: [
        {
          measure: `Daemon following the audit log, ${members} members: requests of a poll cycle with no change`,
          measured: `${m.quietCycleRequests} (poll every ${m.pollSeconds} s)`,
          ratio: String(m.quietCycleRequests),
          target: `≤ ${GOALS.quiet}`,
          met: m.quietCycleRequests <= GOALS.quiet,
        },
        {
          measure: `… requests from 10 changes of mixed kinds to their reverts, read again`,
          measured: `${m.driftCycleRequestsPer10} in ${m.driftRuns.length} run(s)`,
          ratio: String(m.driftCycleRequestsPer10),
          target: `≤ ${GOALS.drift}`,
          met: m.driftCycleRequestsPer10 <= GOALS.drift,
        },
        {
          measure: `… a member's role changed → the revert write, at 60 requests a minute, a background full read (~19 min) going`,
          measured: ms(m.driftDetectMs10kAt60PerMin),
          ratio: String(m.driftDetectMs10kAt60PerMin),
          target: `≤ ${fmt(GOALS.detectMs)} ms`,
          met: m.driftDetectMs10kAt60PerMin <= GOALS.detectMs,
        },
      ],
      notes,
    };
  },
};
