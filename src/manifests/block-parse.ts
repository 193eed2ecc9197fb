/**
 * The first and fastest way to read a manifest file: a line reader for the shape nearly every large manifest
 * has (what `docops export`, `yaml`'s stringify and config.example write) — block maps and sequences indented
 * with spaces, one-line plain, single- or double-quoted scalars and flat one-line flow collections of them
 * (block-values.ts), comments, `---` between documents. On a cold process it reads the 1,000-member bench
 * organization's 130 KB in ~30 ms, where js-yaml (fast-parse.ts) took ~85 ms before its code warmed up
 * (docs/dev/benchmarks.md, "Third round, the cold plan").
 *
 * It answers only where its result is certainly the `yaml` path's (values, document indexes, pos() and
 * keyPos() for every path) and declines (undefined) everything else, the whole file at once: nested or
 * multi-line flow collections, `${VAR}`, anchors, tags, block and multi-line scalars, escapes, keys that are
 * not plain words, duplicate keys, CR line breaks, empty documents between separators, any indentation it does
 * not expect. The caller then uses the js-yaml fast path, and that one the `yaml` path, which owns every error
 * message. test/manifests/block-parse.test.ts holds it to the `yaml` path on the fast path's corpus, every YAML
 * file of the repository and generated block-shaped files.
 */
import { Decline, keyEnd, lineValue } from './block-values.js';
import { DASH, HASH, SPACE } from './char-codes.js';
import { declinesTextually } from './fast-parse-precheck.js';
import type { FastParseResult } from './fast-parse.js';
import { OffsetLines } from './offset-lines.js';
import type { ParsedYamlDoc } from './parse-input.js';
import { EMPTY_VALUE, MapPos, SeqPos, treeLocator, type PosNode } from './position-tree.js';

/** CR (line breaks other than `\n`), control characters YAML may refuse, and non-characters: left to the others. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNREAD = /[\x00-\x09\x0b-\x1f\x7f-\x9f\ufffe\uffff]/;

/** Parse `text` (BOM already removed) or return undefined when another path must. */
export function blockParseYaml(file: string, text: string): FastParseResult | undefined {
  if (UNREAD.test(text) || text.includes('${') || declinesTextually(text)) return undefined;
  let roots: { index: number; value: unknown; pos: PosNode }[];
  try {
    roots = new BlockReader(text).documents();
  } catch (e) {
    if (e instanceof Decline) return undefined;
    throw e;
  }
  const lines = new OffsetLines(text);
  const documents: ParsedYamlDoc[] = roots.map(({ index, value, pos: root }) => ({ file, index, value, ...treeLocator(file, root, lines) }));
  return { documents, issues: [] };
}

/**
 * Reads line by line. The line looked at is kept in fields rather than in an object per line, and a node's
 * result too: a cold process spent as long collecting garbage as parsing when each line and node allocated.
 */
class BlockReader {
  /** Start of the first line not read yet. */
  private pos = 0;
  /** Whether a content line is looked at (read ahead by `peek`, not yet consumed by `take`). */
  private has = false;
  private lineStart = 0;
  /** Offset of the content the current node reads (after the indentation, or after `- ` in a compact item). */
  private at = 0;
  /** Offset of the line's `\n` (or the text's end). */
  private end = 0;
  /** What the last `node` read. */
  private value: unknown = null;
  private nodePos: PosNode = EMPTY_VALUE;

  constructor(private readonly text: string) {}

  /** Column of the content looked at. */
  private get col(): number {
    return this.at - this.lineStart;
  }

  documents(): { index: number; value: unknown; pos: PosNode }[] {
    const out: { index: number; value: unknown; pos: PosNode }[] = [];
    let index = 0;
    // A `---` before any content opens the first document (no empty document before it).
    if (this.peek() && this.isSeparator()) this.separator();
    while (this.peek()) {
      if (this.isSeparator()) throw new Decline('empty document');
      if (this.col !== 0) throw new Decline('indented root');
      this.node(0);
      out.push({ index, value: this.value, pos: this.nodePos });
      if (!this.peek()) break;
      if (!this.isSeparator()) throw new Decline('content after the root node');
      this.separator();
      index++;
    }
    return out;
  }

  /** Consume a `---` line (nothing after it is a trailing separator). */
  private separator(): void {
    this.take();
    this.peek();
  }

  private isSeparator(): boolean {
    return this.at === this.lineStart && this.text.startsWith('---', this.at);
  }

