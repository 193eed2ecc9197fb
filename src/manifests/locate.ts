/** Source positions of nodes in a parsed YAML document, by path. */
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { SourcePos } from '../core/errors.js';
import type { DocPath } from './paths.js';

export interface Locator {
  /** Start of the node at `path`; falls back to the nearest existing parent. */
  pos(path: DocPath): SourcePos;
  /** Start of the key holding the node at `path` (value start for sequence items); same fallback. */
  keyPos(path: DocPath): SourcePos;
}

export function createLocator(file: string, doc: Document, lineCounter: LineCounter): Locator {
  const at = (offset: number): SourcePos => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  const start = (node: Node | null | undefined): number | undefined => node?.range?.[0];
  const docStart = doc.contents?.range?.[0] ?? doc.range?.[0] ?? 0;

  /** Walk as far as the path exists; returns the deepest node reached and, if it is a map value, its key. */
  const walk = (path: DocPath): { node: Node | null; key: Node | null; depth: number } => {
    let node = doc.contents as Node | null;
    let key: Node | null = null;
    let depth = 0;
    for (const seg of path) {
      const target = isAlias(node) ? (node.resolve(doc) ?? null) : node;
      if (isMap(target)) {
        const pair = target.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
        if (!pair) break;
        key = pair.key as Node;
        // `key:` with no value: yaml gives an empty scalar whose range may be empty; keep the key then.
        node = (pair.value as Node | null) ?? (pair.key as Node);
      } else if (isSeq(target) && /^\d+$/.test(String(seg))) {
        const item = target.items[Number(seg)] as Node | undefined;
        if (!item) break;
        key = null;
        node = item;
      } else break;
      depth++;
    }
    return { node, key, depth };
  };

  const valueStart = (path: DocPath): number => {
    const { node, key } = walk(path);
    if (isScalar(node) && node.value === null && node.source === '' && key) return start(key) ?? docStart;
    return start(node) ?? docStart;
  };

  return {
    pos: (path) => at(valueStart(path)),
    keyPos(path) {
      const found = walk(path);
      // Only use the key when the whole path was found and ends in a mapping key; otherwise like pos().
      if (found.depth === path.length && path.length > 0 && found.key) return at(start(found.key) ?? docStart);
      return at(valueStart(path));
    },
  };
}
