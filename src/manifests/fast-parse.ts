/**
 * The fast way to read a manifest file: js-yaml (≈10× faster than `yaml` on large files) with a listener that
 * records where every node starts, so positions, values and `${VAR}` problems come out exactly as the `yaml`
 * path in parse.ts gives them. It only handles the shapes where that is certain (block maps and sequences,
 * single-line plain/quoted scalars, one-line flow sequences and flow maps, comments, `---`); for anything else — including
 * every error — it declines (returns undefined) and the caller uses the `yaml` path, which owns all error
 * messages and the alias-bomb guard.
 */
import jsyaml from 'js-yaml';
import type { ValidationIssue } from '../core/errors.js';
import { MERGE_TAG, YAML_CORE_SCHEMA } from './core-schema.js';
import { interpolateString, type VarSource } from './interpolate.js';
import { OffsetLines } from './offset-lines.js';
import type { ParsedYamlDoc } from './parse-input.js';
import { EMPTY_VALUE, MapPos, SeqPos, treeLocator, type PosNode } from './position-tree.js';
import { declinesTextually } from './fast-parse-precheck.js';
import { blockParseYaml } from './block-parse.js';
import { DASH, DQUOTE, HASH, LBRACE, LBRACKET } from './char-codes.js';

/** The parts of js-yaml's loader state the listener reads (the typings leave out tag and anchor). */
interface LoaderState {
  position: number;
  kind: string | null;
  tag: string | null;
  anchor: string | null;
  result: unknown;
}

/** Thrown inside js-yaml to stop reading: the `yaml` path must handle this file. */
class Decline extends Error {}

/** locate.ts compares path segments with String(key.value); yaml's merge key value is Symbol('<<'). */
const MERGE_KEY_MATCH = String(Symbol('<<'));
/** yaml rejects implicit keys longer than 1024 characters; js-yaml has no such limit. */
const MAX_KEY_SPAN = 1000;

/** Node starts that mean anchor, alias, tag, block scalar: not handled here. */
const isUnhandledStart = (c: number): boolean => c === 0x26 /* & */ || c === 0x2a /* * */ || c === 0x21 /* ! */ || c === 0x7c /* | */ || c === 0x3e; /* > */

/**
 * One composeNode call of js-yaml, between its 'open' and 'close' events. Frames are recycled once their
 * parent has closed (a large file has millions of them); only the position tree outlives them.
 */
class Frame {
  readonly children: Frame[] = [];
  open = 0;
  kind: string | null = null;
  start = 0;
  /** A plain scalar (typed by the schema; a substituted `${VAR}` is re-typed). */
  plain = false;
  /** A plain `<<`: the merge key. */
  merge = false;
  result: unknown = null;
  pos: PosNode = EMPTY_VALUE;

  reset(open: number): this {
    if (this.children.length !== 0) this.children.length = 0;
    this.open = open;
    this.kind = null;
    this.start = 0;
    this.plain = false;
    this.merge = false;
    this.result = null;
    this.pos = EMPTY_VALUE;
    return this;
  }
}

const POOL_LIMIT = 1024;

interface DocOut {
  kind: string | null;
  value: unknown;
  pos: PosNode;
  problems: { offset: number; message: string }[];
}

export interface FastParseResult {
  documents: ParsedYamlDoc[];
  issues: ValidationIssue[];
}

/**
 * Types a substituted plain scalar as YAML would (interpolate-yaml.ts `resolvePlain`). Without one the fast path
 * declines such a file, so that reading manifests without a `${VAR}` in a plain scalar never loads `yaml`.
 */
export type Retype = (text: string) => unknown;

/** Parse `text` (BOM already removed) or return undefined when the `yaml` path must do it. */
export function fastParseYaml(file: string, text: string, vars: VarSource | undefined, retype?: Retype): FastParseResult | undefined {
  // The common shapes first, by a line reader that is much faster on a cold process (block-parse.ts).
  const block = blockParseYaml(file, text);
  if (block) return block;
  if (declinesTextually(text)) return undefined;
  const reader = new TreeReader(text, vars, retype);
  try {
    jsyaml.loadAll(text, null, {
      schema: YAML_CORE_SCHEMA,
      listener: (event, state) => reader.onEvent(event, state as unknown as LoaderState),
      onWarning: () => {
        throw new Decline('js-yaml warning');
      },
    });
  } catch {
    return undefined; // syntax errors, duplicate keys, unhandled shapes: all reported by the yaml path
  }
  const lines = new OffsetLines(text);
  const documents: ParsedYamlDoc[] = [];
  const issues: ValidationIssue[] = [];
  reader.docs.forEach(({ kind, value, pos: root, problems }, index) => {
    if (kind === null) return; // an empty document (e.g. after a trailing `---`) still counts in `index`
    if (problems.length > 0) {
      for (const p of problems) {
        const { line, col } = lines.linePos(p.offset);
        issues.push({ file, line, column: col, message: p.message });
      }
      return;
    }
    const { pos, keyPos } = treeLocator(file, root, lines);
    documents.push({ file, index, value, pos, keyPos });
  });
  return { documents, issues };
}

