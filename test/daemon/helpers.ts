/** A daemon started in-process against a sandbox, with hand-cranked cron and retry timers and captured logs. */
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../../src/api/client.js';
import { CONFIG_DEFAULTS, type DocopsConfig } from '../../src/config/config.js';
import type { ClientFactory } from '../../src/daemon/connect.js';
import { Daemon, type DaemonDeps } from '../../src/daemon/daemon.js';
import type { RunRecord } from '../../src/daemon/run.js';
import { createLogger } from '../../src/log.js';
import { FakeClock, FakeScheduler } from './fakes.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '@docops/sandbox';

export const ORG = 'org-demo';

export function teamYaml(title: string, emails: string[] = [], id?: string): string {
  const lines = [
    'apiVersion: docops/v1',
    'kind: Team',
    'metadata:',
    `  organization: ${ORG}`,
    'spec:',
    `  title: ${title}`,
  ];
  if (id) lines.push(`  id: ${id}`);
  if (emails.length > 0) lines.push('  members:', ...emails.map((e) => `    - { email: ${e} }`));
  return lines.join('\n') + '\n';
}

/** The seeded Support team, as the demo seed has it: a first reconcile finds nothing to change. */
export { FakeClock, FakeScheduler };

export const SUPPORT = teamYaml('Support', ['frank@acme.test', 'ivan@acme.test'], 'team-support');

export interface TestDaemon {
  daemon: Daemon;
  sandbox: RunningSandbox;
  dir: string;
  scheduler: FakeScheduler;
  clock: FakeClock;
  logs: Record<string, unknown>[];
  /** The next run record matching `pred` (subscribe BEFORE causing the run). */
  nextRun(pred?: (r: RunRecord) => boolean): Promise<RunRecord>;
  write(name: string, text: string): void;
  get(path: string): Promise<{ status: number; text: string }>;
  stop(): Promise<void>;
}

export async function startTestDaemon(options: {
  files: Record<string, string>;
  /** Over the defaults; a function gets the manifests directory (for paths inside it). */
  config?: Partial<DocopsConfig> | ((dir: string) => Partial<DocopsConfig>);
  deps?: DaemonDeps;
  faults?: string;
  sandbox?: SandboxOptions;
  /** A sandbox to use (and leave running at stop) instead of a new one: a daemon restarted against the same API. */
  running?: RunningSandbox;
  /** The manifests directory to use instead of a new one (a restarted daemon's). */
  dir?: string;
}): Promise<TestDaemon> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'docops-daemon-'));
  for (const [name, text] of Object.entries(options.files)) writeFileSync(join(dir, name), text);
  const sandbox =
    options.running ??
    (await startSandbox({
      seed: 'demo',
      ...(options.faults ? { faults: options.faults } : {}),
      ...options.sandbox,
    }));
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: 'debug',
    format: 'json',
    stream: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const scheduler = new FakeScheduler();
  const clock = new FakeClock();
  const config: DocopsConfig = {
    configFile: '',
    manifestsDir: dir,
    apiUrl: sandbox.url,
    concurrency: 4,
    mode: 'apply',
    prune: {},
    invite: false,
    listen: { host: '127.0.0.1', port: 0 },
    debounceMs: 150,
    retry: { ...CONFIG_DEFAULTS.retry },
    shutdownGraceMs: 10_000,
    logLevel: 'debug',
    journalDir: mkdtempSync(join(tmpdir(), 'docops-journal-')),
    sandbox: false,
    ...(typeof options.config === 'function' ? options.config(dir) : options.config),
  };
  const daemon = new Daemon(config, {
    env: { DOCOPS_TOKEN: sandbox.token },
    logger,
    scheduler,
    clock,
    random: () => 1,
    defaultMetrics: false,
    createClient: await testClientFactory(),
    resolveSettings: async () => ({ baseUrl: sandbox.url, token: sandbox.token }),
    ...options.deps,
  });
  const first = once(daemon, 'run');
  await daemon.start();
  await first;
  return {
    daemon,
    sandbox,
    dir,
    scheduler,
    clock,
    logs,
    nextRun: (pred = () => true) =>
      new Promise((resolve) => {
        const on = (r: RunRecord): void => {
          if (!pred(r)) return;
          daemon.off('run', on);
          resolve(r);
        };
        daemon.on('run', on);
      }),
    write: (name, text) => writeFileSync(join(dir, name), text),
    async get(path) {
      const res = await fetch(daemon.url + path);
      return { status: res.status, text: await res.text() };
    },
    async stop() {
      await daemon.stop();
      if (!options.running) await sandbox.close();
    },
  };
}

/** The real client without its own retries, so a failing API fails a run at once (the daemon's backoff is under test). */
export async function testClientFactory(): Promise<ClientFactory> {
  return async (o) => createClient({ ...o, retry: { maxRetries: 0 } });
}

/** Calls to the sandbox that write. */
export function writes(sandbox: RunningSandbox): number {
  const m = sandbox.stats().byMethod;
  return (m.POST ?? 0) + (m.PUT ?? 0) + (m.PATCH ?? 0) + (m.DELETE ?? 0);
}

/** Team titles in the sandbox's demo org. */
export async function teamTitles(sandbox: RunningSandbox): Promise<string[]> {
  const res = await fetch(`${sandbox.url}/orgs/${ORG}/teams?limit=1000`, {
    headers: { authorization: `Bearer ${sandbox.token}` },
  });
  const body = (await res.json()) as { items: { title: string }[] };
  return body.items.map((t) => t.title).sort();
}