  /**
   * Look at the next line with content, without consuming it; false at the end. Blank and comment lines are
   * skipped at any indentation: a comment line ends a plain scalar in YAML, so a deeper line after it is refused
   * as bad indentation anyway.
   */
  private peek(): boolean {
    if (this.has) return true;
    const text = this.text;
    let start = this.pos;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      let at = start;
      while (at < end && text.charCodeAt(at) === SPACE) at++;
      if (at < end && text.charCodeAt(at) !== HASH) {
        this.lineStart = start;
        this.at = at;
        this.end = end;
        return (this.has = true);
      }
      start = end + 1;
    }
    this.pos = text.length;
    return false;
  }

  /** Mark the line looked at as read. */
  private take(): void {
    if (!this.has) throw new Decline('no line');
    this.pos = this.end + 1;
    this.has = false;
  }

  /** The line looked at continues the block at `col`. */
  private continues(col: number): boolean {
    return this.peek() && this.col === col && !this.isSeparator();
  }

  /** After a block at `col`: the next line may not be deeper. */
  private ended(col: number): void {
    if (this.peek() && this.col > col && !this.isSeparator()) throw new Decline('indentation');
  }

  /** A block node starting at the content looked at: a sequence (`- `) or a map (`key:`). */
  private node(parentCol: number): void {
    if (this.col < parentCol) throw new Decline('dedent');
    if (this.text.charCodeAt(this.at) === DASH) this.sequence();
    else this.map();
  }

  private sequence(): void {
    const text = this.text;
    const col = this.col;
    const start = this.at;
    const items: unknown[] = [];
    const positions: PosNode[] = [];
    while (this.continues(col)) {
      const dash = this.at;
      const end = this.end;
      if (text.charCodeAt(dash) !== DASH || (dash + 1 < end && text.charCodeAt(dash + 1) !== SPACE)) throw new Decline('sequence item');
      let at = dash + 1;
      while (at < end && text.charCodeAt(at) === SPACE) at++;
      if (at === end || text.charCodeAt(at) === HASH) {
        // `-` alone (or with a comment): the item is the deeper block below; an empty item is left to the others.
        this.take();
        if (!this.peek() || this.col <= col || this.isSeparator()) throw new Decline('empty item');
        this.node(col + 1);
        items.push(this.value);
        positions.push(this.nodePos);
      } else if (text.charCodeAt(at) === DASH && (at + 1 === end || text.charCodeAt(at + 1) === SPACE)) {
        throw new Decline('nested sequence on one line');
      } else if (keyEnd(text, at, end) >= 0) {
        // `- key: value`: a map whose keys line up under the first one, read from the key on.
        this.at = at;
        this.map();
        items.push(this.value);
        positions.push(this.nodePos);
      } else {
        const r = lineValue(text, at, end);
        items.push(r.value);
        positions.push(r.pos);
        this.take();
      }
    }
    this.ended(col);
    this.value = items;
    this.nodePos = new SeqPos(start, positions);
  }

  private map(): void {
    const text = this.text;
    const col = this.col;
    const start = this.at;
    const object: Record<string, unknown> = {};
    const pairs: (string | PosNode)[] = [];
    while (this.continues(col)) {
      const keyStart = this.at;
      const end = this.end;
      const colon = keyEnd(text, keyStart, end);
      if (colon < 0) throw new Decline('not a key');
      const key = text.slice(keyStart, colon);
      if (Object.prototype.hasOwnProperty.call(object, key)) throw new Decline('duplicate key');
      let at = colon + 1;
      while (at < end && text.charCodeAt(at) === SPACE) at++;
      let value: unknown;
      let pos: PosNode;
      if (at === end || text.charCodeAt(at) === HASH) {
        // `key:` alone: the value is the deeper block below, or empty (null).
        this.take();
        if (this.peek() && this.col > col && !this.isSeparator()) {
          this.node(col + 1);
          value = this.value;
          pos = this.nodePos;
        } else {
          // `key:` then `- item` at the key's own column is the key's sequence in YAML: not read here.
          if (this.continues(col) && text.charCodeAt(this.at) === DASH) throw new Decline('sequence at the key column');
          value = null;
          pos = EMPTY_VALUE;
        }
      } else {
        ({ value, pos } = lineValue(text, at, end));
        this.take();
      }
      object[key] = value;
      pairs.push(key, keyStart, pos);
    }
    this.ended(col);
    this.value = object;
    this.nodePos = new MapPos(start, pairs);
  }
}
