/**
 * Reads started before the manifests are validated. Loading a large organization's manifests (parsing them,
 * checking every document against its schema) takes a CPU-bound while; the organization-wide lists every plan
 * reads do not depend on what the documents say, only on which kinds they hold in which organizations. So once
 * the files are parsed, each kind's `prefetch` (KindDefinition) starts those reads, and they travel while the
 * documents are validated; the plan's fetch then finds them in the shared memo (fetch-context.ts).
 *
 * Only documents that look like manifests count: `apiVersion: docops/v1`, a registered kind and an organization
 * id that is a plain id (a file a manifest names as data — an OpenAPI spec, a brand — is not one). If validation
 * then fails, the command stops and the reads' results are dropped: they were reads.
 */
import type { ParsedYamlDoc } from '../manifests/parse-input.js';
import { createFetchContext, type ReadMemo } from './fetch-context.js';
import type { ApiClient } from '../api/types.js';
import type { KindDefinition } from './kind.js';

/** Organization ids as the envelope schema takes them (schemas/document.schema.json: letters, digits, `_`, `-`). */
const ORG_ID = /^[a-zA-Z0-9_-]+$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The (kind, organization) pairs parsed documents name, each once, in the order first named. */
export function namedScopes(documents: readonly ParsedYamlDoc[], registered: readonly KindDefinition[]): { kind: KindDefinition; org: string }[] {
  const kinds = new Map(registered.map((k) => [k.kind, k]));
  const seen = new Set<string>();
  const out: { kind: KindDefinition; org: string }[] = [];
  for (const d of documents) {
    const v = d.value;
    if (!isObject(v) || v['apiVersion'] !== 'docops/v1' || typeof v['kind'] !== 'string' || !isObject(v['metadata'])) continue;
    const org = v['metadata']['organization'];
    const kind = kinds.get(v['kind']);
    if (!kind || typeof org !== 'string' || !ORG_ID.test(org)) continue;
    const key = `${kind.kind}\u0000${org}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ kind, org });
  }
  return out;
}

/**
 * Start the prefetch reads of these scopes through `client`; the memo to hand to computePlan (PlanOptions.reads)
 * with the same client. A failed read is not reported here: the fetch that awaits it fails as it would have.
 */
export function prefetchReads(client: ApiClient, scopes: readonly { kind: KindDefinition; org: string }[], memo: ReadMemo = new Map()): ReadMemo {
  const ctx = createFetchContext(client, () => {
    throw new Error('internal: a prefetch asked about prune');
  }, memo);
  for (const { kind, org } of scopes) {
    for (const read of kind.prefetch?.(ctx, org) ?? []) read.catch(() => {}); // awaited by fetch
  }
  return memo;
}
