/** Query-string parameters of list filters, validated like body fields (400 naming the parameter and rule). */
import { badRequest } from './http.js';

export function queryEnum<const T extends string>(
  query: URLSearchParams,
  name: string,
  values: readonly T[],
): T | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  if (!(values as readonly string[]).includes(v))
    throw badRequest(`query.${name}: must be one of ${values.join(', ')} (got "${v}")`);
  return v as T;
}

export function queryBoolean(query: URLSearchParams, name: string): boolean | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  if (v !== 'true' && v !== 'false') throw badRequest(`query.${name}: must be true or false (got "${v}")`);
  return v === 'true';
}

export function queryString(query: URLSearchParams, name: string): string | undefined {
  return query.get(name) ?? undefined;
}
