/** schemas/plan.schema.json as a check: the problems of one printed plan (JSON text), none when it is valid. */
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../src/manifests/schema.js';

export const PLAN_SCHEMA = JSON.parse(
  readFileSync(new URL('../schemas/plan.schema.json', import.meta.url), 'utf8'),
) as object;

let validate: ValidateFunction | undefined;

export function planSchemaProblems(text: string): string[] {
  validate ??= createAjv(PLAN_SCHEMA).compile(PLAN_SCHEMA);
  const doc = JSON.parse(text) as unknown;
  if (validate(doc)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `${e.instancePath || '/'}: ${e.message ?? 'invalid'}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
  );
}
