/**
 * Field validators beyond validate.ts, for the larger bodies of the official spec (site customization):
 * integers, arrays with an item-count range, maps keyed by an enum, and objects picked by a tag field.
 * Same contract as validate.ts: return the value or throw a 400 naming the field path and the rule.
 */
import { badRequest } from './http.js';
import { isPlainObject, type Validator } from './validate.js';

const describe = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

export function integer(rules: { min?: number; max?: number } = {}): Validator<number> {
  return (v, path) => {
    if (typeof v !== 'number' || !Number.isInteger(v))
      throw badRequest(`${path}: must be an integer (got ${JSON.stringify(v) ?? describe(v)})`);
    if (rules.min !== undefined && v < rules.min) throw badRequest(`${path}: must be at least ${rules.min} (got ${v})`);
    if (rules.max !== undefined && v > rules.max) throw badRequest(`${path}: must be at most ${rules.max} (got ${v})`);
    return v;
  };
}

/** An array whose length lies in [min, max]. */
export function list<T>(item: Validator<T>, rules: { min?: number; max?: number } = {}): Validator<T[]> {
  return (v, path) => {
    if (!Array.isArray(v)) throw badRequest(`${path}: must be an array (got ${describe(v)})`);
    if (rules.min !== undefined && v.length < rules.min)
      throw badRequest(`${path}: must have at least ${rules.min} item${rules.min === 1 ? '' : 's'} (got ${v.length})`);
    if (rules.max !== undefined && v.length > rules.max)
      throw badRequest(`${path}: must have at most ${rules.max} items (got ${v.length})`);
    return v.map((x, i) => item(x, `${path}[${i}]`));
  };
}

/** A JSON object used as a map whose keys must be among `keys` (JSON Schema `propertyNames` with an enum). */
export function keyedBy<T>(keys: readonly string[], value: Validator<T>): Validator<Record<string, T>> {
  return (v, path) => {
    if (!isPlainObject(v)) throw badRequest(`${path}: must be an object (got ${describe(v)})`);
    const out: Record<string, T> = {};
    for (const [k, x] of Object.entries(v)) {
      if (!keys.includes(k)) throw badRequest(`${path}.${k}: not an allowed key (one of ${keys.join(', ')})`);
      out[k] = value(x, `${path}.${k}`);
    }
    return out;
  };
}

/** An object whose shape is chosen by the string in `tag` (e.g. a ContentRef by its `kind`). */
export function tagged<T>(tag: string, variants: Record<string, Validator<T>>): Validator<T> {
  return (v, path) => {
    if (!isPlainObject(v)) throw badRequest(`${path}: must be an object (got ${describe(v)})`);
    const name = v[tag];
    const variant = typeof name === 'string' && Object.hasOwn(variants, name) ? variants[name] : undefined;
    if (!variant)
      throw badRequest(
        `${path}.${tag}: must be one of ${Object.keys(variants).join(', ')} (got ${JSON.stringify(name) ?? 'nothing'})`,
      );
    return variant(v, path);
  };
}
