/**
 * Minimal edits of a manifest file, through the `yaml` package's Document API: change what differs between a
 * document's spec as loaded and a target spec, and nothing else. A change of scalar values only is spliced into the
 * text at each value's own range (every other byte stays); a change of structure (a key or list item added or
 * removed) re-renders that one document, which keeps its comments, key order and flow or block style. The other
 * documents of the file are never touched.
 *
 * An edit is a list of operations, each with the value it expects to find: applied to another version of the file
 * (the default branch's), a value that differs there is a conflict, never overwritten.
 */
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, parseAllDocuments, stringify, type Document, type Node } from 'yaml';
import { isRecord } from '../model/json.js';

export type YamlPath = (string | number)[];

/** One change at `path` (below the document root): `before` what it must hold, `after` what it gets (undefined: absent). */
export interface EditOp {
  path: YamlPath;
  before: unknown;
  after: unknown;
}

/** Which document of a file an edit is for: found by kind, organization and title (or id) where its index moved. */
export interface DocumentRef {
  index: number;
  kind: string;
  org: string;
  /** spec.id when pinned, else spec.title: how the document is told apart from its neighbours. */
  identity?: string;
}

export type FileEdit =
  | { type: 'edit'; doc: DocumentRef; ops: EditOp[] }
  | { type: 'remove'; doc: DocumentRef }
  | { type: 'append'; value: Record<string, unknown> };

export type EditResult = { text: string } | { conflict: string };

/** The identity of an item of a list (`email`, `path`, `title` … or the scalar itself): how items are matched. */
export function itemIdentity(item: unknown): string | undefined {
  if (typeof item === 'string') return item;
  if (!isRecord(item)) return undefined;
  for (const k of ['email', 'path', 'title', 'name', 'space', 'id'])
    if (typeof item[k] === 'string') return `${k}:${item[k]}`;
  return undefined;
}

/**
 * The operations that turn `from` into `to` at `path`: per key of a map, per item of a list whose items keep their
 * identities and order (removed items and items appended at the end are operations of their own); anything else is
 * replaced whole.
 */
export function diffOps(from: unknown, to: unknown, path: YamlPath = []): EditOp[] {
  if (isDeepStrictEqual(from, to)) return [];
  if (isRecord(from) && isRecord(to)) {
    const ops: EditOp[] = [];
    for (const k of Object.keys(from))
      if (!(k in to)) ops.push({ path: [...path, k], before: from[k], after: undefined });
    for (const [k, v] of Object.entries(to)) ops.push(...diffOps(from[k], v, [...path, k]));
    return ops;
  }
  if (Array.isArray(from) && Array.isArray(to)) {
    const ids: (string | undefined)[] = from.map(itemIdentity);
    const kept = to.map(itemIdentity);
    const staying = ids.filter((id): id is string => id !== undefined && kept.includes(id));
    const appended = to.slice(staying.length);
    const sameOrder =
      ids.every((id) => id !== undefined) &&
      staying.every((id, i) => kept[i] === id) &&
      appended.every((x) => {
        const id = itemIdentity(x);
        return !ids.some((i) => i === id);
      });
    if (sameOrder) {
      const ops: EditOp[] = [];
      // Removals from the end, so the indexes of the items before stay right while they are applied.
      for (let i = from.length - 1; i >= 0; i--)
        if (!staying.includes(ids[i]!)) ops.push({ path: [...path, i], before: from[i], after: undefined });
      const stayingItems = from.filter((_, i) => staying.includes(ids[i]!));
      stayingItems.forEach((item, i) => ops.push(...diffOps(item, to[i], [...path, i])));
      appended.forEach((item, i) =>
        ops.push({ path: [...path, stayingItems.length + i], before: undefined, after: item }),
      );
      return ops;
    }
  }
  return [{ path, before: from, after: to }];
}

/** `ops` applied to a plain value (a copy): what the file's document reads as after applyFileEdits. */
export function applyOpsToValue(value: unknown, ops: readonly EditOp[]): unknown {
  const root: Record<string | number, unknown> = { v: structuredClone(value) as unknown };
  for (const op of ops) {
    const path: YamlPath = ['v', ...op.path];
    let parent = root;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
    const last = path.at(-1)!;
    if (op.after === undefined) {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (Array.isArray(parent) && op.before === undefined) parent.push(structuredClone(op.after));
    else parent[last] = structuredClone(op.after);
  }
  return root.v;
}

/** Apply `edits` (all for one file) to its text; a conflict when a document or a value is not what they expect. */
export function applyFileEdits(text: string, edits: readonly FileEdit[]): EditResult {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) return { conflict: 'the file holds no YAML documents' };
  const changed = new Set<number>();
  const removed = new Set<number>();
  // Where each edit's document is, found before any edit changes what identifies it (a title may be edited).
  const located = new Map<FileEdit, number>();
  for (const edit of edits) {
    if (edit.type === 'append') continue;
    const at = locate(docs, edit.doc);
    if (typeof at === 'string') return { conflict: at };
    located.set(edit, at);
  }
  let scalarOnly = true;
  for (const edit of edits) {
    if (edit.type === 'append') continue;
    const at = located.get(edit)!;
    if (edit.type === 'remove') {
      removed.add(at);
      continue;
    }
    const doc = docs[at]!;
    for (const op of edit.ops) {
      const full = ['spec', ...op.path];
      const have = valueAt(doc, full);
      if (isDeepStrictEqual(have, op.after)) continue; // the same change made there already
      if (!isDeepStrictEqual(have, op.before))
        return {
          conflict: `${describe(edit.doc)}: spec.${op.path.join('.')} is ${JSON.stringify(have)} there, not ${JSON.stringify(op.before)}`,
        };
      const node = doc.getIn(full, true) as Node | undefined;
      if (isScalar(node) && op.after !== undefined && !isRecord(op.after) && !Array.isArray(op.after))
        node.value = op.after;
      else {
        scalarOnly = false;
        if (op.after === undefined) doc.deleteIn(full);
        else if (typeof op.path.at(-1) === 'number' && op.before === undefined) {
          const list = doc.getIn(full.slice(0, -1), true) as { items: unknown[]; add(v: unknown): void };
          list.add(styledLike(doc.createNode(op.after), list.items.at(-1)));
        } else doc.setIn(full, styledLike(doc.createNode(op.after), node));
      }
    }
    changed.add(at);
  }
  let out =
    scalarOnly && removed.size === 0 ? spliceScalars(text, docs, located) : rerender(text, docs, changed, removed);
  for (const edit of edits) if (edit.type === 'append') out = appendDocument(out, edit.value);
  return { text: out };
}

