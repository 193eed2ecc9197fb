/**
 * The names of log levels and formats, and redaction of known secrets in text: what flag parsing, help texts
 * and the top-level error handler need of logging, without loading the logger (src/log.ts loads pino).
 */
import { REDACTED, redactText } from './secrets.js';

export { REDACTED };

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

export function isLogFormat(value: string): value is LogFormat {
  return (LOG_FORMATS as readonly string[]).includes(value);
}

/**
 * Replace every occurrence of the given secret values in `text` (values shorter than 4 characters are ignored),
 * then every registered secret. Printers use redactText from src/secrets.ts; this is for values not registered.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  const values = secrets
    .filter((s): s is string => typeof s === 'string' && s.length >= 4)
    .sort((a, b) => b.length - a.length);
  for (const s of values) out = out.split(s).join(REDACTED);
  return redactText(out);
}
