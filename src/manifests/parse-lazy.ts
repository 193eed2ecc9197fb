/**
 * parse.ts for the manifest loader: the same results, but the `yaml` package (~230 KB, parse-yaml.ts) is
 * loaded only when the fast path declines a file — never for manifests of the common shapes, e.g. every file
 * of config.example (docs/dev/benchmarks.md, "Start-up").
 */
import { fastParseYaml } from './fast-parse.js';
import { withNoDocumentsIssue, yamlInput, type ParseOptions, type ParseResult } from './parse-input.js';

export async function parseYamlFileLazily(file: string, content: string | Uint8Array, opts: ParseOptions = {}): Promise<ParseResult> {
  const input = yamlInput(file, content, opts);
  if ('result' in input) return input.result;
  const { text, vars } = input;
  // Without a re-typer the fast path also declines a `${VAR}` in a plain scalar: typing it needs yaml.
  const fast = fastParseYaml(file, text, vars);
  if (fast) return withNoDocumentsIssue(file, fast);
  const { parseWithYaml } = await import('./parse-yaml.js');
  return withNoDocumentsIssue(file, parseWithYaml(file, text, vars, opts.maxAliasCount ?? 100));
}
