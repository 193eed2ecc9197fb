/**
 * Node start offsets of one document, shaped like the `yaml` node tree (not like the value: merge keys stay
 * pairs, merged-in keys are absent), and a Locator over it that answers exactly as createLocator in
 * locate.ts does over the `yaml` Document.
 */
import type { SourcePos } from '../core/errors.js';
import type { Locator } from './locate.js';
import type { OffsetLines } from './offset-lines.js';
import type { DocPath } from './paths.js';

/** A `key:` with nothing after it (yaml's empty scalar); locate.ts reports the key's position for it. */
export const EMPTY_VALUE = -1;

/** A scalar is just its start offset (or EMPTY_VALUE). */
export type PosNode = number | MapPos | SeqPos;

export class MapPos {
  constructor(
    readonly start: number,
    /**
     * Per pair, in source order: String(yaml key value) (what locate.ts compares a path segment with), the
     * key's start, the value's node. One flat array: a large file has tens of thousands of small maps.
     */
    readonly pairs: (string | PosNode)[],
  ) {}
}

export class SeqPos {
  constructor(
    readonly start: number,
    readonly items: PosNode[],
  ) {}
}

/** Index of the first pair whose key is `name` (like locate.ts's `find`), or -1. */
function findKey(pairs: (string | PosNode)[], name: string): number {
  for (let i = 0; i < pairs.length; i += 3) if (pairs[i] === name) return i;
  return -1;
}

const startOf = (node: PosNode): number => (typeof node === 'number' ? node : node.start);

export function treeLocator(file: string, root: PosNode, lines: OffsetLines): Locator {
  const at = (offset: number): SourcePos => {
    const { line, col } = lines.linePos(offset);
    return { file, line, column: col };
  };

  /** As locate.ts: walk as far as the path exists; the deepest node reached and, if a map value, its key start. */
  const walk = (path: DocPath): { node: PosNode; keyStart: number | undefined; depth: number } => {
    let node = root;
    let keyStart: number | undefined;
    let depth = 0;
    for (const seg of path) {
      if (node instanceof MapPos) {
        const i = findKey(node.pairs, String(seg));
        if (i < 0) break;
        keyStart = node.pairs[i + 1] as number;
        node = node.pairs[i + 2] as PosNode;
      } else if (node instanceof SeqPos && /^\d+$/.test(String(seg))) {
        const item = node.items[Number(seg)];
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
    // Only map values can be empty, so keyStart is set; the root is never empty (empty documents are skipped).
    return node === EMPTY_VALUE ? (keyStart ?? 0) : startOf(node);
  };

  return {
    pos: (path) => at(valueStart(path)),
    keyPos(path) {
      const found = walk(path);
      if (found.depth === path.length && path.length > 0 && found.keyStart !== undefined) return at(found.keyStart);
      return at(valueStart(path));
    },
  };
}
