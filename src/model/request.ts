/**
 * What a plan's step sends: its requests (method, path, body, where refs sit), and how apply writes them in bulk,
 * merges them with live values, waits for them to settle and recovers a write whose answer was lost. The plan
 * (plan.ts) is the steps; this is the vocabulary of one request. The types are generated from
 * schemas/plan.schema.json, which describes each of them (docs/dev/formats.md).
 */

/** The API's methods, shared with the sandbox (@docops/api-shared). */
export type { HttpMethod } from '@docops/api-shared';

export type {
  BatchSpec,
  JoinSpec,
  MergeSpec,
  RecoverMatch,
  RecoverSpec,
  RefSlot,
  RefusedWhen,
  RequestSpec,
  SettleSpec,
} from './generated/plan.js';
import type { RecoverSpec, RequestSpec } from './generated/plan.js';

/** A request's RecoverSpecs (none, one or several) as a list. */
export function recoverSpecs(r: Pick<RequestSpec, 'recover'>): RecoverSpec[] {
  return r.recover === undefined ? [] : Array.isArray(r.recover) ? r.recover : [r.recover];
}

/** The path of the list a RecoverSpec reads, for a request whose path (refs filled) is `path`. */
export const recoverPath = (spec: RecoverSpec, path: string): string => (spec.path ?? path) + (spec.suffix ?? '');
