/** What a CLI command declares: its flags and help text, and how it runs once the flags are parsed. */
import type { LogLevel } from '../log-options.js';
import type { FlagSpecs, GlobalOptions, ParsedValues } from './args.js';
import type { CommandLogger } from './command-logger.js';
import type { CliIO } from './io.js';

export interface CommandContext {
  io: CliIO;
  logger: CommandLogger;
  global: GlobalOptions;
  values: ParsedValues;
  /** Run at the end of the command, last registered first (closes the client, stops the sandbox). */
  onCleanup(fn: () => Promise<void> | void): void;
  /** Known secret values (the token); the top-level handler scrubs them from error messages. */
  addSecret(value: string): void;
}

export interface CommandSpec {
  name: string;
  usage: string;
  /** A paragraph for `docops <command> --help`. */
  description: string;
  /** Command-specific flags; the global flags are added to every command. */
  flags: FlagSpecs;
  examples: string[];
  /**
   * The most severe level the command logs at, when that is below `info` (validate: `debug`). At a log level
   * that hides it the command gets a stand-in logger and pino is never loaded (command-logger.ts).
   */
  logsAtMost?: LogLevel;
  run(ctx: CommandContext): Promise<number>;
}
