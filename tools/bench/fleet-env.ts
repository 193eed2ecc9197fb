/**
 * What the fleet measures (fleet-bench.ts) share: one API address for many organizations' sandboxes (each request
 * goes to the sandbox of its bearer token, as the real API serves every organization), optionally recording
 * every request with its token and arrival time; and `docops daemon` started with a fleet's environment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cleanEnv, docopsCommand } from './spawn.js';

export interface Routed {
  /** Its bearer token. */
  token: string;
  method: string;
  /** performance.timeOrigin + performance.now() when it arrived (epoch ms). */
  at: number;
}

/** Forwards to the origin of the request's token; `record` sees every request on arrival. */
export async function startTokenRouter(
  origins: ReadonlyMap<string, string>,
  record?: (r: Routed) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    record?.({ token, method: req.method ?? 'GET', at: performance.timeOrigin + performance.now() });
    const origin = origins.get(token);
    if (origin === undefined) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error":{"code":401,"message":"unknown token"}}');
      return;
    }
    const target = new URL(origin);
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
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

export interface FleetDaemon {
  child: ChildProcess;
  url: () => string | undefined;
  logs: Record<string, unknown>[];
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** The installed `docops daemon -c config` with extra environment (the organizations' tokens, KUBECONFIG …). */
export function startFleetDaemon(config: string, env: Record<string, string>, cwd?: string): FleetDaemon {
  const [file, ...args] = docopsCommand();
  const child = spawn(file!, [...args, 'daemon', '-c', config, '--log-format', 'json'], {
    env: cleanEnv(env),
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(cwd ? { cwd } : {}),
  });
  const logs: Record<string, unknown>[] = [];
  let url: string | undefined;
  let rest = '';
  child.stderr!.on('data', (d: Buffer) => {
    const lines = (rest + d.toString()).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (logs.length < 200_000) logs.push(entry);
        if (
          typeof entry.msg === 'string' &&
          entry.msg.startsWith('docops daemon started') &&
          typeof entry.url === 'string'
        )
          url = entry.url;
      } catch {
        logs.push({ raw: line }); // not a log line (an error printed before logging began)
      }
    }
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    child,
    url: () => url,
    logs,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The tail of a daemon's log, for an error message. */
export const logTail = (d: FleetDaemon): string =>
  [
    `exit: ${d.child.exitCode ?? d.child.signalCode ?? 'running'}`,
    ...d.logs.slice(-20).map((l) => JSON.stringify(l)),
  ].join('\n');
