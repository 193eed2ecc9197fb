/**
 * The merge of a read-modify-write request (MergeSpec in plan.ts): a partial object laid over the object the
 * server answered, so that only the members a manifest manages change.
 */
import type { MergeSpec } from '../model/plan.js';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const escapePointer = (k: string): string => k.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * `read` with `patch` laid over it: plain objects merge member by member (recursively), except at the `whole`
 * pointers (where only the members docops does not know, `known`, are kept from what was read); every other patch
 * value (list, scalar, null) replaces the value read. Top-level `omit` members are dropped. Neither input is changed.
 */
export function mergePatch(read: unknown, patch: unknown, spec: MergeSpec = {}): unknown {
  const whole = new Set(spec.whole ?? []);
  const merged = mergeAt(read, patch, '', whole, new Set(spec.known ?? []));
  if (!isPlainObject(merged)) return merged;
  for (const k of spec.omit ?? []) delete merged[k];
  return merged;
}

function mergeAt(
  read: unknown,
  patch: unknown,
  pointer: string,
  whole: ReadonlySet<string>,
  known: ReadonlySet<string>,
): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  if (pointer !== '' && whole.has(pointer)) {
    const out = structuredClone(patch);
    // Replaced whole, except the members of what was read that docops does not know (see MergeSpec.known).
    const knows = [...known].some((p) => p.startsWith(`${pointer}/`));
    if (knows && isPlainObject(read))
      for (const [k, v] of Object.entries(read))
        if (!(k in out) && !known.has(`${pointer}/${escapePointer(k)}`)) out[k] = structuredClone(v);
    return out;
  }
  const out: Record<string, unknown> = isPlainObject(read) ? structuredClone(read) : {};
  for (const [k, v] of Object.entries(patch))
    out[k] = mergeAt(out[k], v, `${pointer}/${escapePointer(k)}`, whole, known);
  return out;
}
