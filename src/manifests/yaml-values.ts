/**
 * YAML that is valid but is not JSON data, found in the parsed document before `toJS` runs: a list or mapping
 * as a key (the library would stringify it and print a warning), explicit tags beyond the core ones (`!!binary`,
 * `!!timestamp`, `!!set`, `!!omap`, `!!pairs` make Buffers, Dates, Sets, Maps), numbers JSON cannot hold
 * exactly (`.nan`, `.inf`, integers past 2^53), a merge (`<<`) of something that is not a mapping, and an
 * alias inside the node it names (a cycle, which would never end when read). Each is a problem at its node,
 * in docops's words.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, visit, type Alias, type Document, type Node, type Pair } from 'yaml';

export interface NodeProblem {
  offset: number;
  message: string;
}

const CORE = 'tag:yaml.org,2002:';
/** Explicit tags that keep values JSON data: the YAML 1.2 core schema's. */
const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => CORE + t));
const INTEGER_SOURCE = /^[-+]?(?:[0-9]+|0x[0-9a-fA-F]+|0o[0-7]+)$/;
const DATA = 'manifests hold strings, numbers, booleans, null, lists and mappings';

const shortTag = (tag: string): string => (tag.startsWith(CORE) ? `!!${tag.slice(CORE.length)}` : tag);
const startOf = (node: unknown): number => (node as Node | null)?.range?.[0] ?? 0;

/** Why a scalar's value is not JSON data, or undefined. */
function scalarProblem(value: unknown, source: unknown): string | undefined {
  if (value instanceof Uint8Array) return `binary data is not supported (${DATA})`;
  if (value instanceof Date) return 'a timestamp is not supported: quote it to keep it as text';
  if (typeof value === 'bigint') return 'integer too large to be exact (over 2^53): quote it if it is text';
  if (typeof value !== 'number') return undefined;
  if (!Number.isFinite(value)) return `${String(value)} is not a number JSON can hold (${DATA})`;
  if (
    !Number.isSafeInteger(value) &&
    Number.isInteger(value) &&
    typeof source === 'string' &&
    INTEGER_SOURCE.test(source)
  ) {
    return 'integer too large to be exact (over 2^53): quote it if it is text';
  }
  return undefined;
}

const isMergeKey = (key: unknown): boolean =>
  isScalar(key) && typeof key.value === 'symbol' && key.value.description === '<<';

/**
 * The problems of `doc`, each at its node, by offset. One walk in the order of yaml's `visit` (a pair, then its
 * key, then its value), without `visit`'s frozen path per node: reading a large file cold, that was a tenth of
 * the parse.
 */
export function unsupportedNodes(doc: Document): NodeProblem[] {
  const problems: NodeProblem[] = [];
  const add = (node: unknown, message: string): void => void problems.push({ offset: startOf(node), message });
  const resolve = aliasResolver(doc);
  const resolved = (node: unknown): unknown => (isAlias(node) ? resolve(node) : node);
  /** The collections around the node walked (an alias naming one of them is a cycle). */
  const ancestors: Node[] = [];
  const pairProblems = (pair: Pair): void => {
    const key = resolved(pair.key);
    if (isMap(key) || isSeq(key)) add(pair.key, 'a mapping key must be a plain value, not a list or mapping');
    if (!isMergeKey(pair.key)) return;
    const value = resolved(pair.value);
    const sources = isSeq(value) ? value.items : [pair.value];
    // Reached through an alias, the problem is reported at the alias (where the merge is written).
    const at = (source: unknown): unknown => (isAlias(pair.value) ? pair.value : (source ?? pair.key));
    for (const source of sources)
      if (!isMap(resolved(source))) add(at(source), 'a merge (<<) takes a mapping, or a list of mappings');
  };
  const walk = (node: unknown): void => {
    if (isPair(node)) {
      pairProblems(node);
      walk(node.key);
      walk(node.value);
      return;
    }
    if (isAlias(node)) {
      const target = resolve(node);
      if (target !== undefined && ancestors.includes(target))
        add(node, `alias *${node.source} is inside the node it names (a cycle)`);
      return;
    }
    if (!isScalar(node) && !isMap(node) && !isSeq(node)) return;
    const tag = node.tag;
    if (tag !== undefined && !CORE_TAGS.has(tag) && !(isScalar(node) && typeof node.value === 'symbol')) {
      add(
        node,
        `tag ${shortTag(tag)} is not supported (${DATA}; only the core tags !!str, !!int, !!float, !!bool, !!null, !!map and !!seq)`,
      );
      return;
    }
    if (isScalar(node)) {
      const problem = scalarProblem(node.value, node.source);
      if (problem) add(node, problem);
      return;
    }
    ancestors.push(node);
    for (const item of node.items as unknown[]) walk(item);
    ancestors.pop();
  };
  walk(doc.contents);
  return problems.sort((a, b) => a.offset - b.offset);
}

/**
 * What an alias names: the last node with its anchor before it (yaml's Alias.resolve, which walks the whole
 * document for each alias). The list of named nodes and aliases is made once, on the first alias.
 */
function aliasResolver(doc: Document): (alias: Alias) => Node | undefined {
  let named: Node[] | undefined;
  return (alias) => {
    if (!named) {
      const list: Node[] = [];
      visit(doc, { Node: (_key, node) => void ((isAlias(node) || node.anchor) && list.push(node)) });
      named = list;
    }
    let found: Node | undefined;
    for (const node of named) {
      if (node === alias) break;
      if (node.anchor === alias.source) found = node;
    }
    return found;
  };
}
