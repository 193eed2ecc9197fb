/**
 * `${VAR}` / `${VAR:-default}` interpolation in string scalars, done on the YAML tree so every scalar keeps
 * its source position. `$${` is a literal `${`. Keys are never interpolated. A default may itself hold
 * references (`${A:-${B:-none}}`), read only when the default is used.
 *
 * What a reference may read is decided by a VarSource. Manifests get `allowedVariables`: only the names the
 * user allows (a manifest is text anyone with a pull request can write, and a plan prints what it reads), never
 * docops's own DOCOPS_* variables and never a value holding the API token. Refusals are errors that say how to
 * allow the variable and never show its value.
 *
 * This module reads strings only; what needs the `yaml` package (the tree walk, typing a substituted plain
 * scalar) is in interpolate-yaml.ts.
 */
import { registeredSecrets } from '../secrets.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** What `${NAME}` may read. */
export interface VarSource {
  /** The value (undefined: unset), or why NAME may not be read. A refused variable's value is never returned. */
  read(name: string): { value: string | undefined } | { refused: string };
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** An allow-list entry: a variable name, or a prefix ending in `*` (`TEAM_*`). */
export const ALLOW_ENTRY = /^[A-Za-z_][A-Za-z0-9_]*\*?$/;
/** docops's own variables (DOCOPS_TOKEN, DOCOPS_RECONCILE_SECRET, …): never interpolated into a manifest. */
const OWN = /^docops_/i;
/** Secrets shorter than this are refused on equality only, longer ones also inside a value. */
const MIN_SECRET_SUBSTRING = 8;

/**
 * An allow-list as written (`--allow-env A,B_*`, DOCOPS_ALLOW_ENV, a config's allowEnv): comma-separated
 * entries, blanks ignored; entries that are neither a name nor a prefix ending in `*` come back in `invalid`.
 */
export function parseAllowList(values: readonly string[]): { entries: string[]; invalid: string[] } {
  const all = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  return { entries: all.filter((v) => ALLOW_ENTRY.test(v)), invalid: all.filter((v) => !ALLOW_ENTRY.test(v)) };
}

/** Every variable: for files written by whoever runs docops (the daemon config), like its command line. */
export function everyVariable(env: Env): VarSource {
  return { read: (name) => ({ value: env[name] }) };
}

/** How a refused variable is allowed, for messages. */
export const HOW_TO_ALLOW = 'allow it with --allow-env NAME (or DOCOPS_ALLOW_ENV, or allowEnv in the daemon config)';

/**
 * Whether a text is (or, for secrets of 8+ characters, contains) one of `secrets` or a secret this process
 * registered (the token, however it was read; the reconcile secret): what no manifest value or data file may carry.
 */
export function heldSecrets(secrets: readonly string[] = []): (text: string) => boolean {
  const held = [...secrets, ...registeredSecrets()].filter((s) => s !== '');
  return (text) => held.some((s) => text === s || (s.length >= MIN_SECRET_SUBSTRING && text.includes(s)));
}

/**
 * Manifests: only variables `allow` names (exact names or `PREFIX*`), never a DOCOPS_* variable, never one
 * whose value is (or, for secrets of 8+ characters, contains) one of `secrets` (the API token).
 */
export function allowedVariables(env: Env, allow: readonly string[], secrets: readonly string[] = []): VarSource {
  const exact = new Set(allow.filter((a) => !a.endsWith('*')));
  const prefixes = allow.filter((a) => a.endsWith('*')).map((a) => a.slice(0, -1));
  // Also every credential this process registered (the token however it was read, the reconcile secret, a
  // notification URL or key): said as such, so a refused webhook URL is not called the API token.
  const holds = (value: string, of: readonly string[]): boolean =>
    of.some((s) => s !== '' && (value === s || (s.length >= MIN_SECRET_SUBSTRING && value.includes(s))));
  return {
    read(name) {
      if (OWN.test(name))
        return {
          refused: `environment variable "${name}" is docops's own: DOCOPS_* variables are never interpolated into manifests`,
        };
      if (!exact.has(name) && !prefixes.some((p) => name.startsWith(p))) {
        return {
          refused: `environment variable "${name}" is not allowed in manifests: ${HOW_TO_ALLOW.replace('NAME', name)}`,
        };
      }
      const value = env[name];
      if (value !== undefined && holds(value, secrets))
        return {
          refused: `environment variable "${name}" holds the API token: it is never interpolated into manifests`,
        };
      if (value !== undefined && holds(value, registeredSecrets())) {
        return {
          refused: `environment variable "${name}" holds one of docops's credentials (the API token, the reconcile secret, a notification URL or key): it is never interpolated into manifests`,
        };
      }
      return { value };
    },
  };
}

export type InterpolationResult = { value: string; changed: boolean } | { errors: string[] };

/** A problem, and whether it only matters when the text is used (an unset variable inside an unused default). */
interface Problem {
  message: string;
  unset: boolean;
}

/** Substitute variables in one string. Errors name the variable (or quote the malformed reference), never a value. */
export function interpolateString(input: string, vars: VarSource): InterpolationResult {
  if (!input.includes('${')) return { value: input, changed: false };
  const problems: Problem[] = [];
  const out = expand(input, vars, problems);
  return problems.length > 0 ? { errors: problems.map((p) => p.message) } : { value: out, changed: true };
}

const UNTERMINATED = (ref: string): string => `unterminated variable reference "${ref}" (write $\${ for a literal \${)`;

/** `text` with its references replaced; problems go to `problems`. */
function expand(text: string, vars: VarSource, problems: Problem[]): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const next = text.indexOf('$', i);
    if (next < 0) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, next);
    i = next;
    if (text.startsWith('$${', i)) {
      out += '${';
      i += 3;
      continue;
    }
    if (!text.startsWith('${', i)) {
      out += '$';
      i++;
      continue;
    }
    const close = matchingBrace(text, i + 2);
    if (close < 0) {
      problems.push({ message: UNTERMINATED(text.slice(i)), unset: false });
      break;
    }
    out += reference(text.slice(i + 2, close), vars, problems);
    i = close + 1;
  }
  return out;
}

