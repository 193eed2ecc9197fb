/**
 * Command-line parsing on node:util parseArgs: flag specs carry their help text, global flags are shared by
 * every command, and parse errors become UsageError with a hint (closest flag, where to find help).
 */
import { parseArgs } from 'node:util';
import { UsageError } from '../model/errors.js';
import { LOG_FORMATS, LOG_LEVELS, isLogFormat, isLogLevel } from '../log-options.js';
import type { LogFormat, LogLevel } from '../log-options.js';

export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** Placeholder of the value in help, e.g. DIR. */
  value?: string;
  description: string;
}

export type FlagSpecs = Record<string, FlagSpec>;

export const GLOBAL_FLAGS = {
  'api-url': {
    type: 'string',
    value: 'URL',
    description: 'Management API base URL (default: DOCOPS_API_URL or the public API)',
  },
  'token-file': {
    type: 'string',
    value: 'FILE',
    description: 'Read the API token from FILE (otherwise from DOCOPS_TOKEN)',
  },
  sandbox: {
    type: 'boolean',
    description: 'Run against an in-process sandbox API seeded with demo data (no token needed)',
  },
  'sandbox-state': { type: 'string', value: 'FILE', description: 'Like --sandbox, keeping the sandbox state in FILE' },
  concurrency: {
    type: 'string',
    value: 'N',
    description: 'Maximum concurrent API requests and apply steps (default 8)',
  },
  prune: {
    type: 'string',
    multiple: true,
    value: 'KIND',
    description: 'Delete live objects of KIND that no manifest mentions (repeatable)',
  },
  invite: { type: 'boolean', description: 'Invite organization members missing from the org by e-mail' },
  'log-level': { type: 'string', value: 'LEVEL', description: `Log level: ${LOG_LEVELS.join('|')} (default info)` },
  'log-format': {
    type: 'string',
    value: 'FORMAT',
    description: `Log format on stderr: ${LOG_FORMATS.join('|')} (default: pretty on a terminal, else json)`,
  },
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
} as const satisfies FlagSpecs;

export type GlobalFlagName = keyof typeof GLOBAL_FLAGS;

/** Every command takes these: help and logging. */
const ALWAYS: readonly GlobalFlagName[] = ['log-level', 'log-format', 'help'];

/**
 * The global flags a command accepts and lists in its help: `uses` (the API, sandbox, concurrency, prune …
 * flags it reads) plus help and logging; all of them when `uses` is not given.
 */
export function globalFlagsFor(uses?: readonly GlobalFlagName[]): FlagSpecs {
  if (uses === undefined) return GLOBAL_FLAGS;
  return Object.fromEntries(
    Object.entries(GLOBAL_FLAGS).filter(
      ([name]) => uses.includes(name as GlobalFlagName) || ALWAYS.includes(name as GlobalFlagName),
    ),
  );
}

export interface GlobalOptions {
  apiUrl?: string;
  tokenFile?: string;
  sandbox: boolean;
  sandboxState?: string;
  concurrency: number;
  prune: string[];
  invite: boolean;
  logLevel: LogLevel;
  logFormat?: LogFormat;
  help: boolean;
}

export const DEFAULT_CONCURRENCY = 8;

export type ParsedValues = Record<string, string | boolean | string[] | undefined>;

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

/** The known flag closest to an unknown one, when it is plausibly a typo. */
export function closestFlag(unknown: string, flags: readonly string[]): string | undefined {
  const name = unknown.replace(/^-+/, '').split('=')[0] ?? '';
  let best: { flag: string; d: number } | undefined;
  for (const f of flags) {
    const d = levenshtein(name, f);
    if (!best || d < best.d) best = { flag: f, d };
  }
  return best && best.d <= Math.max(2, Math.floor(name.length / 3)) ? best.flag : undefined;
}

export interface ParsedArgs {
  values: ParsedValues;
  /** The command's one positional argument (`argument` in its spec), when given. */
  argument?: string;
}

/**
 * Parse argv against a command's flags; unknown flags and stray arguments are UsageErrors. `argument` names the
 * one positional argument the command takes (e.g. `DIR`), if any: a second one is a stray argument.
 */
export function parseCommandArgs(
  command: string,
  argv: readonly string[],
  flags: FlagSpecs,
  argument?: string,
): ParsedArgs {
  const options = Object.fromEntries(
    Object.entries(flags).map(([name, f]) => [
      name,
      { type: f.type, ...(f.short ? { short: f.short } : {}), ...(f.multiple ? { multiple: true } : {}) },
    ]),
  );
  const help = `Run \`docops ${command} --help\` for the flags.`;
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options,
      strict: true,
      allowPositionals: argument !== undefined,
    });
    if (positionals.length > 1)
      throw new UsageError(
        `unexpected argument ${positionals[1]} for \`docops ${command}\` (it takes one ${argument}). ${help}`,
      );
    const [first] = positionals;
    return first === undefined
      ? { values: values as ParsedValues }
      : { values: values as ParsedValues, argument: first };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const flag = /'([^']+)'/.exec((err as Error).message)?.[1] ?? '';
      const near = closestFlag(flag, Object.keys(flags));
      throw new UsageError(
        `unknown flag ${flag} for \`docops ${command}\`.${near ? ` Did you mean --${near}?` : ''} ${help}`,
      );
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      const arg = /'([^']+)'/.exec((err as Error).message)?.[1];
      throw new UsageError(`unexpected argument${arg ? ` ${arg}` : ''} for \`docops ${command}\`. ${help}`);
    }
    if (code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError(`${(err as Error).message}. ${help}`);
    throw err;
  }
}

function positiveInt(flag: string, raw: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--${flag} must be a positive integer, got "${raw}"`);
  return n;
}

/** The global flags out of parsed values, checked. */
export function globalOptions(values: ParsedValues, env: Readonly<Record<string, string | undefined>>): GlobalOptions {
  const str = (k: string): string | undefined => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const level = str('log-level') ?? env.DOCOPS_LOG_LEVEL ?? 'info';
  if (!isLogLevel(level)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${level}"`);
  const format = str('log-format');
  if (format !== undefined && !isLogFormat(format))
    throw new UsageError(`--log-format must be one of ${LOG_FORMATS.join(', ')}, got "${format}"`);
  const concurrency = str('concurrency');
  const opts: GlobalOptions = {
    sandbox: values.sandbox === true || str('sandbox-state') !== undefined,
    concurrency: concurrency === undefined ? DEFAULT_CONCURRENCY : positiveInt('concurrency', concurrency),
    prune: Array.isArray(values.prune) ? values.prune : [],
    invite: values.invite === true,
    logLevel: level,
    help: values.help === true,
  };
  if (str('api-url') !== undefined) opts.apiUrl = str('api-url');
  if (str('token-file') !== undefined) opts.tokenFile = str('token-file');
  if (str('sandbox-state') !== undefined) opts.sandboxState = str('sandbox-state');
  if (format !== undefined) opts.logFormat = format;
  if (opts.sandbox && opts.apiUrl !== undefined)
    throw new UsageError('--sandbox starts its own API: drop --api-url (or drop --sandbox)');
  return opts;
}
