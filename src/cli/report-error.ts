/**
 * The one top-level error handler: typed docops errors exit with their code and message (every issue line for a
 * ValidationError); anything else is a bug, exits 1 with its message, and logs its stack at debug level.
 * The message is redacted (the registered secrets of src/secrets.ts, and `secrets`) before it is printed; the
 * logged error and its cause chain are redacted by the logger.
 */
import { DocopsError, EXIT, ValidationError, formatIssue } from '../model/errors.js';
import type { CommandLogger } from './command-logger.js';
import { redactSecrets } from '../log-options.js';
import { createColors, shouldColor } from '../render/ansi.js';
import type { CliIO } from './io.js';

export function exitCodeFor(err: unknown): number {
  return err instanceof DocopsError ? err.exitCode : EXIT.error;
}

function messageOf(err: unknown): string {
  if (err instanceof ValidationError) {
    const n = err.issues.length;
    return [`${n} validation error${n === 1 ? '' : 's'}:`, ...err.issues.map(formatIssue)].join('\n');
  }
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

export function reportError(
  err: unknown,
  io: CliIO,
  options: { logger?: CommandLogger; secrets?: readonly string[] } = {},
): number {
  const c = createColors(shouldColor(io.stderr, io.env));
  const message = redactSecrets(messageOf(err), options.secrets ?? []);
  io.stderr.write(`${c.red(c.bold('Error:'))} ${message}\n`);
  if (!(err instanceof DocopsError)) {
    // Unexpected: keep the stack for --log-level debug; pino serialises `err` with its stack.
    options.logger?.debug({ err }, 'unexpected error');
  } else if (err.cause !== undefined) {
    options.logger?.debug({ err: err.cause }, 'caused by');
  }
  return exitCodeFor(err);
}
