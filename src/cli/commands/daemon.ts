/**
 * `docops daemon -c docops.yaml [--api-url URL] [--listen HOST:PORT] [--sandbox]`: run the reconciler until
 * SIGTERM/SIGINT. Config problems throw (the CLI's error handler prints them and exits 1); a clean stop
 * returns 0, a stop whose running reconcile outlived the grace period returns 1.
 *
 * The daemon (its metrics, watcher, scheduler, HTTP server) and the config loader are imported once the flags
 * are parsed: this module is all `docops daemon --help` and a bad flag load, and no other command loads it.
 */
import { parseArgs } from 'node:util';
import { UsageError } from '../../model/errors.js';
import { isLogFormat, isLogLevel, LOG_FORMATS, LOG_LEVELS } from '../../log-options.js';
import type { CliIO } from '../io.js';
import type { Daemon, DaemonDeps } from '../../daemon/daemon.js';
import type { Fleet } from '../../daemon/fleet/fleet.js';
import type { ListenAddress } from '../../config/checks.js';
import type { ConfigOverrides } from '../../config/overrides.js';
import type { Logger } from '../../log.js';

export const DAEMON_HELP = `Usage: docops daemon -c FILE [options]

Runs until SIGTERM/SIGINT. Reconciles when the manifests directory changes, on the cron schedule, and on
POST /reconcile; serves /healthz, /readyz and /metrics. With organizations: in the config, reconciles each of
them on its own (its token, its queue), optionally a shard of them. See docs/daemon.md.

Options:
  -c, --config FILE        docops.yaml (required; see config.example/docops.yaml)
      --api-url URL        Management API base URL (overrides apiUrl and DOCOPS_API_URL)
      --listen HOST:PORT   HTTP address (overrides listen and DOCOPS_LISTEN; default 0.0.0.0:8080)
      --sandbox            Run against an in-process sandbox seeded with demo data (no token needed)
      --log-level LEVEL    ${LOG_LEVELS.join('|')} (default: logLevel from the config, else info)
      --log-format FORMAT  ${LOG_FORMATS.join('|')} (default: pretty on a terminal, else json)
  -h, --help               Show this help

Environment: DOCOPS_TOKEN, DOCOPS_API_URL, DOCOPS_MANIFESTS, DOCOPS_MODE, DOCOPS_SCHEDULE, DOCOPS_LISTEN,
DOCOPS_CONCURRENCY, DOCOPS_RECONCILE_SECRET, DOCOPS_JOURNAL_DIR, DOCOPS_HA_MODE, DOCOPS_ALLOW_ENV (variables
manifests may read, overriding allowEnv); for pull-request approvals DOCOPS_GITHUB_TOKEN, DOCOPS_GITHUB_API_URL.

Examples:
  docops daemon -c config.example/docops.yaml --sandbox                       # what npm start runs
  docops daemon -c config.example/docops.yaml --sandbox --listen 127.0.0.1:8081  # a second one beside it
  DOCOPS_TOKEN=… docops daemon -c docops.yaml --log-format json
  DOCOPS_MODE=plan docops daemon -c docops.yaml                               # report drift, never write
`;

