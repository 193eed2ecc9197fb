/**
 * Live values docops does not know, in a document made from live state (export, undo): a value outside an enum of
 * the kind's schema, or a field the schema does not have — what a newer API sends. Written as they are, the
 * document would not validate (docops's own schema refuses them); written as some known value, they would be
 * silently changed by the next apply. So each is set aside: the smallest field around it that a document may leave
 * out (not required, no default that would then apply; never a list item, whose absence means something) is left
 * out — docops then does not manage it and leaves it as it is — and the file says so in a comment, with the value
 * as the API sent it (the commented YAML can be restored by hand once docops knows the value).
 *
 * The set-aside field stays in the document in-band, under a key no real field can have (UNKNOWN_MARK), so it
 * follows the document through layout and splitting; `renderWithNotes` turns it into the comment.
 */
import { Document, isMap, isSeq, stringify } from 'yaml';
import type { ErrorObject } from 'ajv';
import { selectErrors } from './ajv-messages.js';
import { formatPath, pointerToPath, valueAt, type DocPath } from './paths.js';
import { compileSchema } from './schema.js';
import { isRecord } from '../model/json.js';

/** Prefix of the key a set-aside field is kept under in its parent object (a NUL: no YAML or API key has one). */
export const UNKNOWN_MARK = '\u0000unknown:';
/** What the comment says; docs/export.md quotes it. */
export const UNKNOWN_NOTE = 'docops does not know';

/** A field set aside: its value as answered, and the value inside it docops does not know (when not the field itself). */
export interface SetAside {
  value: unknown;
  /** Relative to the field: where the unknown value is ([] for the field itself), and whether it is a field name. */
  at: DocPath;
  unknown: unknown;
  field: boolean;
}

/** The kinds of schema errors a newer API's value makes: a value outside an enum, a field (or name) not in it. */
function unknownAt(e: ErrorObject, value: unknown): { path: DocPath; field: boolean } | undefined {
  const base = pointerToPath(e.instancePath, value);
  if (e.propertyName !== undefined) return { path: [...base, e.propertyName], field: true };
  if (e.keyword === 'additionalProperties')
    return { path: [...base, String((e.params as { additionalProperty: string }).additionalProperty)], field: true };
  if (e.keyword === 'enum' || e.keyword === 'const') return { path: base, field: false };
  return undefined;
}

/** The subschema at `path` where it can be told (properties, items, $ref, if/then/else), else undefined. */
function schemaAt(root: Record<string, unknown>, schema: unknown, path: DocPath): Record<string, unknown> | undefined {
  let node = resolve(root, schema);
  for (const seg of path) {
    if (!node) return undefined;
    const branches = [node, resolve(root, node['then']), resolve(root, node['else'])].filter(isRecord);
    const props = branches.map((b) => b['properties']).find((p) => isRecord(p) && typeof seg === 'string' && seg in p);
    if (typeof seg === 'number') node = resolve(root, branches.map((b) => b['items']).find(isRecord));
    else node = isRecord(props) ? resolve(root, props[seg]) : undefined;
  }
  return node;
}

