/**
 * Loads a kind's JSON Schema from schemas/<name>.schema.json at the package root. The path is relative to
 * this module, so it works from src/kinds (vitest) and from dist/kinds (compiled) alike.
 */
import { readFileSync } from 'node:fs';

export function loadSchema(name: string): object {
  const url = new URL(`../../schemas/${name}.schema.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as object;
}