/** A listen address already taken gets the flag and variable that change it (a second \`npm start\`). */
function listenError(err: unknown, listen: ListenAddress): unknown {
  if ((err as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') return err;
  return new UsageError(
    `cannot listen on ${listen.host}:${listen.port}: the address is in use (another docops daemon, or a second \`npm start\`?). ` +
      `Choose another address with --listen HOST:PORT (e.g. --listen 127.0.0.1:8081), DOCOPS_LISTEN, or listen: in the config`,
    { cause: err },
  );
}

export interface DaemonCommandHooks {
  /** Stops the daemon like SIGTERM (in-process callers, tests). */
  stopSignal?: AbortSignal;
  /** Called once the daemon is serving. */
  onStarted?: (daemon: Daemon) => void;
  /** Called once a daemon of several organizations (`organizations:`) is serving. */
  onFleetStarted?: (fleet: Fleet) => void;
  /** Whether to listen for SIGTERM/SIGINT on the process (default true). */
  processSignals?: boolean;
  deps?: DaemonDeps;
}

type Flags = Record<string, string | boolean | undefined>;

export async function daemonCommand(argv: string[], io: CliIO, hooks: DaemonCommandHooks = {}): Promise<number> {
  const values = parseFlags(argv);
  if (values.help === true) {
    io.stdout.write(DAEMON_HELP);
    return 0;
  }
  const file = values.config;
  if (typeof file !== 'string' || file === '')
    throw new UsageError('docops daemon: missing -c FILE (the docops.yaml config)');
  const level = values['log-level'];
  const format = values['log-format'];
  if (typeof level === 'string' && !isLogLevel(level))
    throw new UsageError(`--log-level: expected one of ${LOG_LEVELS.join(', ')}`);
  if (typeof format === 'string' && !isLogFormat(format))
    throw new UsageError(`--log-format: expected one of ${LOG_FORMATS.join(', ')}`);

  const [{ loadConfig }, { Daemon }, { createLogger }] = await Promise.all([
    import('../../config/load.js'),
    import('../../daemon/daemon.js'),
    import('../../log.js'),
  ]);
  const config = await loadConfig(file, { env: io.env, overrides: configOverrides(values) });
  const logger =
    hooks.deps?.logger ??
    createLogger({
      level: typeof level === 'string' && isLogLevel(level) ? level : config.logLevel,
      ...(typeof format === 'string' && isLogFormat(format) ? { format } : {}),
      stream: io.stderr,
      env: io.env,
    });
  if (config.organizations && config.sandbox)
    throw new UsageError('--sandbox runs the one demo organization; it does not go with organizations: in the config');
  // Several organizations: each its own daemon inside one fleet (loaded only then).
  const daemon = config.organizations
    ? new (await import('../../daemon/fleet/fleet.js')).Fleet(config, { ...hooks.deps, env: io.env, logger })
    : new Daemon(config, { ...hooks.deps, env: io.env, logger });
  const started = (): void => (daemon instanceof Daemon ? hooks.onStarted?.(daemon) : hooks.onFleetStarted?.(daemon));
  return runUntilStopped(daemon, { hooks, logger, listen: config.listen, started });
}

function parseFlags(argv: string[]): Flags {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        config: { type: 'string', short: 'c' },
        'api-url': { type: 'string' },
        listen: { type: 'string' },
        sandbox: { type: 'boolean' },
        'log-level': { type: 'string' },
        'log-format': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    throw new UsageError(`docops daemon: ${(err as Error).message}. Run \`docops daemon --help\`.`);
  }
}

/** The flags that override the config file (and the environment). */
function configOverrides(values: Flags): ConfigOverrides {
  return {
    ...(typeof values['api-url'] === 'string' ? { apiUrl: values['api-url'] } : {}),
    ...(typeof values.listen === 'string' ? { listen: values.listen } : {}),
    ...(values.sandbox === true ? { sandbox: true } : {}),
  };
}

/** Starts the daemon (or fleet) and serves until SIGTERM/SIGINT or the hooks' stop signal; 1 when the stop was not graceful. */
async function runUntilStopped(
  daemon: Daemon | Fleet,
  {
    hooks,
    logger,
    listen,
    started,
  }: { hooks: DaemonCommandHooks; logger: Logger; listen: ListenAddress; started(): void },
): Promise<number> {
  // Stop requests may come before start() finishes; they are honoured right after.
  let stopRequested: () => void = () => {};
  const stopped = new Promise<void>((res) => (stopRequested = res));
  const onSignal = (signal: string) => () => {
    logger.info({ signal }, 'signal received');
    stopRequested();
  };
  const onTerm = onSignal('SIGTERM');
  const onInt = onSignal('SIGINT');
  if (hooks.processSignals !== false) {
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
  }
  if (hooks.stopSignal?.aborted) stopRequested();
  hooks.stopSignal?.addEventListener('abort', () => stopRequested(), { once: true });
  try {
    try {
      await daemon.start();
    } catch (err) {
      await daemon.stop({ quiet: true }); // what it closes is not news: why it did not start is
      throw listenError(err, listen);
    }
    started();
    await stopped;
    const { graceful } = await daemon.stop();
    return graceful ? 0 : 1;
  } finally {
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
  }
}
