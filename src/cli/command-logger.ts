/**
 * What a CLI command logs with (CommandContext.logger): pino's logging methods. The pino logger (src/log.ts)
 * is one; a command that logs only at `debug` (validate) gets a stand-in when the level hides those lines, so
 * it never loads pino (docs/dev/benchmarks.md, "Start-up"): the stand-in drops what pino would drop and keeps any
 * line at a shown level, which the dispatcher then writes through pino (replayLines) once the command is done.
 * A command that declares `logs: 'debug'` and logs at `info` or above therefore loses nothing, but its line is
 * written after the command's other output — a broken declaration, not a silent one.
 */
import type { LevelWithSilent, LogFn } from 'pino';
import { LOG_LEVELS, type LogLevel } from '../log-options.js';

type Method = Exclude<LogLevel, 'silent'>;

export type CommandLogger = { [M in Method]: LogFn };

/** A line kept by the stand-in: its level and the arguments it was called with. */
export interface KeptLine {
  level: Method;
  args: unknown[];
}

const rank = (level: LevelWithSilent): number => LOG_LEVELS.indexOf(level);

/** Whether `level` lets lines of `line` through. */
export const shows = (level: LogLevel, line: LogLevel): boolean => rank(line) >= rank(level);

/** A logger without pino at the run's `level`; `kept` collects the lines that level shows. */
export function standInLogger(level: LogLevel, kept: KeptLine[]): CommandLogger {
  const method =
    (m: Method): LogFn =>
    (...args: unknown[]) => {
      if (shows(level, m)) kept.push({ level: m, args });
    };
  return {
    trace: method('trace'),
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
    fatal: method('fatal'),
  };
}

/** Write kept lines through a real logger, in order. */
export function replayLines(lines: readonly KeptLine[], logger: CommandLogger): void {
  for (const { level, args } of lines) Reflect.apply(logger[level], logger, args);
}
