/**
 * Daemon replicas as real processes for the HA tests: each one runs `docops daemon` from a quick build, with its
 * own kubeconfig (its own bearer token at the Lease endpoints, so one can be cut off) and its own recording
 * proxy in front of the shared sandbox, so every API write is attributed to the replica that sent it and
 * timed when it left it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { FakeLeaseServer } from './lease-server.js';

export interface ProxiedRequest {
  replica: string;
  method: string;
  path: string;
  /** When the request reached the proxy (this process's monotonic clock). */
  at: number;
  /** Its bearer token (which organization it was for, in a fleet). */
  token?: string;
}

export interface Replica {
  name: string;
  /** Its directory (manifests/ and docops.yaml inside). */
  dir: string;
  child: ChildProcess;
  logs: Record<string, unknown>[];
  raw: string[];
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  /** The daemon's HTTP address, once it logged it. */
  url(): string | undefined;
  get(path: string): Promise<{ status: number; body: Record<string, unknown>; text: string }>;
  close(): Promise<void>;
}

export interface ReplicaOptions {
  build: string;
  name: string;
  manifests: Record<string, string>;
  sandbox: { origin: string; token: string };
  leases: FakeLeaseServer;
  /** Lines added to docops.yaml. */
  config: string[];
  /** Every API request the replica sends, in arrival order (shared by the replicas of a test). */
  requests: ProxiedRequest[];
  /** Writes wait at the proxy until this resolves (recorded on arrival): the test decides when writing begins. */
  writesFrom: Promise<void>;
  /** A fleet: no top-level `manifests:` (each organization names its own directory under manifests/). */
  fleet?: boolean;
  /** Further environment variables (a fleet's tokens). */
  env?: Record<string, string>;
}

export async function startReplica(o: ReplicaOptions): Promise<Replica> {
  const dir = mkdtempSync(join(tmpdir(), `docops-${o.name}-`));
  mkdirSync(join(dir, 'manifests'));
  for (const [file, text] of Object.entries(o.manifests)) {
    mkdirSync(dirname(join(dir, 'manifests', file)), { recursive: true });
    writeFileSync(join(dir, 'manifests', file), text);
  }
  writeFileSync(join(dir, 'kubeconfig'), o.leases.kubeconfig(o.name));
  const proxy = await startProxy(o.sandbox.origin, o.name, o.requests, o.writesFrom);
  writeFileSync(
    join(dir, 'docops.yaml'),
    [
      ...(o.fleet ? [] : ['manifests: ./manifests']),
      `apiUrl: ${proxy.url}/v1`,
      'listen: 127.0.0.1:0',
      'journalDir: ./journal',
      ...o.config,
      '',
    ].join('\n'),
  );
  const child = spawn(
    process.execPath,
    [join(o.build, 'run-daemon.mjs'), '-c', join(dir, 'docops.yaml'), '--log-format', 'json'],
    {
      cwd: dir,
      env: {
        ...process.env,
        ...o.env,
        DOCOPS_TOKEN: o.sandbox.token,
        DOCOPS_API_URL: '',
        NO_COLOR: '1',
        KUBECONFIG: join(dir, 'kubeconfig'),
        HOSTNAME: o.name,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const logs: Record<string, unknown>[] = [];
  const raw: string[] = [];
  let url: string | undefined;
  createInterface({ input: child.stderr! }).on('line', (line) => {
    raw.push(line);
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      logs.push(entry);
      if (String(entry.msg).startsWith('docops daemon started') && typeof entry.url === 'string') url = entry.url;
    } catch {
      // not a log line
    }
  });
  return {
    name: o.name,
    dir,
    child,
    logs,
    raw,
    exited,
    url: () => url,
    async get(path) {
      if (url === undefined) throw new Error(`${o.name} is not serving yet`);
      const res = await fetch(url + path);
      const text = await res.text();
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // /metrics
      }
      return { status: res.status, body, text };
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      await proxy.close();
    },
  };
}

/**
 * Forwards to the sandbox, recording each request; a request keeps going upstream when its sender dies (it was
 * sent). Writes are held until `writesFrom` resolves.
 */
async function startProxy(
  origin: string,
  replica: string,
  requests: ProxiedRequest[],
  writesFrom: Promise<void>,
): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(origin);
  const server: Server = createServer(async (req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    requests.push({
      replica,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      at: performance.now(),
      ...(token !== undefined ? { token } : {}),
    });
    if (req.method !== 'GET') await writesFrom;
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.on('error', () => {});
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Writes (not GET) a replica sent to the API. */
export const writesOf = (requests: ProxiedRequest[], replica: string): ProxiedRequest[] =>
  requests.filter((r) => r.replica === replica && r.method !== 'GET');