/** Index of the `}` closing a reference whose body starts at `from` (nested `${…}` counted, `$${` literal), or -1. */
function matchingBrace(text: string, from: number): number {
  let depth = 1;
  for (let j = from; j < text.length; j++) {
    if (text.startsWith('$${', j)) j += 2;
    else if (text.startsWith('${', j)) {
      depth++;
      j++;
    } else if (text.charCodeAt(j) === 0x7d /* } */ && --depth === 0) return j;
  }
  return -1;
}

/** The value of one reference body (`NAME` or `NAME:-default`). */
function reference(body: string, vars: VarSource, problems: Problem[]): string {
  const sep = body.indexOf(':-');
  const name = sep < 0 ? body : body.slice(0, sep);
  if (!NAME.test(name)) {
    problems.push({
      message: `invalid variable reference "\${${body}}" (names are [A-Za-z_][A-Za-z0-9_]*; write $\${ for a literal \${)`,
      unset: false,
    });
    return '';
  }
  const read = vars.read(name);
  // A default is checked whether or not it is used (a refused or malformed reference in it is an error either
  // way); an unset variable inside it only matters when the default is used.
  const fallback: Problem[] = [];
  const fallbackText = sep < 0 ? undefined : expand(body.slice(sep + 2), vars, fallback);
  if ('refused' in read) {
    problems.push({ message: read.refused, unset: false }, ...fallback.filter((p) => !p.unset));
    return '';
  }
  if (fallbackText === undefined) {
    if (read.value === undefined) problems.push({ message: `environment variable "${name}" is not set`, unset: true });
    return read.value ?? '';
  }
  if (read.value === undefined || read.value === '') {
    problems.push(...fallback);
    return fallbackText;
  }
  problems.push(...fallback.filter((p) => !p.unset));
  return read.value;
}

/**
 * A JSON-like value with every `${` in its string values written as `$${`, so text read from live state (an
 * exported title such as `Cost ${X}`) reads back as itself instead of as a variable. Keys are never interpolated.
 */
export function escapeInterpolation(v: unknown): unknown {
  if (typeof v === 'string') return v.replaceAll('${', () => '$${'); // a function: '$$' in a replacement string means '$'
  if (Array.isArray(v)) return v.map(escapeInterpolation);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, escapeInterpolation(x)]));
  return v;
}
