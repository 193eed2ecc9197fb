/**
 * Where a character of a YAML string value is written in its file: the expression of a rule is a YAML scalar, and a
 * CEL error points at an offset inside the value. Plain and quoted one-line scalars and literal blocks (`|`) map
 * exactly; anything the value does not match as written (escapes, folding, `${VAR}`) maps to where the scalar
 * starts, which is still the right line to look at.
 */
import type { SourcePos } from '../model/errors.js';

export function positionInScalar(text: string, start: SourcePos, value: string, offset: number): SourcePos {
  const lines = text.split('\n');
  const first = (lines[start.line - 1] ?? '').replace(/\r$/, '');
  const at = start.column - 1;
  const head = first[at];
  const fallback =
    head === '|' || head === '>'
      ? { ...start, line: start.line + 1, column: indentOf(lines[start.line] ?? '') + 1 }
      : start;
  const k = Math.max(0, Math.min(offset, value.length));
  if (head === '|') return literalBlock(lines, start, value, k) ?? fallback;
  if (head === '>' || value.includes('\n')) return fallback;
  const quoted = head === '"' || head === "'";
  const raw = first.slice(quoted ? at + 1 : at);
  if (!raw.startsWith(value)) return fallback;
  return { ...start, column: start.column + (quoted ? 1 : 0) + k };
}

function literalBlock(lines: readonly string[], start: SourcePos, value: string, k: number): SourcePos | undefined {
  const before = value.slice(0, k);
  const lineInValue = before.split('\n').length - 1;
  const col = k - (before.lastIndexOf('\n') + 1);
  const firstContent = lines.slice(start.line).find((l) => l.trim() !== '');
  if (firstContent === undefined) return undefined;
  const indent = indentOf(firstContent);
  const line = start.line + 1 + lineInValue;
  const raw = (lines[line - 1] ?? '').replace(/\r$/, '');
  const wanted = value.split('\n')[lineInValue] ?? '';
  if (raw.slice(indent) !== wanted && !(wanted === '' && raw.trim() === '')) return undefined;
  return { file: start.file, line, column: indent + col + 1 };
}

const indentOf = (line: string): number => line.length - line.trimStart().length;
