/**
 * ajv errors → readable, specific messages with the path written as in the manifest
 * (`spec.members[3].role: must be one of admin, read (got "owner")`).
 */
import type { ErrorObject } from 'ajv';
import { describeValue, formatPath, jsonType, pointerToPath, valueAt, type DocPath } from './paths.js';
import { NOT_SHOWN, quotable, type SecretMark } from './secret-fields.js';

export interface SchemaProblem {
  /** Path of the node the message is about, relative to the validated value. */
  path: DocPath;
  /** Where to point: this path's value, or its key when `atKey` (unknown fields, bad field names). */
  at: DocPath;
  atKey: boolean;
  message: string;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Keep the errors worth showing: drop wrapper errors whose details are reported by other errors. */
export function selectErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  let kept = errors.filter((e) => e.keyword !== 'if'); // the failing `then`/`else` errors say it all
  // oneOf/anyOf: show only the errors of the alternative that came closest (fewest errors).
  for (const combo of errors.filter(
    (e) => (e.keyword === 'oneOf' || e.keyword === 'anyOf') && e.params.passingSchemas == null,
  )) {
    const inside = (e: ErrorObject): boolean => e.schemaPath.startsWith(combo.schemaPath + '/');
    const byBranch = new Map<string, ErrorObject[]>();
    for (const e of kept.filter(inside)) {
      const branch = e.schemaPath.slice(combo.schemaPath.length + 1).split('/')[0]!;
      byBranch.set(branch, [...(byBranch.get(branch) ?? []), e]);
    }
    if (byBranch.size === 0) continue;
    const best = [...byBranch.values()].reduce((a, b) => (b.length < a.length ? b : a));
    kept = kept.filter((e) => e !== combo && (!inside(e) || best.includes(e)));
  }
  // propertyNames: the sub-error carries the offending name; the wrapper adds nothing.
  kept = kept.filter(
    (e) =>
      e.keyword !== 'propertyNames' ||
      !kept.some((s) => s !== e && s.propertyName === e.params.propertyName && s.instancePath === e.instancePath),
  );
  return kept;
}

/**
 * One problem per selected ajv error; `value` is the validated value (for "(got …)" and array indices).
 * `markAt` tells the secret-bearing places (secret-fields.ts): their values are never quoted (a URL that reads as
 * one is shown without its credentials).
 */
export function describeError(
  e: ErrorObject,
  value: unknown,
  markAt: (path: DocPath) => SecretMark | undefined = () => undefined,
): SchemaProblem {
  const path = pointerToPath(e.instancePath, value);
  const got = valueAt(value, path);
  // A marked value is quoted only as quotable() allows, whatever it looks like (secret-fields.ts).
  const shown = quotable(markAt(path), got);
  const quoted = (): string => (shown ? describeValue(shown.value) : `a value ${NOT_SHOWN}`);
  const p = e.params as Record<string, unknown>;
  const problem = (message: string, at: DocPath = path, atKey = false): SchemaProblem => ({ path, at, atKey, message });
  if (e.propertyName !== undefined) {
    // The error is about a key: describe it as if the key were the value being checked.
    const inner = describeError({ ...e, instancePath: '', propertyName: undefined }, e.propertyName);
    return problem(`invalid field name "${e.propertyName}": ${inner.message}`, [...path, e.propertyName], true);
  }
  switch (e.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return problem(
        `unknown field "${String(p.additionalProperty ?? p.unevaluatedProperty)}"`,
        [...path, String(p.additionalProperty ?? p.unevaluatedProperty)],
        true,
      );
    case 'uniqueItems': {
      const [a, b] = [Number(p.i), Number(p.j)].sort((x, y) => x - y);
      return { path: [...path, b!], at: [...path, b!], atKey: false, message: `duplicate item (same as item [${a}])` };
    }
  }
  const at: Got = { value: got, shown: shown !== undefined, quoted };
  return problem(
    shapeMessage(e.keyword, p, at) ?? limitMessage(e.keyword, p, at) ?? e.message ?? `fails "${e.keyword}"`,
  );
}

/** The value an error is about: whether it may be quoted, and its quotation (or the words saying it is not shown). */
interface Got {
  value: unknown;
  shown: boolean;
  quoted: () => string;
}

/** The message of an error about the value's shape (a field, its type, its allowed values or forms). */
function shapeMessage(keyword: string, p: Record<string, unknown>, got: Got): string | undefined {
  switch (keyword) {
    case 'required':
      return `missing required field "${String(p.missingProperty)}"`;
    case 'type': {
      const types = Array.isArray(p.type) ? (p.type as string[]).join(' or ') : String(p.type);
      const scalar = got.value !== null && typeof got.value !== 'object';
      return `must be ${types} (got ${jsonType(got.value)}${scalar ? (got.shown ? ` ${got.quoted()}` : `, ${NOT_SHOWN}`) : ''})`;
    }
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')} (got ${got.quoted()})`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)} (got ${got.quoted()})`;
    case 'pattern':
      return `must match the pattern ${String(p.pattern)} (got ${got.quoted()})`;
    case 'format':
      return `must be a valid ${String(p.format)} (got ${got.quoted()})`;
    case 'dependentRequired':
    case 'dependencies':
      return `missing field "${String(p.missingProperty)}" (required when "${String(p.property)}" is set)`;
    case 'oneOf':
      return `must match exactly one of the allowed forms (matches ${Array.isArray(p.passingSchemas) ? p.passingSchemas.length : 'none'})`;
    case 'anyOf':
      return 'must match one of the allowed forms';
    case 'not':
      return 'must not match the forbidden form';
  }
  return undefined;
}

/** The message of an error about a size or a bound (of a text, a list, an object or a number). */
function limitMessage(keyword: string, p: Record<string, unknown>, got: Got): string | undefined {
  const { value } = got;
  const chars = typeof value === 'string' ? [...value].length : '?';
  const items = Array.isArray(value) ? value.length : '?';
  switch (keyword) {
    case 'maxLength':
      return `must be at most ${plural(Number(p.limit), 'character')} (got ${chars})`;
    case 'minLength':
      return `must be at least ${plural(Number(p.limit), 'character')} (got ${chars})`;
    case 'maxItems':
      return `must have at most ${plural(Number(p.limit), 'item')} (got ${items})`;
    case 'minItems':
      return `must have at least ${plural(Number(p.limit), 'item')} (got ${items})`;
    case 'maxProperties':
      return `must have at most ${plural(Number(p.limit), 'field')}`;
    case 'minProperties':
      return `must have at least ${plural(Number(p.limit), 'field')}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(p.comparison)} ${String(p.limit)} (got ${got.quoted()})`;
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)} (got ${got.quoted()})`;
  }
  return undefined;
}

/** `prefix.path: message`, or just the message at the root with an empty prefix. */
export function withPath(prefix: string, path: DocPath, message: string): string {
  const where = formatPath(prefix, path);
  return where === '' ? message : `${where}: ${message}`;
}
