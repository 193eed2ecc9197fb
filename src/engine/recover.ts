/**
 * After a create failed in a way that leaves open whether the server processed it, find out by reading the list
 * the object lives in and matching its items by identity (RecoverSpec in src/model/plan.ts). Pure matching plus
 * one list read; deciding what to do with the answer is apply's.
 */
import type { ApiClient } from '../model/api-client.js';
import { recoverPath, type RecoverMatch, type RecoverSpec } from '../model/plan.js';

export type Lookup =
  /** Exactly one listed item is the object: the create happened. */
  | { kind: 'found'; item: unknown }
  /** No listed item is: the create did not happen. */
  | { kind: 'absent' }
  /** More than one listed item has the identity: the caller must not guess. */
  | { kind: 'several'; ids: string[] }
  /** A batch create (`each`): per array of the body, the elements whose object is not listed; `total` elements in all. */
  | { kind: 'batch'; missing: { each: string; elements: unknown[] }[]; total: number };

/** Read the list of each spec (see recoverPath) and look for what the request with this resolved body creates. */
export async function findCreated(
  client: ApiClient,
  specs: readonly RecoverSpec[],
  path: string,
  body: unknown,
): Promise<Lookup> {
  const [first, ...more] = specs;
  if (!first) throw new Error('plan bug: a recover lookup without a RecoverSpec');
  if (first.each === undefined) {
    if (more.length > 0) throw new Error('plan bug: several RecoverSpecs on one request must each be a batch (each)');
    const hits = (await listed(client, first, path)).filter((item) => matchesAll(item, first, body));
    if (hits.length === 1) return { kind: 'found', item: hits[0] };
    if (hits.length === 0) return { kind: 'absent' };
    return { kind: 'several', ids: hits.map((h) => idOf(h) ?? '?') };
  }
  const missing: { each: string; elements: unknown[] }[] = [];
  let total = 0;
  for (const spec of specs) {
    if (spec.each === undefined)
      throw new Error('plan bug: several RecoverSpecs on one request must each be a batch (each)');
    const elements = valueAt(body, spec.each);
    if (!Array.isArray(elements))
      throw new Error(`plan bug: recover.each ${spec.each} is not an array in the request body`);
    const items = await listed(client, spec, path);
    const left: unknown[] = [];
    for (const element of elements) {
      const hits = items.filter((item) => matchesAll(item, spec, element));
      if (hits.length > 1) return { kind: 'several', ids: hits.map((h) => idOf(h) ?? '?') };
      if (hits.length === 0) left.push(element);
    }
    missing.push({ each: spec.each, elements: left });
    total += elements.length;
  }
  return { kind: 'batch', missing, total };
}

/** The items of the spec's list, less the ones it excludes (objects the plan's live read had). */
async function listed(client: ApiClient, spec: RecoverSpec, path: string): Promise<unknown[]> {
  const exclude = new Set(spec.exclude ?? []);
  return (await client.listAll<unknown>(recoverPath(spec, path))).filter((item) => !exclude.has(idOf(item) ?? ''));
}

const matchesAll = (item: unknown, spec: RecoverSpec, source: unknown): boolean =>
  spec.match.every((m) => matches(item, m, source));

function matches(item: unknown, m: RecoverMatch, source: unknown): boolean {
  return m.not === true ? !equals(item, m, source) : equals(item, m, source);
}

function equals(item: unknown, m: RecoverMatch, source: unknown): boolean {
  const have = pick(item, m.field);
  const want = m.body !== undefined ? valueAt(source, m.body) : m.value;
  if (want === undefined || want === null) return have === undefined || have === null;
  if (m.ignoreCase === true && typeof have === 'string' && typeof want === 'string')
    return have.toLowerCase() === want.toLowerCase();
  if (typeof want === 'object') return JSON.stringify(have) === JSON.stringify(want);
  return have === want;
}

function idOf(item: unknown): string | undefined {
  const id = pick(item, 'id');
  return typeof id === 'string' ? id : undefined;
}

/** A dotted path into a JSON value (`id`, `siteSpaces.0.id`). */
export function pick(value: unknown, at: string): unknown {
  let v: unknown = value;
  for (const part of at.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** A JSON pointer (RFC 6901) into a JSON value; '' is the value itself. */
export function valueAt(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let v: unknown = value;
  for (const raw of pointer.split('/').slice(1)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return v;
}

/** A copy of `body` with the array at `pointer` replaced by `elements`; left out when there are none (the API refuses an empty list). */
export function withElements(body: unknown, pointer: string, elements: unknown[]): unknown {
  if (pointer === '') return elements;
  const copy = structuredClone(body) as Record<string, unknown>;
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let parent: Record<string, unknown> = copy;
  for (const p of parts.slice(0, -1)) parent = parent[p] as Record<string, unknown>;
  const last = parts[parts.length - 1]!;
  if (elements.length === 0) delete parent[last];
  else parent[last] = elements;
  return copy;
}
