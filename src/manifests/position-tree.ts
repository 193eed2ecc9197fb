/**
 * Source positions of a parsed document, by path, kept without the document: the start offset of every node,
 * shaped like the `yaml` node tree (not like the value: a merge key stays a pair, merged-in keys are absent, an
 * alias leads into the node it names), and a Locator over it. A `yaml` Document takes several times the memory of
 * the value it reads to; a daemon keeps every file's parse (src/daemon/parse-cache.ts), so only this is kept.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { SourcePos } from '../model/errors.js';
import type { DocPath } from './paths.js';

export interface Locator {
  /** Start of the node at `path`; falls back to the nearest existing parent. */
  pos(path: DocPath): SourcePos;
  /** Start of the key holding the node at `path` (value start for sequence items); same fallback. */
  keyPos(path: DocPath): SourcePos;
}

/** A `key:` with nothing after it (yaml's empty scalar): its position is the key's. */
const EMPTY_VALUE = -1;

/** A scalar is just its start offset (or EMPTY_VALUE). */
type PosNode = number | MapPos | SeqPos | AliasPos;

class MapPos {
  constructor(
    readonly start: number,
    /**
     * Per pair, in source order: String(key value) (what a path segment is compared with; a key that is not a
     * scalar gets a name no segment has), the key's start, the value's node. One flat array: a large file has
     * tens of thousands of small maps.
     */
    readonly pairs: (string | PosNode)[],
  ) {}
}

class SeqPos {
  constructor(
    readonly start: number,
    readonly items: PosNode[],
  ) {}
}

/** `*name`: found at its own start; a path below it continues in the node it names. */
class AliasPos {
  constructor(
    readonly start: number,
    readonly target: PosNode,
  ) {}
}

/** Not a string a path segment can be: the key of a pair whose key is a collection or an alias. */
const NO_NAME = '\u0000';

const startOf = (node: PosNode): number => (typeof node === 'number' ? node : node.start);
const rangeStart = (node: Node | null | undefined): number => node?.range?.[0] ?? 0;

/**
 * The positions of `doc` (its contents must be a node, with no alias inside the node it names: yaml-values.ts
 * refuses those first). Each node is visited once; an alias shares the tree of the node it names.
 */
export function positionTree(doc: Document): PosNode {
  // An alias names the last node with its anchor before it (yaml's Alias.resolve): anchors are taken in source
  // order, a node's before its children's. The node named is complete when its alias is reached (not a cycle).
  const anchors = new Map<string, Node>();
  const anchored = new Map<Node, PosNode>();
  const build = (node: unknown, mapValue: boolean): PosNode => {
    const anchor = (node as Node | null)?.anchor;
    if (anchor) anchors.set(anchor, node as Node);
    let pos: PosNode;
    if (isAlias(node)) {
      const named = anchors.get(node.source);
      pos = new AliasPos(rangeStart(node), (named && anchored.get(named)) ?? rangeStart(node));
    } else if (isMap(node)) {
      const pairs: (string | PosNode)[] = [];
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = pair.key as Node | null;
        if (key?.anchor) {
          anchors.set(key.anchor, key);
          anchored.set(key, rangeStart(key));
        }
        pairs.push(isScalar(key) ? String(key.value) : NO_NAME, rangeStart(key), build(pair.value, true));
      }
      pos = new MapPos(rangeStart(node), pairs);
    } else if (isSeq(node)) {
      pos = new SeqPos(
        rangeStart(node),
        node.items.map((item) => build(item, false)),
      );
    } else if (isScalar(node)) {
      pos = mapValue && node.value === null && node.source === '' ? EMPTY_VALUE : rangeStart(node);
    } else {
      pos = EMPTY_VALUE; // `? key` without a value node
    }
    if (anchor) anchored.set(node as Node, pos);
    return pos;
  };
  return build(doc.contents, false);
}

/** Index of the first pair whose key is `name`, or -1. */
function findKey(pairs: (string | PosNode)[], name: string): number {
  for (let i = 0; i < pairs.length; i += 3) if (pairs[i] === name) return i;
  return -1;
}

export function treeLocator(file: string, root: PosNode, lines: LineCounter): Locator {
  const at = (offset: number): SourcePos => {
    const { line, col } = lines.linePos(offset);
    return { file, line, column: col };
  };

  /** Walk as far as the path exists; the deepest node reached and, if a map value, its key's start. */
  const walk = (path: DocPath): { node: PosNode; keyStart: number | undefined; depth: number } => {
    let node = root;
    let keyStart: number | undefined;
    let depth = 0;
    for (const seg of path) {
      const target = node instanceof AliasPos ? node.target : node;
      if (target instanceof MapPos) {
        const i = findKey(target.pairs, String(seg));
        if (i < 0) break;
        keyStart = target.pairs[i + 1] as number;
        node = target.pairs[i + 2] as PosNode;
      } else if (target instanceof SeqPos && /^\d+$/.test(String(seg))) {
        const item = target.items[Number(seg)];
        if (item === undefined) break;
        keyStart = undefined;
        node = item;
      } else break;
      depth++;
    }
    return { node, keyStart, depth };
  };

  const valueStart = (path: DocPath): number => {
    const { node, keyStart } = walk(path);
    // Only map values are EMPTY_VALUE, so keyStart is set; the root is never empty (empty documents are skipped).
    return node === EMPTY_VALUE ? (keyStart ?? 0) : startOf(node);
  };

  return {
    pos: (path) => at(valueStart(path)),
    keyPos(path) {
      const found = walk(path);
      // Only the key when the whole path was found and ends in a mapping key; otherwise like pos().
      if (found.depth === path.length && path.length > 0 && found.keyStart !== undefined) return at(found.keyStart);
      return at(valueStart(path));
    },
  };
}
