/**
 * Which values of a validated document hold secrets, as its JSON Schema says: the one place that says so is the
 * `x-secret` keyword on a field's schema (ajv ignores it; test/reliability/secret-schema-marks.test.ts makes
 * every secret-looking field carry it):
 *
 * - `"credential"`: the value is one of docops's own secrets (a webhook URL, the reconcile secret);
 * - `"payload"`: the value is a secret docops sends (a SAML certificate): src/secrets.ts keeps it in saved plans,
 *   journals and export, and redacts it from every message;
 * - `"env"`: the value names an environment variable whose value is a credential (a signing key's `secretEnv`);
 * - `"userinfo"`: the value is a URL whose `user:password@` part is a credential (the API URL);
 * - `false`: looked at, not a secret (a path to a secret file, a variable name; inside a marked field it unmarks
 *   a part, such as the `file` of a certificate read from a file).
 *
 * schema.ts registers every marked value before validation runs (so no message of any path — this validation's,
 * a later check's, an API's echo — shows it) and never quotes one in a validation message. A scalar written
 * where the schema expects an object or list holding secrets (`notify: "https://hooks…"`) counts as one of them.
 */
import type { Env } from './interpolate.js';
import type { DocPath } from './paths.js';
import { schemaText } from './schema-text.js';
import { MIN_SECRET, registerSecret, shownUrl, urlUserinfo } from '../secrets.js';
import { isRecord } from '../model/json.js';

export const SECRET_KEYWORD = 'x-secret';
export const SECRET_MARKS = ['credential', 'payload', 'env', 'userinfo', false] as const;
export type SecretMark = (typeof SECRET_MARKS)[number];

/** A marked place of a value: its path, the mark, and the value there. */
export interface MarkedValue {
  path: DocPath;
  mark: SecretMark;
  value: unknown;
}

type Node = Record<string, unknown>;

/** What the walk needs of one schema: each subschema's children (refs resolved) and the marks reachable from it. */
interface SchemaIndex {
  /** `$ref` → the schema it names, for every node holding one. */
  refs: Map<Node, Node>;
  /** Marks reachable from a node (false included: it unmarks a part of a marked field); computed on first ask. */
  reach: Map<Node, ReadonlySet<SecretMark>>;
  /** Whether any field is marked a secret (false marks alone mark nothing): most schemas are walked no further. */
  marks: boolean;
}

const indexes = new WeakMap<object, SchemaIndex>();

const isMark = (v: unknown): v is SecretMark => (SECRET_MARKS as readonly unknown[]).includes(v);

/** Keywords whose subschemas apply to the value itself. */
const SAME_VALUE = ['allOf', 'anyOf', 'oneOf', 'if', 'then', 'else'] as const;
/** Keywords whose subschemas apply to the value's parts (properties, items). */
const PARTS = [
  'properties',
  'patternProperties',
  'additionalProperties',
  'items',
  'additionalItems',
  'prefixItems',
] as const;
const CHILDREN = [...PARTS, ...SAME_VALUE] as const;

/**
 * Every `$ref` of the schema resolved to its target: `#/pointer` inside the resource (the root, or a schema with
 * its own `$id` embedded in it, like the config's safety schema), or another embedded resource by its `$id`.
 * Refs to schemas outside (the editor-only document schema's `./team.schema.json`) resolve to nothing.
 */
function schemaIndex(schema: object): SchemaIndex {
  let index = indexes.get(schema);
  if (index) return index;
  // Most schemas mark nothing: their text (made anyway to find their generated validator) says so; the walk
  // below would cost ~1.5 ms of a cold validate for Site's.
  if (!schemaText(schema).includes(`"${SECRET_KEYWORD}":"`)) {
    index = { refs: new Map(), reach: new Map(), marks: false };
    indexes.set(schema, index);
    return index;
  }
  const ids = new Map<string, Node>();
  const pending: { node: Node; ref: string; base: string; resource: Node }[] = [];
  let marks = false;
  const visit = (v: unknown, base: string, resource: Node): void => {
    if (Array.isArray(v)) return v.forEach((x) => visit(x, base, resource));
    if (!isRecord(v)) return;
    if (isMark(v[SECRET_KEYWORD]) && v[SECRET_KEYWORD] !== false) marks = true;
    let [b, r] = [base, resource];
    if (typeof v['$id'] === 'string') {
      b = new URL(v['$id'], base).href;
      r = v;
      ids.set(b, v);
    }
    if (typeof v['$ref'] === 'string') pending.push({ node: v, ref: v['$ref'], base: b, resource: r });
    for (const [k, x] of Object.entries(v))
      if (k !== 'enum' && k !== 'const' && k !== 'examples' && k !== 'default') visit(x, b, r);
  };
  visit(schema, 'schema:/root.json', schema as Node);
  const refs = new Map<Node, Node>();
  for (const { node, ref, base, resource } of marks ? pending : []) {
    const url = new URL(ref, base);
    const hash = url.hash;
    url.hash = '';
    const target = ref.startsWith('#') ? resource : ids.get(url.href);
    const found = target && hash.length > 1 ? pointer(target, decodeURIComponent(hash.slice(1))) : target;
    if (found) refs.set(node, found);
  }
  index = { refs, reach: new Map(), marks };
  indexes.set(schema, index);
  return index;
}

