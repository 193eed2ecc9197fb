/**
 * The `yaml` package path of reading a manifest file (parse.ts): handles every input, and owns all YAML error
 * messages. Loaded only when the fast path (fast-parse.ts) declines a file.
 */
import { isScalar, LineCounter, parseAllDocuments, visit, type Document } from 'yaml';
import type { SourcePos, ValidationIssue } from '../core/errors.js';
import type { VarSource } from './interpolate.js';
import { interpolateDocument } from './interpolate-yaml.js';
import { createLocator } from './locate.js';
import type { ParsedYamlDoc, ParseResult } from './parse-input.js';
import { unsupportedNodes } from './yaml-values.js';

export { resolvePlain } from './interpolate-yaml.js';

/** Every document of `text` (BOM removed, checked by parse-input.ts); `vars` undefined: data, not interpolated. */
export function parseWithYaml(file: string, text: string, vars: VarSource | undefined, maxAliasCount: number): ParseResult {
  const lineCounter = new LineCounter();
  // logLevel 'error': the library must never print (process.emitWarning); what it would warn about is
  // reported as an issue here (doc.warnings, unsupportedNodes).
  const docs = parseAllDocuments(text, { lineCounter, uniqueKeys: true, prettyErrors: false, merge: true, logLevel: 'error' });
  const documents: ParsedYamlDoc[] = [];
  const issues: ValidationIssue[] = [];
  const at = (offset: number, message: string): ValidationIssue => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col, message };
  };

  docs.forEach((doc, index) => {
    // Warnings (unknown tags like `!Ref`, ambiguous anchors) would silently change values: errors here.
    const yamlProblems = [...doc.errors, ...doc.warnings];
    if (yamlProblems.length > 0) {
      // yaml often reports follow-on errors at the same spot; the first one is the useful one.
      const offsets = new Set<number>();
      for (const e of yamlProblems) {
        if (offsets.has(e.pos[0])) continue;
        offsets.add(e.pos[0]);
        const dup = e.code === 'DUPLICATE_KEY' ? duplicateKeyMessage(doc, e.pos[0], lineCounter) : undefined;
        const kind = e.name === 'YAMLWarning' ? 'YAML warning (treated as an error)' : 'YAML syntax error';
        issues.push(at(e.pos[0], dup ?? (isStackOverflow(e.message) ? TOO_DEEP : `${kind}: ${e.message}`)));
      }
      return;
    }
    const c = doc.contents;
    if (c === null || (isScalar(c) && c.value === null && c.source === '')) return; // e.g. a trailing `---`
    let unsupported: ReturnType<typeof unsupportedNodes>;
    try {
      unsupported = unsupportedNodes(doc);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      unsupported = [{ offset: c?.range?.[0] ?? 0, message: TOO_DEEP }];
    }
    for (const p of unsupported) issues.push(at(p.offset, p.message));
    if (unsupported.length > 0) return;
    const locator = createLocator(file, doc, lineCounter);
    const problems = vars === undefined ? [] : interpolateDocument(doc, vars);
    for (const p of problems) issues.push(at(p.node.range?.[0] ?? 0, p.message));
    if (problems.length > 0) return;
    try {
      const value: unknown = doc.toJS({ maxAliasCount });
      documents.push({ file, index, value, pos: locator.pos, keyPos: locator.keyPos });
    } catch (e) {
      issues.push(aliasIssue(doc, e, locator.pos([]), at));
    }
  });
  return { documents, issues };
}

/** Names the repeated key and where it was first set (yaml only gives the offset of the repeat). */
function duplicateKeyMessage(doc: Document, offset: number, lineCounter: LineCounter): string | undefined {
  let message: string | undefined;
  visit(doc, {
    Map(_key, map) {
      const repeat = map.items.find((p) => isScalar(p.key) && p.key.range?.[0] === offset);
      if (!repeat || !isScalar(repeat.key)) return undefined;
      const name = repeat.key.value;
      const first = map.items.find((p) => isScalar(p.key) && p.key.value === name);
      const line = first && isScalar(first.key) ? lineCounter.linePos(first.key.range?.[0] ?? 0).line : undefined;
      message = `duplicate key ${JSON.stringify(String(name))}${line === undefined ? '' : ` (first set on line ${line})`}`;
      return visit.BREAK;
    },
  });
  return message;
}

/** The parser recursing out of stack (e.g. 20,000 nested brackets) is reported as what it is. */
const TOO_DEEP = 'nesting too deep: the YAML parser ran out of stack here (manifests need a few levels, not thousands)';
const isStackOverflow = (message: string): boolean => /maximum call stack size exceeded/i.test(message);

/** toJS failures are alias problems: an alias without anchor, or too many expansions (alias bomb). */
function aliasIssue(doc: Document, e: unknown, docPos: SourcePos, at: (offset: number, message: string) => ValidationIssue): ValidationIssue {
  const message = e instanceof Error ? e.message : String(e);
  if (isStackOverflow(message)) return { ...docPos, message: TOO_DEEP };
  if (/alias count/i.test(message)) {
    return { ...docPos, message: 'document expands aliases too many times (possible alias bomb)' };
  }
  let issue: ValidationIssue | undefined;
  visit(doc, {
    Alias(_key, node) {
      if (node.resolve(doc) !== undefined) return undefined;
      issue = at(node.range?.[0] ?? 0, `unknown alias *${node.source} (the anchor &${node.source} must come before it)`);
      return visit.BREAK;
    },
  });
  return issue ?? { ...docPos, message: `cannot read document: ${message}` };
}
