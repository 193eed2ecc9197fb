/**
 * The values block-parse.ts's line reader takes on one line: plain, single- and double-quoted scalars (no escapes)
 * and one-line flow collections of them (`[a, b]`, `{ email: a@x.test, role: admin }`, no nesting), with the keys
 * it takes. Each reader returns where its value ends or throws Decline: the file is then left to js-yaml.
 */
import { COLON, COMMA, DASH, DQUOTE, HASH, LBRACE, LBRACKET, RBRACE, RBRACKET, SPACE, SQUOTE } from './char-codes.js';
import { typePlainScalar } from './core-schema.js';
import { MapPos, SeqPos, type PosNode } from './position-tree.js';

/** Thrown to stop reading: another path must read this file. */
export class Decline extends Error {}


/** yaml rejects implicit keys longer than 1024 characters (fast-parse.ts uses the same margin). */
const MAX_KEY_LENGTH = 1000;

/**
 * Keys it takes: a plain word that types as a string in the core schema (a letter or `_` first, so never a
 * number; not null or a boolean) — what String(key) of the `yaml` path's key gives back unchanged.
 */
const isLetter = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f; /* _ */
const isKeyChar = (c: number): boolean => isLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x2e /* . */ || c === 0x2f /* / */ || c === DASH;
const TYPED_WORDS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

/** First characters of a plain scalar that mean something else in YAML (indicators). */
const INDICATORS = '-?:,[]{}#&*!|>\'"%@`';
/** What ends a plain scalar in a flow collection, or makes it one this reader leaves alone. */
const FLOW_STOP = ',[]{}:#';

/** A value read: the value, its position node, the offset after it. */
export interface Read {
  value: unknown;
  pos: PosNode;
  next: number;
}

/**
 * End of a plain-word key starting at `at` (the offset of its `:`), or -1. In block context (`flow` false) the
 * `:` is followed by a space or the line end, in a flow map by a space.
 */