/** Builds position trees and applies `${VAR}` from js-yaml's open/close events. */
class TreeReader {
  readonly docs: DocOut[] = [];
  private readonly stack: Frame[] = [];
  private readonly pool: Frame[] = [];
  private problems: DocOut['problems'] = [];

  constructor(
    private readonly text: string,
    /** Undefined: data, never interpolated. */
    private readonly vars: VarSource | undefined,
    private readonly retype: Retype | undefined,
  ) {}

  onEvent(event: string, state: LoaderState): void {
    if (event === 'open') {
      this.stack.push((this.pool.pop() ?? new Frame()).reset(state.position));
      return;
    }
    const frame = this.stack.pop();
    if (!frame) throw new Decline('unbalanced events');
    this.close(frame, state);
    const parent = this.stack[this.stack.length - 1];
    if (parent) parent.children.push(frame);
    else this.closeDocument(frame);
  }

  private closeDocument(frame: Frame): void {
    if (frame.kind !== null) {
      const box = [frame.result];
      this.interpolateInto(frame, box, 0);
      frame.result = box[0];
    }
    // interpolateDocument reports in tree order, which is source order; values are patched when their parent
    // closes (children first), so sort. The sort is stable: several problems in one scalar keep their order.
    const problems = this.problems.sort((a, b) => a.offset - b.offset);
    this.docs.push({ kind: frame.kind, value: frame.result, pos: frame.pos, problems });
    this.problems = [];
  }

  private close(f: Frame, s: LoaderState): void {
    this.closeNode(f, s);
    const children = f.children;
    if (children.length === 0) return;
    if (this.pool.length + children.length <= POOL_LIMIT) for (const child of children) this.pool.push(child);
    children.length = 0;
  }

  private closeNode(f: Frame, s: LoaderState): void {
    const children = f.children;
    f.kind = s.kind;
    f.result = s.result;
    if (s.anchor !== null) throw new Decline('anchor');
    const text = this.text;
    const start = skipBlank(text, f.open);
    const first = text.charCodeAt(start);
    // Also for empty nodes: a node of only properties (`a: !tag`) is empty, and a failed attempt to read a
    // key below it can clear state.tag. (An empty node's "start" may be the next line's content: declining
    // for that too only costs speed.)
    if (isUnhandledStart(first)) throw new Decline('unhandled node');
    if (f.kind === null) {
      if (s.tag !== null || s.result !== null || children.some((c) => c.kind !== null)) throw new Decline('empty');
      f.pos = EMPTY_VALUE;
      return;
    }
    f.start = start;

    // A plain/quoted scalar or flow sequence in block context is first read as a would-be mapping key; when no
    // `:` follows, js-yaml keeps that inner result. The outer node is then the same node.
    const only = children.length === 1 ? children[0] : undefined;
    if (only && only.kind === f.kind && only.start === start && Object.is(only.result, f.result)) {
      f.plain = only.plain;
      f.merge = only.merge;
      f.pos = only.pos;
      return;
    }
    if (f.kind === 'scalar') this.closeScalar(f, s, children);
    else if (f.kind === 'sequence') this.closeSequence(f, s, children, first);
    else if (f.kind === 'mapping') this.closeMapping(f, s, children, first);
    else throw new Decline(`kind ${f.kind}`);
  }

  private closeScalar(f: Frame, s: LoaderState, children: Frame[]): void {
    if (children.length > 0) throw new Decline('scalar with children');
    // js-yaml gives plain scalars the tag '?' (then the resolved type's tag); quoted scalars keep null.
    f.plain = s.tag !== null;
    // A plain scalar may end on a later line without continuing there: js-yaml looked ahead for a
    // continuation, found none, and stopped at the next content (or the end). Only blank text lies between.
    const nl = this.text.indexOf('\n', f.start);
    if (nl !== -1 && nl < s.position && !(f.plain && isBlank(this.text, nl, s.position))) throw new Decline('multi-line scalar');
    // `"a"#b`: yaml wants a space before a comment, js-yaml does not.
    if (!f.plain && this.text.charCodeAt(s.position) === HASH) throw new Decline('comment after quote');
    if (!f.plain && this.text.charCodeAt(f.start) === DQUOTE && hasUnsafeEscape(this.text, f.start, s.position)) throw new Decline('escape');
    f.merge = s.tag === MERGE_TAG;
    f.pos = f.start;
  }

