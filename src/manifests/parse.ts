/**
 * One YAML file → plain documents with positions, read by the `yaml` package. The text is checked
 * first (encoding, size, emptiness). Every problem becomes an issue with a position; a bad document is skipped, the
 * other documents of the file are still returned.
 */
import { Composer, isScalar, LineCounter, Parser, visit, type Document, type YAMLError } from 'yaml';
import type { SourcePos, ValidationIssue } from '../model/errors.js';
import { checkDecodedText, decodeManifestBytes, DEFAULT_MAX_FILE_BYTES } from './decode.js';
import { allowedVariables, type VarSource } from './interpolate.js';
import { interpolateDocument } from './interpolate-yaml.js';
import { positionTree, treeLocator, type Locator } from './position-tree.js';
import { unsupportedNodes } from './yaml-values.js';
import { explainYamlError } from './yaml-syntax.js';

export interface ParsedYamlDoc extends Locator {
  file: string;
  /** 0-based index of the document inside its file (empty documents count). */
  index: number;
  /** The document as plain data, after `${VAR}` interpolation (none for data: ParseOptions.interpolate). */
  value: unknown;
}

export interface ParseOptions {
  /** What `${VAR}` may read; default nothing (every reference is an error saying how to allow it). */
  vars?: VarSource;
  /**
   * false: the text is data (a brand file a manifest names), not a manifest: `${…}` and `$${` are text like any
   * other, and no variable is read or refused. Default true.
   */
  interpolate?: boolean;
  /** Files larger than this are rejected unread; default 2 MiB. */
  maxFileBytes?: number;
  /** yaml's guard against alias bombs; default 100. */
  maxAliasCount?: number;
}

export interface ParseResult {
  documents: ParsedYamlDoc[];
  issues: ValidationIssue[];
}

const NOTHING = allowedVariables({}, []);

/** Parse one file's contents (bytes are checked for NULs and invalid UTF-8 first). */
export function parseYamlFile(file: string, content: string | Uint8Array, opts: ParseOptions = {}): ParseResult {
  const input = yamlInput(file, content, opts);
  if ('result' in input) return input.result;
  return withNoDocumentsIssue(file, parseWithYaml(file, input.text, input.vars, opts.maxAliasCount ?? 100));
}

/**
 * The text to parse (bytes checked for NULs and invalid UTF-8, BOM removed) and its variables (undefined: not
 * interpolated), or the file's only issue.
 */
function yamlInput(
  file: string,
  content: string | Uint8Array,
  opts: ParseOptions,
): { text: string; vars: VarSource | undefined } | { result: ParseResult } {
  const maxBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  let text: string;
  if (typeof content === 'string') {
    const problem = checkDecodedText(content, maxBytes);
    if (problem) return { result: { documents: [], issues: [{ file, ...problem }] } };
    text = content.startsWith('\ufeff') ? content.slice(1) : content;
  } else {
    const decoded = decodeManifestBytes(content, maxBytes);
    if ('error' in decoded) return { result: { documents: [], issues: [{ file, ...decoded.error }] } };
    text = decoded.text;
  }
  if (text.trim() === '')
    return { result: { documents: [], issues: [{ file, line: 1, column: 1, message: 'file is empty' }] } };
  return { text, vars: opts.interpolate === false ? undefined : (opts.vars ?? NOTHING) };
}

/** A file without documents and without issues gets one issue saying so. */
function withNoDocumentsIssue(file: string, { documents, issues }: ParseResult): ParseResult {
  if (documents.length === 0 && issues.length === 0) {
    issues.push({
      file,
      line: 1,
      column: 1,
      message: 'file contains no YAML documents (only comments or empty documents)',
    });
  }
  return { documents, issues };
}

