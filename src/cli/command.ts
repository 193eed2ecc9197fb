/** What a CLI command declares: its flags and help text, and how it runs once the flags are parsed. */
import type { LogLevel } from '../log-options.js';
import type { FlagSpecs, GlobalFlagName, GlobalOptions, ParsedValues } from './args.js';
import type { CommandLogger } from './command-logger.js';
import type { CliIO } from './io.js';

export interface CommandContext {
  io: CliIO;
  logger: CommandLogger;
  global: GlobalOptions;
  values: ParsedValues;
  /** The positional argument, for a command whose spec names one (`argument`). */
  argument?: string;
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
  /** The placeholder of its one positional argument (e.g. `DIR`), if it takes one. */
  argument?: string;
  /** Command-specific flags. */
  flags: FlagSpecs;
  /**
   * The global flags it uses (help and logging always; default: all): its help lists only these. Every global
   * flag is still accepted (a script may pass the same flags to each command); the others change nothing.
   */
  globals?: readonly GlobalFlagName[];
  examples: string[];
  /**
   * The most severe level the command logs at, when that is below `info` (validate: `debug`). At a log level
   * that hides it the command gets a stand-in logger and pino is never loaded (command-logger.ts).
   */
  logsAtMost?: LogLevel;
  run(ctx: CommandContext): Promise<number>;
}
