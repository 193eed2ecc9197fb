/**
 * The sandbox a benchmark talks to, filled with a generated organization and answering with injected
 * latency. By default it runs in a child process, so its request handling does not share the event loop
 * (or the CPU) of the docops code being measured; tests run it in-process. Request counts always come
 * from the sandbox's own /_sandbox/stats, request times from the sandbox process's HTTP server
 * (request-clock.ts).
 */
import { fork } from 'node:child_process';
import { startSandbox, type SandboxStats } from '@docops/sandbox';
import { generateOrg, type OrgSizes } from './org-model.js';
import { watchRequests, type RequestTiming } from './request-clock.js';
import { seedStore } from './seed-store.js';

export interface BenchSandbox {
  url: string;
  origin: string;
  token: string;
  stats(): Promise<SandboxStats>;
  /** When the first /v1 request of this run arrived and the last response left, on the sandbox's side. */
  timing(): Promise<RequestTiming>;
  /** Clears the stats and the timing. */
  resetStats(): Promise<void>;
  close(): Promise<void>;
}

export interface SandboxRequest {
  sizes: OrgSizes;
  latencyMs: number;
  /** A second actor's write token (an admin of the organization other than the token's): its requests are not timed. */
  actor?: { token: string; userId: string };
  /** The organization's id (default org-bench), its token and its rate limit (one of a fleet's organizations). */
  org?: string;
  token?: string;
  rateLimit?: string;
}

interface Ready {
  url: string;
  origin: string;
  token: string;
}

/** What the parent asks the sandbox child over IPC (the answer to `timing` is a `{ timing }` message). */
export type ChildRequest = 'close' | 'timing' | 'reset-timing';

interface Clock {
  timing(): Promise<RequestTiming>;
  reset(): Promise<void>;
}

function overHttp(ready: Ready, clock: Clock, close: () => Promise<void>): BenchSandbox {
  return {
    ...ready,
    stats: async () => {
      const res = await fetch(`${ready.origin}/_sandbox/stats`);
      if (!res.ok) throw new Error(`sandbox stats: HTTP ${res.status}`);
      return (await res.json()) as SandboxStats;
    },
    timing: () => clock.timing(),
    resetStats: async () => {
      const res = await fetch(`${ready.origin}/_sandbox/stats/reset`, { method: 'POST' });
      if (!res.ok) throw new Error(`sandbox stats reset: HTTP ${res.status}`);
      await clock.reset();
    },
    close,
  };
}

/** Start and fill a sandbox in this process. */
export async function startInProcess(
  req: SandboxRequest,
): Promise<BenchSandbox & { reset(): void; timingNow(): RequestTiming }> {
  const sb = await startSandbox({
    seed: 'empty',
    faults: `latency=${req.latencyMs}ms`,
    ...(req.actor ? { actorTokens: [req.actor] } : {}),
    ...(req.token !== undefined ? { token: req.token } : {}),
    ...(req.rateLimit !== undefined ? { rateLimit: req.rateLimit } : {}),
  });
  seedStore(sb.store, generateOrg(req.sizes, req.org));
  const clock = watchRequests(sb.port, req.actor ? `Bearer ${req.actor.token}` : undefined);
  const env = overHttp(
    { url: sb.url, origin: sb.origin, token: sb.token },
    { timing: async () => clock.timing(), reset: async () => clock.reset() },
    async () => {
      clock.close();
      await sb.close();
    },
  );
  return { ...env, reset: () => clock.reset(), timingNow: () => clock.timing() };
}

/** Start and fill a sandbox in a child process (dist-tools/bench/sandbox-child.js). */
export async function startInChild(req: SandboxRequest): Promise<BenchSandbox> {
  const child = fork(new URL('./sandbox-child.js', import.meta.url), [JSON.stringify(req)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`sandbox child exited early (code ${code})`)));
  });
  const ask = (what: ChildRequest): Promise<RequestTiming> =>
    new Promise((resolve) => {
      child.once('message', (m) => resolve((m as { timing: RequestTiming }).timing));
      child.send(what);
    });
  const clock: Clock = { timing: () => ask('timing'), reset: async () => void (await ask('reset-timing')) };
  return overHttp(ready, clock, async () => {
    if (child.exitCode === null) child.send('close' satisfies ChildRequest);
    await exited;
  });
}