/** Every document of `text` (BOM removed, checked by yamlInput); `vars` undefined: data, not interpolated. */
function parseWithYaml(file: string, text: string, vars: VarSource | undefined, maxAliasCount: number): ParseResult {
  const lineCounter = new LineCounter();
  // parseAllDocuments, one document at a time: each is read and let go before the next is composed (a file of
  // 1,000 Team documents held 1,000 Documents at once). logLevel 'error': the library must never print
  // (process.emitWarning); what it would warn about is reported as an issue here (doc.warnings, unsupportedNodes).
  const composer = new Composer({ uniqueKeys: true, merge: true, logLevel: 'error' });
  const docs = composer.compose(new Parser(lineCounter.addNewLine).parse(text));
  const documents: ParsedYamlDoc[] = [];
  const issues: ValidationIssue[] = [];
  const sourceAt = (offset: number): SourcePos => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  const at = (offset: number, message: string): ValidationIssue => ({ ...sourceAt(offset), message });

  /** One of the parser's errors or warnings, in the words of what the user did where it can tell (yaml-syntax.ts). */
  const yamlIssue = (doc: Document, e: YAMLError): ValidationIssue => {
    if (e.code === 'DUPLICATE_KEY') {
      const dup = duplicateKeyMessage(doc, e.pos[0], lineCounter);
      if (dup) return at(e.pos[0], dup);
    }
    if (isStackOverflow(e.message)) return at(e.pos[0], TOO_DEEP);
    if (e.name === 'YAMLWarning') return at(e.pos[0], `YAML warning (treated as an error): ${e.message}`);
    const explained = explainYamlError(e, doc, { text, lines: lineCounter });
    return explained ? at(explained.offset, explained.message) : at(e.pos[0], `YAML syntax error: ${e.message}`);
  };

  const readOne = (doc: Document, index: number): void => {
    // Warnings (unknown tags like `!Ref`, ambiguous anchors) would silently change values: errors here.
    const yamlProblems = [...doc.errors, ...doc.warnings];
    if (yamlProblems.length > 0) {
      // yaml often reports follow-on errors at the same spot, or on the line of the mistake it explained first:
      // the first one is the useful one.
      const offsets = new Set<number>();
      const lines = new Set<number>();
      for (const e of yamlProblems) {
        if (offsets.has(e.pos[0])) continue;
        offsets.add(e.pos[0]);
        const issue = yamlIssue(doc, e);
        if (lines.has(issue.line)) continue;
        lines.add(issue.line);
        issues.push(issue);
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
    const problems = vars === undefined ? [] : interpolateDocument(doc, vars);
    for (const p of problems) issues.push(at(p.node.range?.[0] ?? 0, p.message));
    if (problems.length > 0) return;
    try {
      const value: unknown = doc.toJS({ maxAliasCount });
      const { pos, keyPos } = treeLocator(file, positionTree(doc), lineCounter);
      documents.push({ file, index, value, pos, keyPos });
    } catch (e) {
      issues.push(aliasIssue(doc, e, sourceAt(c.range?.[0] ?? 0), at));
    }
  };
  let index = 0;
  for (const doc of docs) readOne(doc, index++);
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
function aliasIssue(
  doc: Document,
  e: unknown,
  docPos: SourcePos,
  at: (offset: number, message: string) => ValidationIssue,
): ValidationIssue {
  const message = e instanceof Error ? e.message : String(e);
  if (isStackOverflow(message)) return { ...docPos, message: TOO_DEEP };
  if (/alias count/i.test(message)) {
    return { ...docPos, message: 'document expands aliases too many times (possible alias bomb)' };
  }
  let issue: ValidationIssue | undefined;
  visit(doc, {
    Alias(_key, node) {
      if (node.resolve(doc) !== undefined) return undefined;
      issue = at(
        node.range?.[0] ?? 0,
        `unknown alias *${node.source} (the anchor &${node.source} must come before it)`,
      );
      return visit.BREAK;
    },
  });
  return issue ?? { ...docPos, message: `cannot read document: ${message}` };
}