function resolve(root: Record<string, unknown>, node: unknown): Record<string, unknown> | undefined {
  if (!isRecord(node)) return undefined;
  const ref = node['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
  const target = valueAt(
    root,
    ref
      .slice(2)
      .split('/')
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~')),
  );
  return isRecord(target) ? target : undefined;
}

const selected = (validate: ReturnType<typeof compileSchema>, value: unknown): ErrorObject[] =>
  validate(value) ? [] : selectErrors(validate.errors ?? []);

/**
 * `spec` (a copy) with every value docops does not know set aside (see the module comment); what could not be set
 * aside (it is not a field a document may leave out) stays, for the validation that follows to report.
 */
export function setAsideUnknown(spec: unknown, schema: object): { spec: unknown; count: number } {
  const validate = compileSchema(schema);
  if (validate(spec)) return { spec, count: 0 }; // the common case: nothing copied
  const root = schema as Record<string, unknown>;
  const out = structuredClone(spec);
  const tried = new Set<string>();
  // Set aside while validating (no marks in the way), marked at the end.
  const pending: Pending[] = [];
  for (let round = 0; round < 100; round++) {
    const errors = selected(validate, out);
    const found = errors
      .map((e) => unknownAt(e, out))
      .find((u): u is { path: DocPath; field: boolean } => u !== undefined && !tried.has(JSON.stringify(u.path)));
    if (!found) break;
    tried.add(JSON.stringify(found.path));
    setAside(out, root, validate, found, pending);
  }
  for (const p of pending) {
    const parent = valueAt(out, p.path.slice(0, -1));
    if (isRecord(parent)) parent[`${UNKNOWN_MARK}${String(p.path[p.path.length - 1])}`] = p.aside;
  }
  return { spec: out, count: pending.length };
}

interface Pending {
  /** Where the field was. */
  path: DocPath;
  aside: SetAside;
}

const isEmptyObject = (v: unknown): boolean => isRecord(v) && Object.keys(v).length === 0;

const within = (path: DocPath, outer: DocPath): boolean =>
  path.length > outer.length && outer.every((seg, i) => path[i] === seg);

/** Leave out the smallest field around `found.path` a document may do without (none: nothing is done). */
function setAside(
  spec: unknown,
  root: Record<string, unknown>,
  validate: ReturnType<typeof compileSchema>,
  found: { path: DocPath; field: boolean },
  pending: Pending[],
): void {
  const { path } = found;
  const unknown = valueAt(spec, path);
  /** Whether the field at path[0..n) may be left out: then it is (deleted from `spec`), and its value returned. */
  const leaveOut = (n: number): { value: unknown } | undefined => {
    const key = path[n - 1];
    const parent = valueAt(spec, path.slice(0, n - 1));
    if (typeof key !== 'string' || !isRecord(parent) || !(key in parent)) return undefined;
    const own = schemaAt(root, root, path.slice(0, n));
    if (own && 'default' in own) return undefined; // leaving it out would mean the default, not "as it is"
    const value = parent[key];
    delete parent[key];
    const missing = selected(validate, spec).some(
      (e) =>
        e.keyword === 'required' &&
        (e.params as { missingProperty?: string }).missingProperty === key &&
        JSON.stringify(pointerToPath(e.instancePath, spec)) === JSON.stringify(path.slice(0, n - 1)),
    );
    if (!missing) return { value };
    parent[key] = value;
    return undefined;
  };
  for (let n = path.length; n > 0; n--) {
    let left = leaveOut(n);
    if (!left) continue;
    // An object left with nothing in it goes too, where it may (`styling: {}` manages nothing, and says less).
    while (n > 1 && isEmptyObject(valueAt(spec, path.slice(0, n - 1)))) {
      const holder = valueAt(spec, path.slice(0, n - 1)) as Record<string, unknown>;
      holder[String(path[n - 1])] = left.value;
      const outer = leaveOut(n - 1);
      if (!outer) {
        delete holder[String(path[n - 1])];
        break;
      }
      left = outer;
      n--;
    }
    const at = path.slice(0, n);
    const value = left.value;
    // Fields set aside earlier inside this one go back into it: the comment shows it whole.
    for (let i = pending.length - 1; i >= 0; i--) {
      const p = pending[i]!;
      if (!within(p.path, at)) continue;
      const rel = p.path.slice(at.length);
      const holder = valueAt(value, rel.slice(0, -1));
      if (isRecord(holder)) holder[String(rel[rel.length - 1])] = p.aside.value;
      pending.splice(i, 1);
    }
    pending.push({ path: at, aside: { value, at: path.slice(n), unknown, field: found.field } });
    return;
  }
}

/** One note: what docops does not know, and the field as it was, commented out. */
function noteLines(key: string, a: SetAside): string {
  const what = describeSetAside(key, a);
  const outcome = a.at.length > 0 ? `${key} is left out` : 'left out';
  const head = ` ${UNKNOWN_NOTE} ${what} — ${outcome}, so docops leaves it as it is`;
  const body = stringify({ [key]: withoutMarks(a.value) }, { lineWidth: 0 }).trimEnd();
  return [head, ...body.split('\n').map((l) => ` ${l}`)].join('\n');
}

/** `value` as the API sent it: fields set aside inside it (an earlier round) put back. */
function withoutMarks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMarks);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k.startsWith(UNKNOWN_MARK)) out[k.slice(UNKNOWN_MARK.length)] = withoutMarks((v as SetAside).value);
    else out[k] = withoutMarks(v);
  }
  return out;
}

/** Move the set-aside fields of every map in `node` into comments on that map. */
function toComments(node: unknown): void {
  if (isSeq(node)) {
    for (const item of node.items) toComments(item);
    return;
  }
  if (!isMap(node)) return;
  const notes: string[] = [];
  for (const pair of [...node.items]) {
    const k = (pair.key as { value?: unknown } | null)?.value;
    if (typeof k === 'string' && k.startsWith(UNKNOWN_MARK)) {
      const aside = (pair.value as { toJSON(): unknown }).toJSON() as SetAside;
      notes.push(noteLines(k.slice(UNKNOWN_MARK.length), aside));
      node.delete(k);
    } else toComments(pair.value);
  }
  if (notes.length > 0) node.comment = [node.comment, ...notes].filter((c) => c).join('\n');
}

/** A document as YAML (no `---`), its set-aside fields as comments where they were. */
export function renderWithNotes(doc: unknown, options: { lineWidth: number } = { lineWidth: 0 }): string {
  const text = JSON.stringify(doc);
  if (!text.includes(JSON.stringify(UNKNOWN_MARK).slice(1, -1))) return stringify(doc, options);
  const yaml = new Document(doc);
  toComments(yaml.contents);
  return yaml.toString(options);
}

/** A document (apiVersion, kind, metadata, spec) with the unknown values of its spec set aside. */
export function setAsideInDocument(doc: object, schema: object): object {
  if (!isRecord(doc) || !('spec' in doc)) return doc;
  const { spec, count } = setAsideUnknown(doc['spec'], schema);
  return count === 0 ? doc : { ...doc, spec };
}

/** The fields set aside in a document: where each was (its parent's path and its key), and what it holds. */
export function setAsideFields(doc: unknown, at: DocPath = []): { parent: DocPath; key: string; aside: SetAside }[] {
  if (Array.isArray(doc)) return doc.flatMap((v, i) => setAsideFields(v, [...at, i]));
  if (!isRecord(doc)) return [];
  return Object.entries(doc).flatMap(([k, v]) =>
    k.startsWith(UNKNOWN_MARK)
      ? [{ parent: at, key: k.slice(UNKNOWN_MARK.length), aside: v as SetAside }]
      : setAsideFields(v, [...at, k]),
  );
}

/** What a set-aside field says in one line: `members[1].role: "maintainer"`, `the field search`. */
export function describeSetAside(key: string, a: SetAside): string {
  const where = a.at.length === 0 ? key : formatPath(key, a.at);
  return a.field ? `the field ${where}` : `${where}: ${JSON.stringify(a.unknown)}`;
}
