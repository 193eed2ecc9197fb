/**
 * A site's customization (official spec `GET/PUT …/sites/{id}/customization`, the PUT takes the whole object).
 * The manifest's `customization:` block manages only the members it writes, at any depth: a nested member written
 * is compared, its siblings not written are not. A change is one PUT planned as a read-modify-write (MergeSpec in
 * src/model/plan.ts): the plan holds only the changed managed values; apply reads the live object right before the
 * PUT and sends it back with those values laid over it, so a member the manifest does not write keeps whatever
 * the server holds then, even when it changed after the plan was made. (The other design, a plan that captures the
 * whole object it fetched and refuses when it changed, would put live values nobody manages into the plan and fail
 * on any concurrent edit; and for a site the same plan creates there is nothing to capture.)
 *
 * Objects merge member by member, except those in CUSTOMIZATION_WHOLE (one of several shapes: a favicon `{icon}`
 * vs `{emoji}`, a content ref by `kind`, a font name vs a font definition), which, like lists, are replaced whole.
 */
import { newSiteCustomization } from '@docops/api-shared';
import type { RequestSpec } from '../../model/plan.js';
import { isRecord, sameValue } from '../common.js';
import { siteSchema } from '../generated/site.js';

/** Members (JSON pointers) whose object is replaced whole, never merged (the schema keeps their required members). */
export const CUSTOMIZATION_WHOLE = [
  '/favicon',
  '/header/primaryLink',
  '/announcement/link',
  '/styling/font',
  '/styling/headingFont',
  '/styling/monospaceFont',
];
/** What GET answers that PUT refuses. */
export const CUSTOMIZATION_READ_ONLY = ['updatedAt'];

/**
 * Per CUSTOMIZATION_WHOLE pointer, the members docops knows of the object there (every shape's, from the official
 * block in the site schema). Any other member is a newer API's: never compared, and kept by the PUT (MergeSpec.known).
 */
export const CUSTOMIZATION_KNOWN: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  CUSTOMIZATION_WHOLE.map((p) => [p, knownMembers(p)]),
);

function knownMembers(pointer: string): string[] {
  const definitions = isRecord(siteSchema['definitions']) ? siteSchema['definitions'] : {};
  const resolve = (n: unknown): Record<string, unknown> => {
    const ref = isRecord(n) && typeof n['$ref'] === 'string' ? n['$ref'].replace('#/definitions/', '') : undefined;
    const target = ref !== undefined ? definitions[ref] : n;
    return isRecord(target) ? target : {};
  };
  const shapes = (n: Record<string, unknown>): Record<string, unknown>[] => [
    n,
    ...['oneOf', 'anyOf'].flatMap((k) => (Array.isArray(n[k]) ? (n[k] as unknown[]).map(resolve) : [])),
  ];
  const propsOf = (n: Record<string, unknown>): Record<string, unknown> =>
    Object.assign({}, ...shapes(n).map((b) => (isRecord(b['properties']) ? b['properties'] : {})));
  let node = resolve(definitions['customization']);
  for (const k of pointer.split('/').slice(1)) node = resolve(propsOf(node)[k]);
  return Object.keys(propsOf(node));
}

/** A live value at `path` as docops compares it: at a whole pointer, only the members it knows. */
function comparable(path: readonly string[], have: unknown): unknown {
  const known = CUSTOMIZATION_KNOWN[pointerOf(path)];
  if (!known || !isRecord(have)) return have;
  return Object.fromEntries(Object.entries(have).filter(([k]) => known.includes(k)));
}

const escapePointer = (k: string): string => k.replace(/~/g, '~0').replace(/\//g, '~1');
const merges = (value: unknown, pointer: string): value is Record<string, unknown> =>
  isRecord(value) && !CUSTOMIZATION_WHOLE.includes(pointer);

interface Leaf {
  /** Member names from the root. */
  path: string[];
  value: unknown;
}

/** The written values, one per member compared as a whole (a scalar, a list, or an object replaced whole). */
function leaves(written: Record<string, unknown>, path: string[] = []): Leaf[] {
  const out: Leaf[] = [];
  for (const [k, v] of Object.entries(written)) {
    const at = [...path, k];
    if (merges(v, pointerOf(at))) out.push(...leaves(v, at));
    else out.push({ path: at, value: v });
  }
  return out;
}

const pointerOf = (path: readonly string[]): string => path.map((k) => `/${escapePointer(k)}`).join('');

function valueAt(root: unknown, path: readonly string[]): unknown {
  let v = root;
  for (const k of path) v = isRecord(v) ? v[k] : undefined;
  return v;
}

function setAt(root: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = root;
  for (const k of path.slice(0, -1)) {
    const next = node[k];
    node = isRecord(next) ? next : (node[k] = {});
  }
  node[path[path.length - 1]!] = value;
}

export interface CustomizationChange {
  /** The changed members as the server holds them (absent ones left out). */
  before: Record<string, unknown>;
  /** The changed members as written: the patch the PUT lays over the live object. */
  after: Record<string, unknown>;
}

/** The written members that differ from `live` (undefined when none does). A new site compares against nothing. */
export function customizationChange(written: Record<string, unknown>, live: unknown): CustomizationChange | undefined {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const leaf of leaves(written)) {
    const have = comparable(leaf.path, valueAt(live, leaf.path));
    if (sameValue(leaf.value, have)) continue;
    setAt(after, leaf.path, structuredClone(leaf.value));
    if (have !== undefined) setAt(before, leaf.path, structuredClone(have));
  }
  return Object.keys(after).length === 0 ? undefined : { before, after };
}

/** The PUT of a change: the patch, merged by apply into the object it reads right before sending. */
export function customizationRequest(path: string, patch: Record<string, unknown>): RequestSpec {
  const whole = CUSTOMIZATION_WHOLE.filter((p) => valueAt(patch, p.split('/').slice(1)) !== undefined);
  const known = whole.flatMap((p) => (CUSTOMIZATION_KNOWN[p] ?? []).map((m) => `${p}/${escapePointer(m)}`));
  return {
    method: 'PUT',
    path,
    body: patch,
    merge: { omit: CUSTOMIZATION_READ_ONLY, ...(whole.length > 0 ? { whole, known } : {}) },
  };
}

/**
 * The customization of a site nobody customized (what GET answers then, contract): export writes only the members
 * that differ from it.
 */
export const CREATED_SITE_CUSTOMIZATION: Readonly<Record<string, unknown>> = newSiteCustomization();

/** The live customization as a manifest writes it: the members that differ from a new site's (undefined when none). */
export function exportedCustomization(live: unknown): Record<string, unknown> | undefined {
  if (!isRecord(live)) return undefined;
  const out = differing(live, CREATED_SITE_CUSTOMIZATION, []);
  return Object.keys(out).length === 0 ? undefined : out;
}

function differing(live: Record<string, unknown>, base: unknown, path: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(live)) {
    const at = [...path, k];
    if (path.length === 0 && CUSTOMIZATION_READ_ONLY.includes(k)) continue;
    const was = isRecord(base) ? base[k] : undefined;
    if (merges(v, pointerOf(at)) && isRecord(was)) {
      const sub = differing(v, was, at);
      if (Object.keys(sub).length > 0) out[k] = sub;
    } else if (v !== undefined && !sameValue(v, was)) out[k] = structuredClone(v);
  }
  return out;
}
