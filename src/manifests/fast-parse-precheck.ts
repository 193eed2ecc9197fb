/**
 * Text-level reasons for fast-parse.ts to leave a file to the `yaml` path without reading it. Conservative:
 * a false positive only costs speed. (Anchors, aliases, tags, flow maps and block scalars are caught more
 * precisely at node starts by the reader itself.)
 */
const NEEDS_YAML_PATH = new RegExp(
  [
    // Tabs (indentation and separation rules differ subtly), a stray BOM, and line breaks other than
    // `\n`/`\r\n` (js-yaml breaks lines at a lone `\r`, yaml does not; yaml's LineCounter counts only `\n`).
    String.raw`[\t\uFEFF\x85\u2028\u2029]|\r(?!\n)`,
    // Directives (`%YAML 1.1` changes the schema), document end markers, and `---` with content after it.
    String.raw`^(?:%|\.\.\.|---(?! *\r?$| +#.*$))`,
    // Explicit keys `? key`.
    String.raw`(?:^|[ \-])\?(?:[ \r\n]|$)`,
  ].join('|'),
  'm',
);

export function declinesTextually(text: string): boolean {
  return NEEDS_YAML_PATH.test(text);
}
