/**
 * The parts of `${VAR}` interpolation (interpolate.ts) that need the `yaml` package: typing a substituted plain
 * scalar the way YAML would, and interpolating a `yaml` Document in place.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, type Document, type Node, type Scalar } from 'yaml';
import { interpolateString, type VarSource } from './interpolate.js';

/**
 * A plain (unquoted) scalar made of a substitution gets its type the way YAML would have resolved the
 * substituted text (`port: ${PORT}` → number). Quoted scalars and block scalars stay strings.
 */
function resolvePlain(text: string): unknown {
  if (text.trim() === '') return text;
  // logLevel 'error': the library never prints; text it would warn or fail about stays text.
  const doc = parseDocument(text, { schema: 'core', logLevel: 'error' });
  if (doc.errors.length > 0 || doc.warnings.length > 0) return text;
  let v: unknown;
  try {
    v = doc.toJS();
  } catch {
    return text;
  }
  // Only what JSON holds exactly: `.nan`, `.inf` and integers past 2^53 stay text.
  if (typeof v === 'number') return Number.isFinite(v) && (!Number.isInteger(v) || Number.isSafeInteger(v)) ? v : text;
  return typeof v === 'boolean' || v === null ? v : text;
}

/** Interpolate every string scalar value of a document in place; returns one error per bad reference. */
export function interpolateDocument(doc: Document, vars: VarSource): { node: Node; message: string }[] {
  const problems: { node: Node; message: string }[] = [];
  const visitScalar = (node: Scalar): void => {
    if (typeof node.value !== 'string') return;
    const r = interpolateString(node.value, vars);
    if ('errors' in r) for (const message of r.errors) problems.push({ node, message });
    else if (r.changed) node.value = node.type === 'PLAIN' ? resolvePlain(r.value) : r.value;
  };
  const walk = (node: unknown): void => {
    // Aliases are skipped: the node they name is interpolated where it is written.
    if (node === null || typeof node !== 'object' || isAlias(node)) return;
    if (isScalar(node)) visitScalar(node);
    else if (isMap(node)) for (const pair of node.items) walk(isPair(pair) ? pair.value : null);
    else if (isSeq(node)) for (const item of node.items) walk(item);
  };
  walk(doc.contents);
  return problems;
}
