/**
 * The `yaml` parser's errors in the words of what the user did — an indentation that lines up with nothing, a tab,
 * a missing space after a colon, an unclosed quote or bracket, a list item at the wrong depth — at the line of the
 * mistake, which is often not where the parser noticed it (an over-indented key is reported on the line above,
 * an unclosed quote at the end of the file). The parser's own text is kept as detail: `… (YAML: <its words>)`.
 * An error this does not recognise keeps the parser's words and place (`YAML syntax error: …`).
 */
import { isMap, isSeq, visit, type Document, type LineCounter, type YAMLError } from 'yaml';

export interface SyntaxProblem {
  /** Offset in the text of the mistake. */
  offset: number;
  message: string;
}

/** The file's text and its lines, for reading around an error. */
export interface YamlSource {
  text: string;
  lines: LineCounter;
}

interface Line {
  /** 1-based. */
  number: number;
  start: number;
  text: string;
}

const BLOCK_SCALAR = /[:-]\s+[|>][0-9+-]*\s*(#.*)?$/;

function lineAt(src: YamlSource, offset: number): Line {
  const number = src.lines.linePos(Math.min(offset, src.text.length)).line;
  return lineNumbered(src, number)!;
}

function lineNumbered(src: YamlSource, number: number): Line | undefined {
  const start = src.lines.lineStarts[number - 1];
  if (start === undefined) return undefined;
  const end = src.text.indexOf('\n', start);
  const text = src.text.slice(start, end < 0 ? undefined : end).replace(/\r$/, '');
  return { number, start, text };
}

const isContent = (l: Line): boolean => l.text.trim() !== '' && !l.text.trim().startsWith('#');
const indentOf = (text: string): number => text.length - text.trimStart().length;
/** Where a line's key starts: after its indentation and any `- ` of list items. */
const keyColumnOf = (text: string): number => text.length - text.replace(/^(\s*-(?=\s))*\s*/, '').length;
const isItem = (text: string): boolean => /^\s*-(\s|$)/.test(text);
/** The key a line writes (its first word when it has no `key:`), for messages. */
function keyOf(text: string): string {
  const rest = text.slice(keyColumnOf(text));
  const key = /^("[^"]*"|'[^']*'|[^:#]*?)\s*:(\s|$)/.exec(rest)?.[1] ?? rest.split(/\s/)[0] ?? '';
  return key.replace(/^["']|["']$/g, '');
}
const spaces = (n: number): string => `${n} space${n === 1 ? '' : 's'}`;
/** A line named by its key when it writes a plain one, else by its number. */
function named(l: Line): { it: string; at: string } {
  const key = keyOf(l.text);
  return /^[\w$][\w .$/-]*$/.test(key)
    ? { it: `"${key}"`, at: `"${key}" on line ${l.number}` }
    : { it: `line ${l.number}`, at: `line ${l.number}` };
}

/** The first content line at or after `offset` (the line a mistake noticed at the end of the line before is on). */
function contentFrom(src: YamlSource, offset: number): Line {
  let line = lineAt(src, offset);
  const rest = src.text.slice(offset, line.start + line.text.length);
  for (let n = line.number + (rest.trim() === '' ? 1 : 0); ; n++) {
    const next = lineNumbered(src, n);
    if (!next) return line;
    if (isContent(next)) return next;
    line = next;
  }
}

/** The content lines above `line`, nearest first. */
function* above(src: YamlSource, line: Line): Generator<Line> {
  for (let n = line.number - 1; n >= 1; n--) {
    const l = lineNumbered(src, n);
    if (l && isContent(l)) yield l;
  }
}

/** A key that lines up with no key above it: named beside the one above it that it is nearest to. */
function misaligned(src: YamlSource, line: Line, detail: string): SyntaxProblem | undefined {
  const column = keyColumnOf(line.text);
  const at = line.start + column;
  const key = named(line).it;
  const nearest = above(src, line).next().value;
  if (nearest && isItem(nearest.text) && indentOf(nearest.text) === column)
    return {
      offset: at,
      message: `indentation: ${key} is at the column of the list item on line ${nearest.number}; a mapping holds either keys or list items, not both (YAML: ${detail})`,
    };
  // The lines it could belong to: the nearest one, then each less indented than every line between.
  let best: { line: Line; column: number } | undefined;
  let floor = Infinity;
  for (const l of above(src, line)) {
    const c = keyColumnOf(l.text);
    if (c >= floor) continue;
    floor = c;
    if (!best || Math.abs(c - column) < Math.abs(best.column - column)) best = { line: l, column: c };
    if (c === 0) break;
  }
  if (best?.column === column) return undefined;
  const other = best ? `, but ${named(best.line).at} is indented ${best.column}` : '';
  return {
    offset: at,
    message: `indentation: ${key} is indented ${spaces(column)}${other}; keys of one mapping start at the same column (YAML: ${detail})`,
  };
}

/** `error` (one of `doc.errors`) as what the user did, or undefined when it is not one of the common mistakes. */
export function explainYamlError(error: YAMLError, doc: Document, src: YamlSource): SyntaxProblem | undefined {
  const offset = error.pos[0];
  const detail = error.message.replace(/\s+at line \d+, column \d+[\s\S]*$/, '');
  const line = lineAt(src, offset);
  switch (error.code) {
    case 'TAB_AS_INDENT':
      return { offset, message: `a tab in the indentation: YAML indents with spaces only (YAML: ${detail})` };
    case 'BAD_INDENT':
      if (/^Flow (sequence|map)/.test(detail)) return unclosedFlow(doc, src, offset, detail);
      return misaligned(src, contentFrom(src, offset), detail);
    case 'MISSING_CHAR':
      if (/^Missing closing/.test(detail)) return unclosedQuote(doc, offset, detail);
      if (/^Sequence item without/.test(detail)) return misaligned(src, contentFrom(src, offset), detail);
      return /^Implicit map keys/.test(detail) ? notKeyValue(src, offset, detail) : undefined;
    case 'MULTILINE_IMPLICIT_KEY':
      return notKeyValue(src, offset, detail);
    case 'BLOCK_AS_IMPLICIT_KEY':
      if (/^Nested mappings/.test(detail)) {
        const multiline = doc.errors.some((e) => e.code === 'MULTILINE_IMPLICIT_KEY' && e.pos[0] === offset);
        return multiline ? overIndent(src, line, detail) : colonInValue(src, offset, line, detail);
      }
      return listItemDepth(src, contentFrom(src, offset), detail);
    case 'BAD_SCALAR_START': {
      const c = src.text[offset] ?? '';
      return { offset, message: `a value starting with "${c}" must be quoted (YAML: ${detail})` };
    }
    case 'UNEXPECTED_TOKEN':
      return /^Unexpected scalar at node end/.test(detail) ? afterQuote(src, offset, detail) : undefined;
    case 'BAD_DQ_ESCAPE': {
      const escape = src.text.slice(offset, offset + 2);
      return {
        offset,
        message: `"${escape}" is no escape in double quotes: write a backslash as "\\\\", or use single quotes (YAML: ${detail})`,
      };
    }
    default:
      return undefined;
  }
}

/** A key indented more than the key on the line above, which has a value: the parser reads it into that value. */
function overIndent(src: YamlSource, line: Line, detail: string): SyntaxProblem | undefined {
  const next = contentFrom(src, line.start + line.text.length);
  const column = keyColumnOf(next.text);
  if (next.number <= line.number || column <= keyColumnOf(line.text)) return undefined;
  return {
    offset: next.start + column,
    message: `indentation: ${named(next).it} is indented ${spaces(column)}, but ${named(line).at} is indented ${keyColumnOf(line.text)}; keys of one mapping start at the same column (YAML: ${detail})`,
  };
}

/** `title: Docs: the guide`: the second `: ` starts a key inside the value. */
function colonInValue(src: YamlSource, offset: number, line: Line, detail: string): SyntaxProblem | undefined {
  const value = src.text
    .slice(offset, line.start + line.text.length)
    .replace(/\s+#.*$/, '')
    .trim();
  if (!/: /.test(value) || /^["'[{&*!|>]/.test(value)) return undefined;
  return {
    offset,
    message: `an unquoted value cannot hold ": " (YAML reads a key there): put it in quotes, ${JSON.stringify(value)} (YAML: ${detail})`,
  };
}

/** A line the parser could not read as `key: value`: a missing space after the colon, a missing colon, or the text of a block scalar not indented. */
function notKeyValue(src: YamlSource, offset: number, detail: string): SyntaxProblem | undefined {
  const line = contentFrom(src, offset);
  const from = line.start + keyColumnOf(line.text);
  // Only a line the parser took as a key from its start; a value gone wrong (a quote, a bracket, an alias, a value
  // that goes on over lines) is said better in the parser's words.
  if (offset > from) return undefined;
  const text = src.text.slice(from, line.start + line.text.length).replace(/\s+#.*$/, '');
  if (/^["'[{&*!|>%@`]/.test(text) || text === '') return undefined;
  const colon = /^[^\s:"'][^\s:]*:(?=[^\s:])/.exec(text);
  if (colon)
    return {
      offset: from + colon[0].length - 1,
      message: `missing space after the colon: "${text}" is one word to YAML; write "${colon[0]} ${text.slice(colon[0].length)}" (YAML: ${detail})`,
    };
  const prev = above(src, line).next().value;
  if (prev && BLOCK_SCALAR.test(prev.text) && keyColumnOf(line.text) <= keyColumnOf(prev.text))
    return {
      offset: from,
      message: `indentation: the text of the | or > block on line ${prev.number} must be indented more than its key (YAML: ${detail})`,
    };
  return {
    offset: from,
    message: `"${text}" is not "key: value": a colon is missing, or the line is indented wrong (YAML: ${detail})`,
  };
}

/** A list item at another column than the items before it, or among the keys of a mapping. */
function listItemDepth(src: YamlSource, line: Line, detail: string): SyntaxProblem {
  const column = indentOf(line.text);
  const offset = line.start + column;
  for (const l of above(src, line)) {
    const c = indentOf(l.text);
    if (isItem(l.text) && c !== column)
      return {
        offset,
        message: `indentation: this list item is indented ${spaces(column)}, but the one on line ${l.number} is indented ${c}; items of one list start at the same column (YAML: ${detail})`,
      };
    if (c < column) break;
  }
  const nearest = above(src, line).next().value;
  const beside = nearest ? ` at the column of ${named(nearest).at}` : '';
  return {
    offset,
    message: `a list item among the keys of a mapping${beside}: a list goes under a key of its own, its items on the lines below (YAML: ${detail})`,
  };
}

/** The quoted value whose closing quote is missing, at its opening quote. */
function unclosedQuote(doc: Document, offset: number, detail: string): SyntaxProblem | undefined {
  let start: number | undefined;
  let quote = '"';
  visit(doc, {
    Scalar(_key, node) {
      const [from, to] = node.range ?? [0, 0];
      if ((node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') && from < offset && to >= offset) {
        if (start === undefined || from > start) {
          start = from;
          quote = node.type === 'QUOTE_DOUBLE' ? '"' : "'";
        }
      }
    },
  });
  if (start === undefined) return undefined;
  return { offset: start, message: `unclosed quote: the ${quote} opened here is never closed (YAML: ${detail})` };
}

/** The `[` or `{` whose closing bracket the parser did not find where the block around it goes on. */
function unclosedFlow(doc: Document, src: YamlSource, offset: number, detail: string): SyntaxProblem | undefined {
  let found: { start: number; list: boolean } | undefined;
  visit(doc, {
    Node(_key, node) {
      if (!(isMap(node) || isSeq(node)) || !node.flow) return;
      const [from, to] = node.range ?? [0, 0];
      if (to === offset && (found === undefined || from > found.start)) found = { start: from, list: isSeq(node) };
    },
  });
  if (!found || !'[{'.includes(src.text[found.start] ?? '')) return undefined;
  const [open, close, what] = found.list ? ['[', ']', 'list'] : ['{', '}', 'mapping'];
  return {
    offset: found.start,
    message: `unclosed "${open}": the ${what} opened here has no "${close}" (one written over several lines must indent them more than its key) (YAML: ${detail})`,
  };
}

/** `"Plat"form`, or `"title":"Platform"`: text right after a closing quote. */
function afterQuote(src: YamlSource, offset: number, detail: string): SyntaxProblem | undefined {
  const colon = src.text[offset] === ':' ? offset : src.text[offset - 1] === ':' ? offset - 1 : undefined;
  if (colon !== undefined && /["']/.test(src.text[colon - 1] ?? ''))
    return { offset: colon, message: `missing space after the colon: write "key: value" (YAML: ${detail})` };
  if (/["']/.test(src.text[offset - 1] ?? ''))
    return { offset, message: `text after the closing quote: put the whole value in the quotes (YAML: ${detail})` };
  return undefined;
}