function pointer(root: Node, ptr: string): Node | undefined {
  let node: unknown = root;
  for (const raw of ptr.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return isRecord(node) ? node : undefined;
}

/** The subschemas of a node (its ref's target included). */
function children(index: SchemaIndex, node: Node): Node[] {
  const out: Node[] = [];
  const ref = index.refs.get(node);
  if (ref) out.push(ref);
  for (const k of CHILDREN) {
    const v = node[k];
    if (k === 'properties' || k === 'patternProperties') {
      if (isRecord(v)) out.push(...Object.values(v).filter(isRecord));
    } else if (Array.isArray(v)) {
      out.push(...v.filter(isRecord));
    } else if (isRecord(v)) {
      out.push(v);
    }
  }
  return out;
}

/** The marks reachable from `node` (itself included). */
function reachable(index: SchemaIndex, node: Node): ReadonlySet<SecretMark> {
  const known = index.reach.get(node);
  if (known) return known;
  const marks = new Set<SecretMark>();
  const seen = new Set<Node>([node]);
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    const mark = n[SECRET_KEYWORD];
    if (isMark(mark)) marks.add(mark);
    for (const c of children(index, n)) {
      if (seen.has(c)) continue;
      seen.add(c);
      stack.push(c);
    }
  }
  index.reach.set(node, marks);
  return marks;
}

/** Every marked place of `value` under `schema` (false marks included), outermost first. */
export function markedValues(schema: object, value: unknown): MarkedValue[] {
  const index = schemaIndex(schema);
  const out: MarkedValue[] = [];
  if (!index.marks) return out;
  const walk = (node: Node, v: unknown, path: DocPath, seen: Set<Node>): void => {
    if (seen.has(node) || reachable(index, node).size === 0) return;
    seen.add(node);
    const mark = node[SECRET_KEYWORD];
    if (isMark(mark)) out.push({ path, mark, value: v });
    const ref = index.refs.get(node);
    if (ref) walk(ref, v, path, seen);
    for (const k of SAME_VALUE) {
      const sub = node[k];
      const branches = Array.isArray(sub) ? sub.filter(isRecord) : isRecord(sub) ? [sub] : [];
      for (const s of branches) walk(s, v, path, seen);
    }
    if (Array.isArray(v)) walkItems(node, v, path);
    else if (isRecord(v)) walkProperties(node, v, path);
    else if (v !== undefined && v !== null && holdsParts(node)) {
      // A scalar where the schema wants a list or object holding secrets: it is likely one of them.
      const below = reachable(index, node);
      const as =
        below.has('credential') || below.has('userinfo') ? 'credential' : below.has('payload') ? 'payload' : undefined;
      if (as) out.push({ path, mark: as, value: v });
    }
  };
  const walkItems = (node: Node, v: unknown[], path: DocPath): void => {
    const tuple = Array.isArray(node['prefixItems'])
      ? node['prefixItems']
      : Array.isArray(node['items'])
        ? node['items']
        : undefined;
    const rest = tuple ? (Array.isArray(node['prefixItems']) ? node['items'] : node['additionalItems']) : node['items'];
    v.forEach((item, i) => {
      const s = tuple && i < tuple.length ? tuple[i] : rest;
      if (isRecord(s)) walk(s, item, [...path, i], new Set());
    });
  };
  const walkProperties = (node: Node, v: Node, path: DocPath): void => {
    const props = isRecord(node['properties']) ? node['properties'] : {};
    const patterns = isRecord(node['patternProperties']) ? Object.entries(node['patternProperties']) : [];
    for (const [k, x] of Object.entries(v)) {
      const named = props[k];
      const matching = patterns.filter(([p, s]) => isRecord(s) && new RegExp(p, 'u').test(k)).map(([, s]) => s as Node);
      const rest = node['additionalProperties'];
      const schemas = isRecord(named)
        ? [named, ...matching]
        : matching.length > 0
          ? matching
          : isRecord(rest)
            ? [rest]
            : [];
      for (const s of schemas) walk(s, x, [...path, k], new Set());
    }
  };
  walk(schema as Node, value, [], new Set());
  return out;
}

