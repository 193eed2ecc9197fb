/**
 * The merge of a read-modify-write request (MergeSpec in plan.ts): a partial object laid over the object the
 * server answered, so that only the members a manifest manages change.
 */
import type { MergeSpec } from '../model/plan.js';
import { isRecord } from '../model/json.js';

const escapePointer = (k: string): string => k.replace(/~/g, '~0').replace(/\//g, '~1');
const keysOf = (pointer: string): string[] =>
  pointer
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));

function valueAt(root: unknown, keys: readonly string[]): unknown {
  let v = root;
  for (const k of keys) v = isRecord(v) ? v[k] : undefined;
  return v;
}

/** The parent object of `keys`' last member (made along the way when `make`), and that member's name. */
function parentOf(
  root: Record<string, unknown>,
  keys: readonly string[],
  make: boolean,
): Record<string, unknown> | undefined {
  let node = root;
  for (const k of keys.slice(0, -1)) {
    const next = node[k];
    if (isRecord(next)) node = next;
    else if (make) node = node[k] = {};
    else return undefined;
  }
  return node;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A `sets` delta `{add, remove}` applied to the list read: the removed items out, the added ones it lacks in. */
function applySet(read: unknown, delta: unknown): unknown[] {
  const list = Array.isArray(read) ? read : [];
  const add = isRecord(delta) && Array.isArray(delta['add']) ? delta['add'] : [];
  const remove = isRecord(delta) && Array.isArray(delta['remove']) ? delta['remove'] : [];
  const kept = list.filter((x) => !remove.some((r) => sameJson(r, x)));
  return [...kept, ...add.filter((a) => !kept.some((x) => sameJson(a, x)))];
}

/**
 * `read` with `patch` laid over it: plain objects merge member by member (recursively), except at the `whole`
 * pointers (where only the members docops does not know, `known`, are kept from what was read); every other patch
 * value (list, scalar, null) replaces the value read; a `sets` list is the list read with the patch's delta applied.
 * Then the `remove` members are deleted, the top-level `omit` members dropped, and with `pick` only the patch's own
 * top-level members and the picked ones kept. Neither input is changed.
 */
export function mergePatch(read: unknown, patch: unknown, spec: MergeSpec = {}): unknown {
  const whole = new Set(spec.whole ?? []);
  let laid = patch;
  if (isRecord(patch) && (spec.sets ?? []).length > 0) {
    const copy = structuredClone(patch);
    for (const pointer of spec.sets ?? []) {
      const keys = keysOf(pointer);
      const parent = parentOf(copy, keys, true)!;
      parent[keys[keys.length - 1]!] = applySet(valueAt(read, keys), valueAt(patch, keys));
    }
    laid = copy;
  }
  const merged = mergeAt(read, laid, '', whole, new Set(spec.known ?? []));
  if (!isRecord(merged)) return merged;
  for (const pointer of spec.remove ?? []) {
    const keys = keysOf(pointer);
    const parent = parentOf(merged, keys, false);
    if (parent) delete parent[keys[keys.length - 1]!];
  }
  for (const k of spec.omit ?? []) delete merged[k];
  if (spec.pick && isRecord(patch)) {
    const keep = new Set([...Object.keys(patch), ...spec.pick]);
    for (const k of Object.keys(merged)) if (!keep.has(k)) delete merged[k];
  }
  return merged;
}

function mergeAt(
  read: unknown,
  patch: unknown,
  pointer: string,
  whole: ReadonlySet<string>,
  known: ReadonlySet<string>,
): unknown {
  if (!isRecord(patch)) return structuredClone(patch);
  if (pointer !== '' && whole.has(pointer)) {
    const out = structuredClone(patch);
    // Replaced whole, except the members of what was read that docops does not know (see MergeSpec.known).
    const knows = [...known].some((p) => p.startsWith(`${pointer}/`));
    if (knows && isRecord(read))
      for (const [k, v] of Object.entries(read))
        if (!(k in out) && !known.has(`${pointer}/${escapePointer(k)}`)) out[k] = structuredClone(v);
    return out;
  }
  const out: Record<string, unknown> = isRecord(read) ? structuredClone(read) : {};
  for (const [k, v] of Object.entries(patch))
    out[k] = mergeAt(out[k], v, `${pointer}/${escapePointer(k)}`, whole, known);
  return out;
}