  private closeSequence(f: Frame, s: LoaderState, items: Frame[], first: number): void {
    const array = f.result as unknown[];
    // Empty block items (`-` alone) produce no events; flow pairs (`[a: b]`) produce two per item.
    if (items.length !== array.length) throw new Decline('sequence items');
    if (first === LBRACKET) {
      if (spansLines(this.text, f.start, s.position)) throw new Decline('multi-line flow sequence');
      if (this.text.charCodeAt(s.position) === HASH) throw new Decline('comment after ]');
    } else if (first !== DASH) throw new Decline('sequence start');
    const positions: PosNode[] = new Array<PosNode>(items.length);
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as Frame;
      if (item.kind === null) throw new Decline('empty item');
      positions[i] = item.pos;
      this.interpolateInto(item, array, i);
    }
    f.pos = new SeqPos(f.start, positions);
  }

  private closeMapping(f: Frame, s: LoaderState, pairs: Frame[], first: number): void {
    let n = pairs.length;
    const flow = first === LBRACE;
    if (flow) {
      // `{ a: 1, b: x }` on one line, as the sequences above. An entry without a value (`{ a }`, `{ a: }`) is
      // left to the yaml path (js-yaml gives no event for a missing value, and yaml's empty node differs).
      if (spansLines(this.text, f.start, s.position)) throw new Decline('multi-line flow map');
      if (this.text.charCodeAt(s.position) === HASH) throw new Decline('comment after }');
    } else if (n % 2 === 1 && (pairs[n - 1] as Frame).kind === null) n--; // A key attempt that found nothing (e.g. at a following `---`) leaves one trailing empty frame.
    if ((n === 0 && !flow) || n % 2 === 1) throw new Decline('mapping pairs');
    const object = f.result as Record<string, unknown>;
    // Keys without values (`{ a, b }`) would pair up as key and value: every key must have its value.
    if (flow && Object.keys(object).length !== n / 2) throw new Decline('flow map entry without value');
    const entries: (string | PosNode)[] = new Array<string | PosNode>((n / 2) * 3);
    for (let i = 0; i < n; i += 2) {
      const key = pairs[i] as Frame;
      const value = pairs[i + 1] as Frame;
      // A null key (`~:`) becomes '' in yaml's toJS but 'null' in js-yaml; collection keys: not handled.
      if (key.kind !== 'scalar' || key.result === null) throw new Decline('key');
      if (value.open - key.start > MAX_KEY_SPAN) throw new Decline('long key');
      if (key.merge && !isMergeSource(value.result)) throw new Decline('merge source');
      if (flow && (value.kind === null || key.merge)) throw new Decline('flow map entry');
      const j = (i / 2) * 3;
      const name = String(key.result);
      entries[j] = key.merge ? MERGE_KEY_MATCH : name;
      entries[j + 1] = key.start;
      entries[j + 2] = value.pos;
      // A merge value's own scalars were interpolated when it closed, before js-yaml merged them.
      if (!key.merge) this.interpolateInto(value, object, name);
    }
    f.pos = new MapPos(f.start, entries);
  }

  /** interpolateDocument for one value: string scalars only; a plain substitution is re-typed. */
  private interpolateInto(node: Frame, container: unknown[] | Record<string, unknown>, at: string | number): void {
    const value = node.result;
    if (this.vars === undefined || typeof value !== 'string' || !value.includes('${')) return;
    const r = interpolateString(value, this.vars);
    if ('errors' in r) {
      for (const message of r.errors) this.problems.push({ offset: node.start, message });
    } else if (r.changed) {
      if (node.plain && !this.retype) throw new Decline('typing a substituted plain scalar needs yaml');
      // js-yaml defined the key as an own property already, so this never reaches the __proto__ setter.
      (container as Record<string | number, unknown>)[at] = node.plain && this.retype ? this.retype(r.value) : r.value;
    }
  }
}

/**
 * `\U` escapes (yaml rejects code points past U+10FFFF, js-yaml does not) and malformed `\x`/`\u` escapes in
 * a double-quoted scalar; the common escapes are read alike by both.
 */
function hasUnsafeEscape(text: string, start: number, end: number): boolean {
  for (let i = text.indexOf('\\', start); i !== -1 && i < end; i = text.indexOf('\\', i + 2)) {
    const c = text.charAt(i + 1);
    const hex = c === 'x' ? 2 : c === 'u' ? 4 : 0;
    if (c === 'U' || (hex > 0 && !/^[0-9a-fA-F]+$/.test(text.slice(i + 2, i + 2 + hex)))) return true;
    if (hex === 0 && !SIMPLE_ESCAPES.includes(c)) return true;
  }
  return false;
}
const SIMPLE_ESCAPES = '0abtnvfre "/\\N_LP';

/** A mapping or a sequence of mappings: what yaml accepts after `<<` (js-yaml also takes arrays). */
function isMergeSource(value: unknown): boolean {
  const isMap = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v);
  return Array.isArray(value) ? value.every(isMap) : isMap(value);
}

/** First offset at or after `i` that is not whitespace, a line break or a comment. */
function skipBlank(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else if (c === HASH) {
      const nl = text.indexOf('\n', i);
      if (nl < 0) return text.length;
      i = nl;
    } else return i;
  }
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d) return false;
  }
  return true;
}

function spansLines(text: string, start: number, end: number): boolean {
  const nl = text.indexOf('\n', start);
  return nl !== -1 && nl < end;
}
