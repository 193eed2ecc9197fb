/**
 * Loads a kind's JSON Schema from schemas/<name>.schema.json at the package root. The path is relative to
 * this module, so it works from src/kinds (vitest) and from dist/kinds (compiled) alike.
 */
import { readFileSync } from 'node:fs';

export function loadSchema(name: string): object {
  const url = new URL(`../../schemas/${name}.schema.json`, import.meta.url);
  const schema: unknown = JSON.parse(readFileSync(url, 'utf8'));
  if (typeof schema !== 'object' || schema === null) throw new Error(`schemas/${name}.schema.json is not a JSON object`);
  return schema;
}
