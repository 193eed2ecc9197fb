/**
 * The docops command line behind its entry module (main.ts): dispatch to a command, and exactly one place that
 * turns errors into exit codes (reportError). Everything a run prints goes through the process-wide secret
 * registry (src/secrets.ts): the streams are wrapped here, and the credentials a run could use are registered
 * before any manifest is read.
 */
import { registerCredentialSecrets } from '../api/settings.js';
import { UsageError } from '../model/errors.js';
import { redactingStream, registerSecret } from '../secrets.js';
import { GLOBAL_FLAGS, closestFlag, globalOptions, parseCommandArgs } from './args.js';
import type { CommandContext } from './command.js';
import { replayLines, shows, standInLogger, type CommandLogger, type KeptLine } from './command-logger.js';
import { COMMANDS } from './commands/index.js';
import { annotateError } from './github.js';
import { commandHelp, mainHelp } from './help.js';
import { processIO } from './io.js';
import type { CliIO } from './io.js';
import { reportError } from './report-error.js';
import { isVersionFlag, packageVersion } from './version.js';

interface RunState {
  logger?: CommandLogger;
  cleanups: (() => Promise<void> | void)[];
  /** Lines a stand-in logger kept (command-logger.ts), written through pino at the end of the run. */
  kept: KeptLine[];
  /** Makes the real logger (the same options as the command's). */
  makeLogger?: () => Promise<CommandLogger>;
}

async function dispatch(argv: readonly string[], io: CliIO, state: RunState): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) throw new UsageError('missing command. Run `docops --help` for the commands.');
  if (name === '-h' || name === '--help' || (name === 'help' && rest.length === 0)) {
    io.stdout.write(mainHelp(COMMANDS));
    return 0;
  }
  if (isVersionFlag(name)) {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (name === 'help') return dispatch([rest[0]!, '--help'], io, state);
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    const near = closestFlag(
      name,
      COMMANDS.map((c) => c.name),
    );
    const hint = near ? ` Did you mean \`docops ${near}\`?` : '';
    throw new UsageError(`unknown command "${name}".${hint} Commands: ${COMMANDS.map((c) => c.name).join(', ')}.`);
  }
  if (!entry.printsOwnToken) registerSecret(io.env.DOCOPS_TOKEN);
  const command = await entry.load();
  if ('run' in command) {
    return command.run(rest, io, {
      onCleanup: (fn) => void state.cleanups.push(fn),
      addSecret: (s) => registerSecret(s),
      setLogger: (l) => void (state.logger = l),
    });
  }
  const spec = command.spec;

  // Every global flag is accepted (scripts pass the same flags to every command); help lists those a command uses.
  const { values, argument } = parseCommandArgs(spec.name, rest, { ...spec.flags, ...GLOBAL_FLAGS }, spec.argument);
  if (values.help === true) {
    io.stdout.write(commandHelp(spec));
    return 0;
  }
  const global = globalOptions(values, io.env);
  registerCredentialSecrets({ tokenFile: global.tokenFile, env: io.env });
  state.makeLogger = async () => {
    const { createLogger } = await import('../log.js');
    return createLogger({
      level: global.logLevel,
      ...(global.logFormat ? { format: global.logFormat } : {}),
      stream: io.stderr,
      env: io.env,
    });
  };
  const quiet = spec.logsAtMost !== undefined && !shows(global.logLevel, spec.logsAtMost);
  const logger = quiet ? standInLogger(global.logLevel, state.kept) : await state.makeLogger();
  state.logger = logger;
  const ctx: CommandContext = {
    io,
    logger,
    global,
    values,
    ...(argument !== undefined ? { argument } : {}),
    onCleanup: (fn) => void state.cleanups.push(fn),
    addSecret: (s) => registerSecret(s),
  };
  return spec.run(ctx);
}

export async function run(argv: readonly string[], processStreams: CliIO = processIO()): Promise<number> {
  const io = redactingIO(processStreams);
  const state: RunState = { cleanups: [], kept: [] };
  let code: number;
  try {
    code = await dispatch(argv, io, state);
  } catch (err) {
    annotateError(err, io); // GitHub Actions: one ::error annotation per validation issue
    code = reportError(err, io, state);
  }
  // Close the client and stop the sandbox whatever happened; a cleanup failure fails an otherwise good run.
  for (const fn of state.cleanups.reverse()) {
    try {
      await fn();
    } catch (err) {
      if (code === 0) code = reportError(err, io, state);
      else state.logger?.warn({ error: err instanceof Error ? err.message : String(err) }, 'cleanup failed');
    }
  }
  if (state.kept.length > 0 && state.makeLogger) replayLines(state.kept, await state.makeLogger());
  return code;
}

/** The same streams, each write redacted (see src/secrets.ts). */
function redactingIO(io: CliIO): CliIO {
  return { ...io, stdout: redactingStream(io.stdout), stderr: redactingStream(io.stderr) };
}
