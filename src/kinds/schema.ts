/**
 * Loads a kind's JSON Schema from schemas/<name>.schema.json at the package root. The path is relative to
 * this module, so it works from src/kinds (vitest) and from dist/kinds (compiled) alike. A kind's schema is loaded
 * by its generated module (src/kinds/generated/<name>.ts), which types it with the spec type generated from it.
 */
import { readFileSync } from 'node:fs';
import type { SpecSchema } from '../model/kind.js';
import { isRecord } from '../model/json.js';

export function loadSchema<D = unknown>(name: string): SpecSchema<D> {
  const url = new URL(`../../schemas/${name}.schema.json`, import.meta.url);
  const schema: unknown = JSON.parse(readFileSync(url, 'utf8'));
  if (!isRecord(schema)) throw new Error(`schemas/${name}.schema.json is not a JSON object`);
  return schema;
}
