/** Paths inside a parsed document, and how they are written in messages (`spec.members[3].role`). */

export type DocPath = (string | number)[];

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** `prefix` followed by the path in dotted/bracket form; `spec` + ['members', 3] → `spec.members[3]`. */
export function formatPath(prefix: string, path: DocPath): string {
  let out = prefix;
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (IDENTIFIER.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/**
 * Turn an ajv instancePath (JSON pointer) into a path, using the validated value to tell array indices
 * (numbers) from object keys that merely look like numbers.
 */
export function pointerToPath(pointer: string, root: unknown): DocPath {
  if (pointer === '') return [];
  const path: DocPath = [];
  let node: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(key)) {
      const index = Number(key);
      path.push(index);
      node = node[index];
    } else {
      path.push(key);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return path;
}

/** The value at `path`, or undefined. */
export function valueAt(root: unknown, path: DocPath): unknown {
  let node = root;
  for (const seg of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[seg];
  }
  return node;
}

/** A short description of a value for "(got …)" in messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? value.slice(0, 57) + '...' : value);
  return String(value);
}

/** JSON-ish type name of a value, as used by JSON Schema `type`. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
