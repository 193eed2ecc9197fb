/**
 * After a create failed in a way that leaves open whether the server processed it, find out by reading the list
 * the object lives in and matching its items by identity (RecoverSpec in src/core/plan.ts). Pure matching plus
 * one list read; deciding what to do with the answer is apply's.
 */
import type { ApiClient } from '../api/types.js';
import type { RecoverMatch, RecoverSpec } from './plan.js';

export type Lookup =
  /** Exactly one listed item is the object: the create happened. */
  | { kind: 'found'; item: unknown }
  /** No listed item is: the create did not happen. */
  | { kind: 'absent' }
  /** More than one listed item has the identity: the caller must not guess. */
  | { kind: 'several'; ids: string[] }
  /** A batch create (`each`): the elements whose object is not listed, of `total`. */
  | { kind: 'batch'; missing: unknown[]; total: number };

/** Read `path` (the list) and look for what the request with this resolved body creates. */
export async function findCreated(client: ApiClient, spec: RecoverSpec, path: string, body: unknown): Promise<Lookup> {
  const exclude = new Set(spec.exclude ?? []);
  const items = (await client.listAll<unknown>(spec.path ?? path)).filter((item) => !exclude.has(idOf(item) ?? ''));
  const matching = (source: unknown): unknown[] => items.filter((item) => spec.match.every((m) => matches(item, m, source)));

  if (spec.each === undefined) {
    const hits = matching(body);
    if (hits.length === 1) return { kind: 'found', item: hits[0] };
    if (hits.length === 0) return { kind: 'absent' };
    return { kind: 'several', ids: hits.map((h) => idOf(h) ?? '?') };
  }
  const elements = valueAt(body, spec.each);
  if (!Array.isArray(elements)) throw new Error(`plan bug: recover.each ${spec.each} is not an array in the request body`);
  const missing: unknown[] = [];
  for (const element of elements) {
    const hits = matching(element);
    if (hits.length > 1) return { kind: 'several', ids: hits.map((h) => idOf(h) ?? '?') };
    if (hits.length === 0) missing.push(element);
  }
  return { kind: 'batch', missing, total: elements.length };
}

function matches(item: unknown, m: RecoverMatch, source: unknown): boolean {
  const have = pick(item, m.field);
  const want = m.body !== undefined ? valueAt(source, m.body) : m.value;
  if (want === undefined || want === null) return have === undefined || have === null;
  if (m.ignoreCase === true && typeof have === 'string' && typeof want === 'string') return have.toLowerCase() === want.toLowerCase();
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

/** A copy of `body` with the array at `pointer` replaced by `elements`. */
export function withElements(body: unknown, pointer: string, elements: unknown[]): unknown {
  if (pointer === '') return elements;
  const copy = structuredClone(body) as Record<string, unknown>;
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let parent: Record<string, unknown> = copy;
  for (const p of parts.slice(0, -1)) parent = parent[p] as Record<string, unknown>;
  parent[parts[parts.length - 1]!] = elements;
  return copy;
}
