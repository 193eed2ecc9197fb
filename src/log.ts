/**
 * Logging: pino, JSON lines by default, pretty (synchronous, human-readable) when stderr is a TTY or asked for.
 * Logs go to stderr so stdout carries only the plan and results. Token-ish fields are redacted by path, and
 * every line — messages, error objects with their stacks and `cause` chains, pretty or JSON — passes through
 * the process-wide secret registry (src/secrets.ts) before it is written, whatever stream the logger has.
 *
 * Importing this module loads pino: commands import it when they make a logger (the CLI once the flags are
 * parsed), never to parse flags or print help, which take level and format names from src/log-options.ts.
 * pino-pretty is loaded only for the pretty format (docs/dev/benchmarks.md, "Start-up").
 */
import { createRequire } from 'node:module';
import { pino, type LevelWithSilent, type Logger } from 'pino';
import type * as PinoPretty from 'pino-pretty';
import type { LogFormat, LogLevel } from './log-options.js';
import { REDACTED, redactText } from './secrets.js';

export type { Logger } from 'pino';
export { REDACTED, redactSecrets, type LogFormat, type LogLevel } from './log-options.js';

export const REDACT_PATHS = [
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'secret',
  '*.secret',
  'shareKey',
  '*.shareKey',
  'urls.published',
];

export interface LogStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** A terminal's width: pretty lines are cut to it. */
  columns?: number;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Default: pretty when the stream is a TTY, JSON otherwise. */
  format?: LogFormat;
  /** Default: process.stderr. */
  stream?: LogStream;
  env?: Readonly<Record<string, string | undefined>>;
}

// pino-pretty (CommonJS) is loaded synchronously, the first time a pretty logger is made.
const load = createRequire(import.meta.url);

export function createLogger(options: LoggerOptions = {}): Logger {
  const stream = options.stream ?? process.stderr;
  const env = options.env ?? process.env;
  const format = options.format ?? (stream.isTTY === true ? 'pretty' : 'json');
  const level: LevelWithSilent = options.level ?? 'info';
  const base = { level, redact: { paths: REDACT_PATHS, censor: REDACTED }, base: undefined };

  if (format === 'json') return pino(base, { write: (line: string) => void stream.write(redactText(line)) });

  // prettyFactory formats one line at a time, so output is synchronous and ordered with our other stderr writes
  // (pino-pretty's stream form pipes through a Transform and can lag behind or be lost at exit).
  const colorize =
    (stream.isTTY === true && !env.NO_COLOR) || (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0');
  const { prettyFactory } = load('pino-pretty') as typeof PinoPretty;
  // One line per entry (a step applied, a retry): fields follow the message as inline JSON. JSON lines are unchanged.
  const pretty = prettyFactory({ colorize, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true });
  const width = (): number | undefined =>
    stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 20 ? stream.columns : undefined;
  return pino(base, {
    write: (line: string) => void stream.write(fitWidth(redactText(pretty(forPeople(line))), width())),
  });
}

/** The fields a step's line carries for machines; a person reads its `change` after the message instead. */
const STEP_FIELDS = ['change', 'step', 'kind', 'org', 'key', 'action'];

/** A JSON log line as a person reads it: a step's `change` follows its message (`applied ~ Members org/x  role: …`). */
export function forPeople(line: string): string | Record<string, unknown> {
  if (!line.includes('"change":')) return line;
  const entry = JSON.parse(line) as Record<string, unknown>;
  if (typeof entry.change !== 'string') return line;
  entry.msg = `${String(entry.msg ?? '')} ${entry.change}`;
  for (const f of STEP_FIELDS) delete entry[f];
  return entry;
}

/** Cut a line to `columns` visible characters (ANSI colour codes kept, colour reset after the cut); as is without a width. */
export function fitWidth(text: string, columns: number | undefined): string {
  if (columns === undefined) return text;
  const end = text.endsWith('\n') ? '\n' : '';
  const body = end ? text.slice(0, -1) : text;
  let visible = 0;
  let out = '';
  // eslint-disable-next-line no-control-regex
  const parts = body.split(/(\u001b\[[0-9;]*m)/);
  for (const part of parts) {
    if (part.startsWith('\u001b[')) {
      out += part;
      continue;
    }
    const chars = [...part];
    if (visible + chars.length <= columns) {
      out += part;
      visible += chars.length;
      continue;
    }
    out +=
      chars.slice(0, Math.max(0, columns - 1 - visible)).join('') + '…' + (body.includes('\u001b[') ? '\u001b[0m' : '');
    return out + end;
  }
  return text;
}