export function keyEnd(text: string, at: number, end: number, flow = false): number {
  if (!isLetter(text.charCodeAt(at))) return -1;
  let i = at + 1;
  while (i < end && isKeyChar(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== COLON) return -1;
  if (flow ? text.charCodeAt(i + 1) !== SPACE || i + 1 >= end : i + 1 < end && text.charCodeAt(i + 1) !== SPACE) return -1;
  // Only short keys can be a typed word or `__proto__` (9 characters).
  if (i - at > MAX_KEY_LENGTH || (i - at <= 9 && (TYPED_WORDS.has(text.slice(at, i)) || text.startsWith('__proto__:', at)))) throw new Decline('key');
  return i;
}

/** A value from `at` to the line's end: a scalar or a flow collection, then only a ` # comment` may follow. */
export function lineValue(text: string, at: number, end: number): Read {
  const c = text.charCodeAt(at);
  if (c === LBRACKET || c === LBRACE) {
    const r = flowCollection(text, at, end);
    afterValue(text, r.next, end);
    return r;
  }
  if (c === SQUOTE || c === DQUOTE) {
    const r = quoted(text, at, end);
    afterValue(text, r.next, end);
    return r;
  }
  startsPlain(text, at, end);
  // A comment starts at ` #`; trailing spaces are not part of the scalar.
  let stop = at;
  while (stop < end && !(text.charCodeAt(stop) === HASH && text.charCodeAt(stop - 1) === SPACE)) stop++;
  const raw = trimEnd(text, at, stop);
  if (raw.includes(': ') || raw.endsWith(':')) throw new Decline('mapping in a scalar');
  return { value: typed(raw), pos: at, next: end };
}

/** After a quoted scalar or a flow collection only spaces and a ` # comment` may follow on its line. */
function afterValue(text: string, from: number, end: number): void {
  let i = from;
  while (i < end && text.charCodeAt(i) === SPACE) i++;
  if (i === end) return;
  if (text.charCodeAt(i) !== HASH || i === from) throw new Decline('text after a value');
}

function quoted(text: string, at: number, end: number): Read {
  const c = text.charCodeAt(at);
  let close = at;
  for (;;) {
    close = text.indexOf(text.charAt(at), close + 1);
    if (close < 0 || close >= end) throw new Decline('quoted scalar spans lines');
    // `''` inside single quotes is one quote.
    if (c === SQUOTE && text.charCodeAt(close + 1) === SQUOTE) {
      close++;
      continue;
    }
    break;
  }
  let value = text.slice(at + 1, close);
  if (c === DQUOTE && value.includes('\\')) throw new Decline('escape');
  if (c === SQUOTE) value = value.replaceAll("''", "'");
  return { value, pos: at, next: close + 1 };
}

/** `-` followed by a non-space starts a plain scalar (`-1.5`, `-x`); the other indicators are left to the others. */
function startsPlain(text: string, at: number, end: number): void {
  const c = text.charCodeAt(at);
  if (INDICATORS.includes(text.charAt(at)) && !(c === DASH && at + 1 < end && text.charCodeAt(at + 1) !== SPACE)) throw new Decline('indicator');
}

function trimEnd(text: string, from: number, to: number): string {
  let stop = to;
  while (stop > from && text.charCodeAt(stop - 1) === SPACE) stop--;
  return text.slice(from, stop);
}

function typed(raw: string): unknown {
  try {
    return typePlainScalar(raw);
  } catch {
    throw new Decline('number JSON cannot hold exactly');
  }
}

/**
 * `[a, b]` or `{ k: v, k2: v2 }` on one line: scalars only (no nesting), entries separated by `, `-style
 * commas, no empty entry, no trailing comma, every map key a plain word followed by `: ` and a value.
 */
function flowCollection(text: string, at: number, end: number): Read {
  const isMap = text.charCodeAt(at) === LBRACE;
  const close = isMap ? RBRACE : RBRACKET;
  const items: unknown[] = [];
  const positions: PosNode[] = [];
  const object: Record<string, unknown> = {};
  const pairs: (string | PosNode)[] = [];
  let i = skipSpaces(text, at + 1, end);
  if (text.charCodeAt(i) === close) return isMap ? { value: object, pos: new MapPos(at, pairs), next: i + 1 } : { value: items, pos: new SeqPos(at, positions), next: i + 1 };
  for (;;) {
    let keyStart = -1;
    let key = '';
    if (isMap) {
      keyStart = i;
      const k = keyEnd(text, i, end, true);
      if (k < 0) throw new Decline('flow map key');
      key = text.slice(i, k);
      if (Object.prototype.hasOwnProperty.call(object, key)) throw new Decline('duplicate key');
      i = skipSpaces(text, k + 1, end);
    }
    const item = flowScalar(text, i, end);
    if (isMap) {
      object[key] = item.value;
      pairs.push(key, keyStart, item.pos);
    } else {
      items.push(item.value);
      positions.push(item.pos);
    }
    i = skipSpaces(text, item.next, end);
    const c = text.charCodeAt(i);
    if (c === close) break;
    if (c !== COMMA) throw new Decline('flow entry');
    i = skipSpaces(text, i + 1, end);
    if (text.charCodeAt(i) === close) throw new Decline('trailing comma');
  }
  return isMap ? { value: object, pos: new MapPos(at, pairs), next: i + 1 } : { value: items, pos: new SeqPos(at, positions), next: i + 1 };
}

/** A scalar inside a flow collection: quoted, or plain up to `,` or the closing bracket (none of `[]{}:#` in it). */
function flowScalar(text: string, at: number, end: number): Read {
  const c = text.charCodeAt(at);
  if (c === SQUOTE || c === DQUOTE) return quoted(text, at, end);
  startsPlain(text, at, end);
  let stop = at;
  while (stop < end && !FLOW_STOP.includes(text.charAt(stop))) stop++;
  const raw = trimEnd(text, at, stop);
  if (raw === '' || (stop < end && (text.charCodeAt(stop) === HASH || text.charCodeAt(stop) === COLON))) throw new Decline('flow scalar');
  return { value: typed(raw), pos: at, next: stop };
}

function skipSpaces(text: string, i: number, end: number): number {
  while (i < end && text.charCodeAt(i) === SPACE) i++;
  return i;
}
