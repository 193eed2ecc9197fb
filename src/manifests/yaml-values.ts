/**
 * YAML that is valid but is not JSON data, found in the parsed document before `toJS` runs: a list or mapping
 * as a key (the library would stringify it and print a warning), explicit tags beyond the core ones (`!!binary`,
 * `!!timestamp`, `!!set`, `!!omap`, `!!pairs` make Buffers, Dates, Sets, Maps), numbers JSON cannot hold
 * exactly (`.nan`, `.inf`, integers past 2^53), a merge (`<<`) of something that is not a mapping, and an
 * alias inside the node it names (a cycle, which would never end when read). Each is a problem at its node,
 * in docops's words.
 */
import { isAlias, isMap, isScalar, isSeq, visit, type Document, type Node } from 'yaml';

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
  if (!Number.isSafeInteger(value) && Number.isInteger(value) && typeof source === 'string' && INTEGER_SOURCE.test(source)) {
    return 'integer too large to be exact (over 2^53): quote it if it is text';
  }
  return undefined;
}

const isMergeKey = (key: unknown): boolean => isScalar(key) && typeof key.value === 'symbol' && key.value.description === '<<';

export function unsupportedNodes(doc: Document): NodeProblem[] {
  const problems: NodeProblem[] = [];
  const add = (node: unknown, message: string): void => void problems.push({ offset: startOf(node), message });
  const resolved = (node: unknown): unknown => (isAlias(node) ? node.resolve(doc) : node);
  visit(doc, {
    Alias(_key, alias, path) {
      const target = alias.resolve(doc);
      if (target !== undefined && path.includes(target)) add(alias, `alias *${alias.source} is inside the node it names (a cycle)`);
    },
    Pair(_key, pair) {
      const key = resolved(pair.key);
      if (isMap(key) || isSeq(key)) add(pair.key, 'a mapping key must be a plain value, not a list or mapping');
      if (!isMergeKey(pair.key)) return;
      const value = resolved(pair.value);
      const sources = isSeq(value) ? value.items : [pair.value];
      // Reached through an alias, the problem is reported at the alias (where the merge is written).
      const at = (source: unknown): unknown => (isAlias(pair.value) ? pair.value : (source ?? pair.key));
      for (const source of sources) if (!isMap(resolved(source))) add(at(source), 'a merge (<<) takes a mapping, or a list of mappings');
    },
    Node(_key, node) {
      const tag = node.tag;
      if (tag !== undefined && !CORE_TAGS.has(tag) && !(isScalar(node) && typeof node.value === 'symbol')) {
        add(node, `tag ${shortTag(tag)} is not supported (${DATA}; only the core tags !!str, !!int, !!float, !!bool, !!null, !!map and !!seq)`);
        return visit.SKIP;
      }
      if (isScalar(node)) {
        const problem = scalarProblem(node.value, node.source);
        if (problem) add(node, problem);
      }
      return undefined;
    },
  });
  return problems.sort((a, b) => a.offset - b.offset);
}