function locate(docs: readonly Document.Parsed[], ref: DocumentRef): number | string {
  const matches = (d: Document.Parsed | undefined): boolean => {
    if (!d) return false;
    const v = d.toJS() as Record<string, unknown> | null;
    if (!isRecord(v) || v['kind'] !== ref.kind || !isRecord(v['metadata']) || v['metadata']['organization'] !== ref.org)
      return false;
    const spec = isRecord(v['spec']) ? v['spec'] : {};
    return ref.identity === undefined || spec['id'] === ref.identity || spec['title'] === ref.identity;
  };
  if (matches(docs[ref.index])) return ref.index;
  const found = docs.flatMap((d, i) => (matches(d) ? [i] : []));
  return found.length === 1
    ? found[0]!
    : `${describe(ref)} is ${found.length === 0 ? 'not in the file' : 'in the file more than once'}`;
}

const describe = (ref: DocumentRef): string =>
  `${ref.kind} ${ref.org}${ref.identity !== undefined ? `/${ref.identity}` : ''}`;

function valueAt(doc: Document, path: YamlPath): unknown {
  const node = doc.getIn(path, true) as Node | undefined;
  return node === undefined ? undefined : (node as { toJSON(): unknown }).toJSON();
}

/** A new node written as its neighbour (or predecessor) is: a flow map `{ … }` among flow maps. */
function styledLike<T>(node: T, like: unknown): T {
  if ((isMap(node) || isSeq(node)) && (isMap(like) || isSeq(like)) && like.flow) node.flow = true;
  return node;
}

/** Only scalars changed: each new value replaces its old one's text, in the same quoting style. */
function spliceScalars(text: string, docs: readonly Document.Parsed[], located: ReadonlyMap<FileEdit, number>): string {
  const cuts: { start: number; end: number; text: string }[] = [];
  for (const [edit, at] of located) {
    if (edit.type !== 'edit') continue;
    const doc = docs[at]!;
    for (const op of edit.ops) {
      const node = doc.getIn(['spec', ...op.path], true) as Node | undefined;
      if (!isScalar(node) || !node.range) continue;
      cuts.push({ start: node.range[0], end: node.range[1], text: scalarText(node.value, node.type) });
    }
  }
  cuts.sort((a, b) => b.start - a.start);
  let out = text;
  for (const c of cuts) out = out.slice(0, c.start) + c.text + out.slice(c.end);
  return out;
}

/** A value as a YAML scalar: in its old quoting style, plain when that reads back as the same value. */
function scalarText(value: unknown, type: string | undefined): string {
  if (typeof value !== 'string') return value === null ? 'null' : String(value);
  if (type === 'QUOTE_SINGLE') return `'${value.replace(/'/g, "''")}'`;
  if (type !== 'QUOTE_DOUBLE' && /^[A-Za-z0-9_@./][A-Za-z0-9_@./ -]*$/.test(value) && !value.endsWith(' ')) {
    const back = parseAllDocuments(value)[0]?.toJS() as unknown;
    if (back === value) return value;
  }
  return JSON.stringify(value);
}

/** Re-render the changed documents (their comments and layout kept by yaml) and drop the removed ones. */
function rerender(
  text: string,
  docs: readonly Document.Parsed[],
  changed: ReadonlySet<number>,
  removed: ReadonlySet<number>,
): string {
  const pieces: string[] = [];
  let last = 0;
  docs.forEach((doc, i) => {
    // A document's text runs from the end of the previous one (its `---` and leading comments included).
    const start = i === 0 ? 0 : docs[i - 1]!.range[2];
    const end = doc.range[2];
    pieces.push(text.slice(last, start));
    if (removed.has(i)) pieces.push('');
    else if (changed.has(i)) pieces.push(doc.toString({ lineWidth: 0 }));
    else pieces.push(text.slice(start, end));
    last = end;
  });
  pieces.push(text.slice(last));
  const out = pieces.join('');
  // Nothing but markers and comments left: the file goes (an empty file would be a load error).
  return out.replace(/^\s*(#.*)?$|^---\s*$/gm, '').trim() === '' ? '' : out;
}

/** A new document at the end of the file. */
export function appendDocument(text: string, value: Record<string, unknown>): string {
  const body = stringify(value, { lineWidth: 0 });
  if (text.trim() === '') return body;
  return `${text.endsWith('\n') ? text : `${text}\n`}---\n${body}`;
}
