/**
 * Small field validators for request bodies. Each returns the value (typed) or throws a 400 whose message
 * names the field path and the rule, e.g. `body.title: must be at most 50 characters (got 51)`.
 * Objects reject unknown fields on purpose: the sandbox is strict so docops bugs surface early.
 */
import { badRequest } from './http.js';

export type Validator<T> = (value: unknown, path: string) => T;

const describe = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

export interface StringRules {
  min?: number;
  max?: number;
  pattern?: RegExp;
  format?: 'uri' | 'email';
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function string(rules: StringRules = {}): Validator<string> {
  return (v, path) => {
    if (typeof v !== 'string') throw badRequest(`${path}: must be a string (got ${describe(v)})`);
    const length = [...v].length; // JSON Schema counts code points, not UTF-16 units
    if (rules.min !== undefined && length < rules.min)
      throw badRequest(`${path}: must be at least ${rules.min} characters (got ${length})`);
    if (rules.max !== undefined && length > rules.max)
      throw badRequest(`${path}: must be at most ${rules.max} characters (got ${length})`);
    if (rules.pattern && !rules.pattern.test(v))
      throw badRequest(`${path}: must match the pattern ${rules.pattern.source}`);
    if (rules.format === 'email' && !EMAIL.test(v)) throw badRequest(`${path}: must be an e-mail address (got "${v}")`);
    if (rules.format === 'uri' && !isUri(v)) throw badRequest(`${path}: must be an absolute URI (got "${v}")`);
    return v;
  };
}

function isUri(v: string): boolean {
  try {
    return new URL(v).protocol.length > 1;
  } catch {
    return false;
  }
}

export function oneOf<const T extends string>(values: readonly T[]): Validator<T> {
  return (v, path) => {
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v))
      throw badRequest(`${path}: must be one of ${values.join(', ')} (got ${JSON.stringify(v)})`);
    return v as T;
  };
}

export function literal<const T extends string>(value: T): Validator<T> {
  return oneOf([value]);
}

export const boolean = (): Validator<boolean> => (v, path) => {
  if (typeof v !== 'boolean') throw badRequest(`${path}: must be a boolean (got ${describe(v)})`);
  return v;
};

export function nullable<T>(inner: Validator<T>): Validator<T | null> {
  return (v, path) => (v === null ? null : inner(v, path));
}

export function array<T>(item: Validator<T>, rules: { max?: number } = {}): Validator<T[]> {
  return (v, path) => {
    if (!Array.isArray(v)) throw badRequest(`${path}: must be an array (got ${describe(v)})`);
    if (rules.max !== undefined && v.length > rules.max)
      throw badRequest(`${path}: must have at most ${rules.max} items (got ${v.length})`);
    return v.map((x, i) => item(x, `${path}[${i}]`));
  };
}

/** A JSON object used as a map: any keys, each value checked. */
export function record<T>(value: Validator<T>): Validator<Record<string, T>> {
  return (v, path) => {
    if (!isPlainObject(v)) throw badRequest(`${path}: must be an object (got ${describe(v)})`);
    const out: Record<string, T> = {};
    for (const [k, x] of Object.entries(v)) out[k] = value(x, `${path}.${k}`);
    return out;
  };
}

type Shape = Record<string, Validator<unknown>>;
type Out<S extends Shape, R extends keyof S> = { [K in R]: ReturnType<S[K]> } & {
  [K in Exclude<keyof S, R>]?: ReturnType<S[K]>;
};

/** A JSON object with known fields; unknown fields and missing required fields ⇒ 400. */
export function object<S extends Shape, R extends keyof S = never>(
  shape: S,
  required: readonly R[] = [],
): Validator<Out<S, R>> {
  return (v, path) => {
    if (!isPlainObject(v)) throw badRequest(`${path}: must be an object (got ${describe(v)})`);
    for (const key of Object.keys(v)) {
      if (!(key in shape))
        throw badRequest(`${path}.${key}: unknown field (allowed: ${Object.keys(shape).join(', ') || 'none'})`);
    }
    for (const key of required) {
      if (!(key in v)) throw badRequest(`${path}.${String(key)}: is required`);
    }
    const out: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(shape)) {
      if (key in v) out[key] = check(v[key], `${path}.${key}`);
    }
    return out as Out<S, R>;
  };
}

/** Pick the validator by the value's JSON type (e.g. an e-mail string or an `{email, role}` object). */
export function byType<T>(variants: { string?: Validator<T>; object?: Validator<T> }): Validator<T> {
  return (v, path) => {
    if (typeof v === 'string' && variants.string) return variants.string(v, path);
    if (isPlainObject(v) && variants.object) return variants.object(v, path);
    throw badRequest(`${path}: must be ${Object.keys(variants).join(' or ')} (got ${describe(v)})`);
  };
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
