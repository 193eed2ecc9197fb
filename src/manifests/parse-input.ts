/**
 * What reading a YAML file (parse.ts, parse-lazy.ts) starts and ends with, without a YAML parser: the checks of
 * the text (encoding, size, emptiness) and the result types.
 */
import type { ValidationIssue } from '../core/errors.js';
import { checkDecodedText, decodeManifestBytes, DEFAULT_MAX_FILE_BYTES } from './decode.js';
import { allowedVariables, type VarSource } from './interpolate.js';
import type { Locator } from './locate.js';

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

/**
 * The text to parse (bytes checked for NULs and invalid UTF-8, BOM removed) and its variables (undefined: not
 * interpolated), or the file's only issue.
 */
export function yamlInput(file: string, content: string | Uint8Array, opts: ParseOptions): { text: string; vars: VarSource | undefined } | { result: ParseResult } {
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
  if (text.trim() === '') return { result: { documents: [], issues: [{ file, line: 1, column: 1, message: 'file is empty' }] } };
  return { text, vars: opts.interpolate === false ? undefined : (opts.vars ?? NOTHING) };
}

/** A file without documents and without issues gets one issue saying so. */
export function withNoDocumentsIssue(file: string, { documents, issues }: ParseResult): ParseResult {
  if (documents.length === 0 && issues.length === 0) {
    issues.push({ file, line: 1, column: 1, message: 'file contains no YAML documents (only comments or empty documents)' });
  }
  return { documents, issues };
}
