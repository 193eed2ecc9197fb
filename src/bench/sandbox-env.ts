/**
 * The sandbox a benchmark talks to, filled with a generated organization and answering with injected
 * latency. By default it runs in a child process, so its request handling does not share the event loop
 * (or the CPU) of the docops code being measured; tests run it in-process. Request counts always come
 * from the sandbox's own /_sandbox/stats.
 */
import { fork } from 'node:child_process';
import { startSandbox, type SandboxStats } from '../sandbox/index.js';
import { generateOrg, type OrgSizes } from './org-model.js';
import { seedStore } from './seed-store.js';

export interface BenchSandbox {
  url: string;
  origin: string;
  token: string;
  stats(): Promise<SandboxStats>;
  resetStats(): Promise<void>;
  close(): Promise<void>;
}

export interface SandboxRequest {
  sizes: OrgSizes;
  latencyMs: number;
}

interface Ready {
  url: string;
  origin: string;
  token: string;
}

function overHttp(ready: Ready, close: () => Promise<void>): BenchSandbox {
  return {
    ...ready,
    stats: async () => {
      const res = await fetch(`${ready.origin}/_sandbox/stats`);
      if (!res.ok) throw new Error(`sandbox stats: HTTP ${res.status}`);
      return (await res.json()) as SandboxStats;
    },
    resetStats: async () => {
      const res = await fetch(`${ready.origin}/_sandbox/stats/reset`, { method: 'POST' });
      if (!res.ok) throw new Error(`sandbox stats reset: HTTP ${res.status}`);
    },
    close,
  };
}

/** Start and fill a sandbox in this process. */
export async function startInProcess(req: SandboxRequest): Promise<BenchSandbox> {
  const sb = await startSandbox({ seed: 'empty', faults: `latency=${req.latencyMs}ms` });
  seedStore(sb.store, generateOrg(req.sizes));
  return overHttp({ url: sb.url, origin: sb.origin, token: sb.token }, () => sb.close());
}

/** Start and fill a sandbox in a child process (dist/bench/sandbox-child.js). */
export async function startInChild(req: SandboxRequest): Promise<BenchSandbox> {
  const child = fork(new URL('./sandbox-child.js', import.meta.url), [JSON.stringify(req)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`sandbox child exited early (code ${code})`)));
  });
  return overHttp(ready, async () => {
    if (child.exitCode === null) child.send('close');
    await exited;
  });
}
