/**
 * `${VAR}` / `${VAR:-default}` interpolation in string scalars, done on the YAML tree so every scalar keeps
 * its source position. `$${` is a literal `${`. Keys are never interpolated.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, parse, type Document, type Node, type Scalar } from 'yaml';

export type Env = Readonly<Record<string, string | undefined>>;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export type InterpolationResult = { value: string; changed: boolean } | { errors: string[] };

/** Substitute variables in one string. Errors name the variable (or quote the malformed reference). */
export function interpolateString(input: string, env: Env): InterpolationResult {
  if (!input.includes('${')) return { value: input, changed: false };
  let out = '';
  const errors: string[] = [];
  let i = 0;
  while (i < input.length) {
    if (input.startsWith('$${', i)) {
      out += '${';
      i += 3;
      continue;
    }
    if (!input.startsWith('${', i)) {
      out += input[i];
      i++;
      continue;
    }
    const close = input.indexOf('}', i + 2);
    if (close < 0) {
      errors.push(`unterminated variable reference "${input.slice(i)}" (write $\${ for a literal \${)`);
      break;
    }
    const body = input.slice(i + 2, close);
    const sep = body.indexOf(':-');
    const name = sep < 0 ? body : body.slice(0, sep);
    if (!NAME.test(name)) {
      errors.push(`invalid variable reference "\${${body}}" (names are [A-Za-z_][A-Za-z0-9_]*; write $\${ for a literal \${)`);
    } else {
      const value = env[name];
      if (sep >= 0) out += value === undefined || value === '' ? body.slice(sep + 2) : value;
      else if (value === undefined) errors.push(`environment variable "${name}" is not set`);
      else out += value;
    }
    i = close + 1;
  }
  return errors.length > 0 ? { errors } : { value: out, changed: true };
}

/**
 * A plain (unquoted) scalar made of a substitution gets its type the way YAML would have resolved the
 * substituted text (`port: ${PORT}` → number). Quoted scalars and block scalars stay strings.
 */
export function resolvePlain(text: string): unknown {
  if (text.trim() === '') return text;
  try {
    const v: unknown = parse(text, { schema: 'core' });
    return typeof v === 'number' || typeof v === 'boolean' || v === null ? v : text;
  } catch {
    return text;
  }
}

/** Interpolate every string scalar value of a document in place; returns one error per bad reference. */
export function interpolateDocument(doc: Document, env: Env): { node: Node; message: string }[] {
  const problems: { node: Node; message: string }[] = [];
  const seen = new Set<Node>();
  const visitScalar = (node: Scalar): void => {
    if (typeof node.value !== 'string') return;
    const r = interpolateString(node.value, env);
    if ('errors' in r) for (const message of r.errors) problems.push({ node, message });
    else if (r.changed) node.value = node.type === 'PLAIN' ? resolvePlain(r.value) : r.value;
  };
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || isAlias(node)) return;
    if (seen.has(node as Node)) return;
    seen.add(node as Node);
    if (isScalar(node)) visitScalar(node);
    else if (isMap(node)) for (const pair of node.items) walk(isPair(pair) ? pair.value : null);
    else if (isSeq(node)) for (const item of node.items) walk(item);
  };
  walk(doc.contents);
  return problems;
}
