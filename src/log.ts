/**
 * Logging: pino, JSON lines by default, pretty (synchronous, human-readable) when stderr is a TTY or asked for.
 * Logs go to stderr so stdout carries only the plan and results. Token-ish fields are redacted by path, and
 * every line — messages, error objects with their stacks and `cause` chains, pretty or JSON — passes through
 * the process-wide secret registry (src/secrets.ts) before it is written, whatever stream the logger has.
 */
import { pino } from 'pino';
import type { Logger, LevelWithSilent } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { REDACTED, redactText } from './secrets.js';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

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

export { REDACTED };

export interface LogStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Default: pretty when the stream is a TTY, JSON otherwise. */
  format?: LogFormat;
  /** Default: process.stderr. */
  stream?: LogStream;
  env?: Readonly<Record<string, string | undefined>>;
}

export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

export function isLogFormat(value: string): value is LogFormat {
  return (LOG_FORMATS as readonly string[]).includes(value);
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const stream = options.stream ?? process.stderr;
  const env = options.env ?? process.env;
  const format = options.format ?? (stream.isTTY === true ? 'pretty' : 'json');
  const level: LevelWithSilent = options.level ?? 'info';
  const base = { level, redact: { paths: REDACT_PATHS, censor: REDACTED }, base: undefined };

  if (format === 'json') return pino(base, { write: (line: string) => void stream.write(redactText(line)) });

  // prettyFactory formats one line at a time, so output is synchronous and ordered with our other stderr writes
  // (pino-pretty's stream form pipes through a Transform and can lag behind or be lost at exit).
  const colorize = (stream.isTTY === true && !env.NO_COLOR) || (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0');
  const pretty = prettyFactory({ colorize, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' });
  return pino(base, { write: (line: string) => void stream.write(redactText(pretty(line))) });
}

/**
 * Replace every occurrence of the given secret values in `text` (values shorter than 4 characters are ignored),
 * then every registered secret. Printers use redactText from src/secrets.ts; this is for values not registered.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  const values = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4).sort((a, b) => b.length - a.length);
  for (const s of values) out = out.split(s).join(REDACTED);
  return redactText(out);
}
