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
    case 'required':
      return problem(`missing required field "${String(p.missingProperty)}"`);
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return problem(
        `unknown field "${String(p.additionalProperty ?? p.unevaluatedProperty)}"`,
        [...path, String(p.additionalProperty ?? p.unevaluatedProperty)],
        true,
      );
    case 'type': {
      const types = Array.isArray(p.type) ? (p.type as string[]).join(' or ') : String(p.type);
      const scalar = got !== null && typeof got !== 'object';
      return problem(
        `must be ${types} (got ${jsonType(got)}${scalar ? (shown ? ` ${quoted()}` : `, ${NOT_SHOWN}`) : ''})`,
      );
    }
    case 'enum':
      return problem(
        `must be one of ${(p.allowedValues as unknown[]).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')} (got ${quoted()})`,
      );
    case 'const':
      return problem(`must be ${JSON.stringify(p.allowedValue)} (got ${quoted()})`);
    case 'maxLength':
      return problem(
        `must be at most ${plural(Number(p.limit), 'character')} (got ${typeof got === 'string' ? [...got].length : '?'})`,
      );
    case 'minLength':
      return problem(
        `must be at least ${plural(Number(p.limit), 'character')} (got ${typeof got === 'string' ? [...got].length : '?'})`,
      );
    case 'pattern':
      return problem(`must match the pattern ${String(p.pattern)} (got ${quoted()})`);
    case 'format':
      return problem(`must be a valid ${String(p.format)} (got ${quoted()})`);
    case 'maxItems':
      return problem(
        `must have at most ${plural(Number(p.limit), 'item')} (got ${Array.isArray(got) ? got.length : '?'})`,
      );
    case 'minItems':
      return problem(
        `must have at least ${plural(Number(p.limit), 'item')} (got ${Array.isArray(got) ? got.length : '?'})`,
      );
    case 'maxProperties':
      return problem(`must have at most ${plural(Number(p.limit), 'field')}`);
    case 'minProperties':
      return problem(`must have at least ${plural(Number(p.limit), 'field')}`);
    case 'uniqueItems': {
      const [a, b] = [Number(p.i), Number(p.j)].sort((x, y) => x - y);
      return { path: [...path, b!], at: [...path, b!], atKey: false, message: `duplicate item (same as item [${a}])` };
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return problem(`must be ${String(p.comparison)} ${String(p.limit)} (got ${quoted()})`);
    case 'multipleOf':
      return problem(`must be a multiple of ${String(p.multipleOf)} (got ${quoted()})`);
    case 'dependentRequired':
    case 'dependencies':
      return problem(`missing field "${String(p.missingProperty)}" (required when "${String(p.property)}" is set)`);
    case 'oneOf':
      return problem(
        `must match exactly one of the allowed forms (matches ${Array.isArray(p.passingSchemas) ? p.passingSchemas.length : 'none'})`,
      );
    case 'anyOf':
      return problem('must match one of the allowed forms');
    case 'not':
      return problem('must not match the forbidden form');
    default:
      return problem(e.message ?? `fails "${e.keyword}"`);
  }
}

/** `prefix.path: message`, or just the message at the root with an empty prefix. */
export function withPath(prefix: string, path: DocPath, message: string): string {
  const where = formatPath(prefix, path);
  return where === '' ? message : `${where}: ${message}`;
}
