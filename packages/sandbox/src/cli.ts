/**
 * `docops sandbox [--port N] [--host 127.0.0.1] [--token T] [--read-token T] [--state FILE] [--seed demo|empty] [--faults SPEC]
 * [--rate-limit LIMIT/WINDOW]`:
 * serve the sandbox API until SIGINT/SIGTERM, then close and resolve 0. The sandbox itself is loaded only
 * once the flags are good (`docops sandbox --help` and a bad flag load none of it).
 */
import { parseArgs } from 'node:util';
import { parseFaults } from './faults.js';
import { formatRateLimit, parseRateLimit } from './rate-limit.js';
import type { SandboxOptions } from './index.js';

const USAGE = `Usage: docops sandbox [options]

Serve a local, in-memory copy of the documentation platform's management API (no account needed).

Options:
  --port N          port to listen on (default 0: any free port)
  --host HOST       address to bind (default 127.0.0.1)
  --token T         bearer token to accept (default sandbox-token); its user is an admin
  --read-token T    also accept T as a read-only token: its user (readonly@acme.test) is a read
                    member of every organization; GETs work, every write is refused with 403
  --state FILE      load state from FILE if it exists; save every change to it
  --seed SEED       initial content when there is no state file: demo (default), empty, or
                    large[:MEMBERS]: the benchmark's generated organization org-bench (default
                    10,000 members, 1,000 teams, 500 spaces, 50 sites; scaled to MEMBERS)
  --faults SPEC     inject faults, e.g. "latency=20ms,429=0.05,5xx=0.02,reset=0.01,seed=7", and the
                    world's habits: stale=2s (lists answer late), auditDelay=20s:15s (audit events
                    arrive late, out of order), evolve=0.3 (fields and values of a newer API),
                    race=0.3 (another user changes what docops read before it writes)
  --rate-limit L/W  a token bucket per token, e.g. 600/min: X-RateLimit-* headers on every
                    answer, 429 with Retry-After when empty (also rateLimit=600/min in --faults)
  -h, --help        show this help

Examples:
  docops sandbox --port 4010
  docops sandbox --port 4010 --state sandbox.json          # keeps its state across restarts
  docops sandbox --port 4010 --token write-token --read-token read-token
  docops sandbox --port 4010 --seed large:2000             # a big org to try export, progress and plan on
  docops sandbox --port 4010 --faults "latency=20ms,5xx=0.02,seed=7" --rate-limit 600/min
  docops sandbox --port 4010 --faults "stale=2s,auditDelay=20s:15s,evolve=0.3,race=0.3,seed=7"
`;

/** Members of `--seed large`: BENCH_SIZES.members (a test keeps them equal; importing it here would load more for --help). */
export const LARGE_SEED_MEMBERS = 10_000;

/** `--seed`: demo, empty, or large[:MEMBERS]. */
export function parseSeed(raw: string): NonNullable<SandboxOptions['seed']> {
  if (raw === 'demo' || raw === 'empty') return raw;
  const large = /^large(?::(\d+))?$/.exec(raw);
  if (large) {
    const members = large[1] === undefined ? LARGE_SEED_MEMBERS : Number(large[1]);
    if (!Number.isSafeInteger(members) || members < 1 || members > 1_000_000)
      throw new Error(`--seed large:MEMBERS needs 1..1000000 members (got "${large[1]}")`);
    return { large: members };
  }
  throw new Error(`--seed must be demo, empty or large[:MEMBERS] (got "${raw}")`);
}

export async function sandboxCommand(
  argv: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  let opts: SandboxOptions;
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        token: { type: 'string' },
        'read-token': { type: 'string' },
        state: { type: 'string' },
        seed: { type: 'string' },
        faults: { type: 'string' },
        'rate-limit': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    opts = {};
    if (values.port !== undefined) {
      if (!/^\d+$/.test(values.port) || Number(values.port) > 65535)
        throw new Error(`--port must be an integer 0..65535 (got "${values.port}")`);
      opts.port = Number(values.port);
    }
    if (values.host !== undefined) opts.host = values.host;
    if (values.token !== undefined) {
      if (values.token === '') throw new Error('--token must not be empty');
      opts.token = values.token;
    }
    const readToken = values['read-token'];
    if (readToken !== undefined) {
      if (readToken === '') throw new Error('--read-token must not be empty');
      if (readToken === (opts.token ?? 'sandbox-token')) throw new Error('--read-token must differ from --token');
      opts.readToken = readToken;
    }
    if (values.state !== undefined) opts.stateFile = values.state;
    if (values.seed !== undefined) opts.seed = parseSeed(values.seed);
    const faults = values.faults === undefined ? undefined : parseFaults(values.faults);
    if (faults !== undefined) opts.faults = faults;
    if (values['rate-limit'] !== undefined) {
      if (faults?.rateLimit !== undefined)
        throw new Error('give the rate limit either with --rate-limit or as rateLimit= in --faults, not both');
      opts.rateLimit = parseRateLimit(values['rate-limit']);
    }
  } catch (err) {
    io.stderr.write(`docops sandbox: ${(err as Error).message}\n\n${USAGE}`);
    return 1;
  }

  let sandbox;
  try {
    const { startSandbox } = await import('./index.js');
    sandbox = await startSandbox(opts);
  } catch (err) {
    const inUse = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
    const hint = inUse
      ? ` (another sandbox or program listens there: pick another port with --port N, or --port 0 for any free one)`
      : '';
    io.stderr.write(`docops sandbox: cannot start: ${(err as Error).message}${hint}\n`);
    return 1;
  }
  const { orgs } = await import('./records.js');
  const served = orgs(sandbox.store)
    .all()
    .map((o) => o.id);
  io.stdout.write(
    `docops sandbox listening\n  base URL: ${sandbox.url}\n  token:    ${sandbox.token}\n` +
      `  organizations: ${served.join(', ') || '(none)'}\n` +
      (typeof opts.seed === 'object'
        ? `  org-bench: ${opts.seed.large.toLocaleString('en-US')} members (try: docops export --org org-bench -o bench-org)\n`
        : '') +
      (sandbox.readToken !== undefined
        ? `  read-only token: ${sandbox.readToken} (refused every write with 403)\n`
        : '') +
      (opts.stateFile ? `  state:    ${opts.stateFile}\n` : '') +
      (typeof opts.rateLimit === 'object' ? `  rate limit: ${formatRateLimit(opts.rateLimit)} per token\n` : '') +
      `Point docops at it (in another shell):\n  export DOCOPS_API_URL=${sandbox.url}\n  export DOCOPS_TOKEN=${sandbox.token}\n` +
      `Press Ctrl+C to stop.\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await sandbox.close();
  io.stdout.write('docops sandbox stopped\n');
  return 0;
}