function holdsParts(node: Node): boolean {
  return PARTS.some((k) => isRecord(node[k]) || Array.isArray(node[k]));
}

/** The mark that decides the value at `path`: the innermost marked place at or above it (a hiding one on a tie). */
export function markAt(marked: readonly MarkedValue[], path: DocPath): SecretMark | undefined {
  let best: MarkedValue | undefined;
  for (const m of marked) {
    if (m.path.length > path.length || !m.path.every((seg, i) => seg === path[i])) continue;
    if (!best || m.path.length > best.path.length || (m.path.length === best.path.length && isHidden(m.mark))) best = m;
  }
  return best?.mark;
}

/** markAt for one value (tests, file-refs.ts). */
export function secretMarkAt(schema: object, value: unknown, path: DocPath): SecretMark | undefined {
  return markAt(markedValues(schema, value), path);
}

/** What a message says instead of a value it may not show ("(got a value not shown: …)"). */
export const NOT_SHOWN = 'not shown: the field holds a secret';

/** Whether the value itself is the secret (a credential or a payload): it decides a tie in markAt. */
export const isHidden = (mark: SecretMark | undefined): boolean => mark === 'credential' || mark === 'payload';

/**
 * How a message may quote a value with this mark: `{ value }` to quote, or undefined: not at all, whatever the value
 * looks like. Only unmarked values (and what a false mark unmarks) are quoted as they are. A credential or a
 * payload is the secret. An `env` value names a variable, but one refused for its shape is usually the token
 * written where the name belongs, and a token of letters, digits and `_` even reads as a name: none is quoted
 * (a message says which field, at its file:line:column). A `userinfo` value is quoted as a URL without its
 * `user:password@` when it starts with `scheme://`, never otherwise (secrets.ts, shownUrl).
 */
export function quotable(mark: SecretMark | undefined, value: unknown): { value: unknown } | undefined {
  if (mark === undefined || mark === false) return { value };
  if (mark === 'userinfo' && typeof value === 'string') {
    const url = shownUrl(value);
    return url === undefined ? undefined : { value: url };
  }
  return undefined;
}

export interface RegisterOptions {
  /** Where `env` marks are looked up. */
  env?: Env;
  /** Values of the variables interpolated into the document: one a secret value contains is registered too. */
  variables?: readonly string[];
}

/** Register every secret the marked places hold (src/secrets.ts), before anything can quote them. */
export function registerMarkedValues(marked: readonly MarkedValue[], options: RegisterOptions = {}): void {
  for (const m of marked) {
    if (m.mark === 'env') {
      if (typeof m.value === 'string') registerSecret(options.env?.[m.value]);
      continue;
    }
    if (m.mark === 'userinfo') {
      const info = typeof m.value === 'string' ? urlUserinfo(m.value) : undefined;
      // The whole `user:password`, and the password alone (as written and decoded).
      for (const part of info === undefined ? [] : [info, info.slice(info.indexOf(':') + 1)]) {
        registerSecret(part);
        registerSecret(decodeOrSelf(part));
      }
      continue;
    }
    if (m.mark === false) continue;
    for (const text of scalars(m.value, m.path, marked)) {
      registerSecret(text, m.mark);
      for (const v of options.variables ?? [])
        if (v.trim().length >= MIN_SECRET && text.includes(v.trim())) registerSecret(v, m.mark);
    }
  }
}

/**
 * A marked value the schema refused, registered whole: credentials and payloads are already, but an `env` value
 * refused for its shape is a token rather than a name (the variable's value is what registerMarkedValues
 * registers), and a `userinfo` value without `scheme://` has no credentials part to register; from now on no
 * message of the process shows either. A URL that reads as one keeps its shown form (its credentials are
 * registered already).
 */
export function registerRefused(marked: readonly MarkedValue[], path: DocPath, value: unknown): void {
  const mark = markAt(marked, path);
  if (mark === undefined || mark === false) return;
  if (mark === 'userinfo' && typeof value === 'string' && shownUrl(value) !== undefined) return;
  for (const text of scalars(value, path, marked)) registerSecret(text, mark === 'payload' ? 'payload' : 'credential');
}

function decodeOrSelf(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The scalars of a marked value as text, leaving out the parts a deeper false mark unmarks. */
function scalars(value: unknown, path: DocPath, marked: readonly MarkedValue[]): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  for (const [k, x] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(k) : k];
    if (markAt(marked, at) === false) continue;
    out.push(...scalars(x, at, marked));
  }
  return out;
}
