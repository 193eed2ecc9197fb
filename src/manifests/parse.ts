/**
 * One YAML file → plain documents with positions. Every problem becomes an issue with a position; a bad
 * document is skipped, the other documents of the file are still returned. Files are read by the js-yaml fast
 * path (fast-parse.ts) where its result is provably the `yaml` package's, and by the `yaml` path
 * (parse-yaml.ts) otherwise. This module is synchronous and loads both; the manifest loader uses parse-lazy.ts,
 * which loads `yaml` only for a file the fast path declines.
 */
import { fastParseYaml } from './fast-parse.js';
import { withNoDocumentsIssue, yamlInput, type ParseOptions, type ParseResult } from './parse-input.js';
import { parseWithYaml, resolvePlain } from './parse-yaml.js';

export type { ParsedYamlDoc, ParseOptions, ParseResult } from './parse-input.js';

/** Parse one file's contents (bytes are checked for NULs and invalid UTF-8 first). */
export function parseYamlFile(file: string, content: string | Uint8Array, opts: ParseOptions = {}): ParseResult {
  return readYamlFile(file, content, opts, 'auto') as ParseResult;
}

/**
 * Test seam. `fast: false` is the `yaml` path alone; `fast: true` is the js-yaml fast path alone and gives
 * undefined where it declines (parseYamlFile then uses the `yaml` path). Both give identical results wherever
 * the fast path answers.
 */
export function parseYamlFileWith(file: string, content: string | Uint8Array, opts: ParseOptions, mode: { fast: false }): ParseResult;
export function parseYamlFileWith(file: string, content: string | Uint8Array, opts: ParseOptions, mode: { fast: true }): ParseResult | undefined;
export function parseYamlFileWith(file: string, content: string | Uint8Array, opts: ParseOptions, mode: { fast: boolean }): ParseResult | undefined {
  return readYamlFile(file, content, opts, mode.fast ? 'fast' : 'yaml');
}

function readYamlFile(file: string, content: string | Uint8Array, opts: ParseOptions, path: 'auto' | 'fast' | 'yaml'): ParseResult | undefined {
  const input = yamlInput(file, content, opts);
  if ('result' in input) return input.result;
  const { text, vars } = input;
  const result = path === 'yaml' ? undefined : fastParseYaml(file, text, vars, resolvePlain);
  if (result === undefined && path === 'fast') return undefined;
  return withNoDocumentsIssue(file, result ?? parseWithYaml(file, text, vars, opts.maxAliasCount ?? 100));
}
