/**
 * Reading an organization for export, through the kinds' own fetch functions. Pass 1 fetches each kind as if
 * one document wrote every field (that lists everything); each next pass fetches as if the documents the
 * previous pass exported (again with every field written) were the manifests, which reads per-object detail
 * such as team member lists. Passes repeat until the exported documents stop changing. All passes share one
 * memoised fetch context, so a later pass only sends the requests the earlier ones did not.
 */
import type { ApiClient } from '../model/api-client.js';
import { createFetchContext } from '../engine/fetch-context.js';
import { orgIsUnknown } from '../engine/unknown-org.js';
import { UsageError } from '../model/errors.js';
import { unknownOrgMessage } from '../model/unknown-org.js';
import type { KindDefinition, LiveKindState } from '../model/kind.js';
import { canonicalJson } from '../plan-file/canonical.js';
import { probeEntries } from './probe.js';

export const MAX_PASSES = 5;

export interface KindExport {
  kind: KindDefinition;
  live: LiveKindState;
  documents: object[];
}

export interface ReadOptions {
  /** Called when a pass starts (1-based). */
  onPass?: (pass: number) => void;
}

const specOf = (doc: object): Record<string, unknown> => (doc as { spec?: Record<string, unknown> }).spec ?? {};

export async function readForExport(
  client: ApiClient,
  kinds: readonly KindDefinition[],
  org: string,
  options: ReadOptions = {},
): Promise<KindExport[]> {
  const exportable = kinds.filter((k) => k.export !== undefined);
  const ctx = createFetchContext(client, () => false);
  let specs: Record<string, unknown>[][] = exportable.map(() => [{}]);
  let previous = '';
  let result: KindExport[] = [];
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    options.onPass?.(pass);
    const states = await Promise.all(
      exportable.map((k, i) => k.fetch(ctx, org, probeEntries(k, org, specs[i]!))),
    ).catch(async (err: unknown) => {
      // `--org` naming an organization the API does not know: say so, not the 404 of whichever list came first.
      throw (await orgIsUnknown(ctx, org, err)) ? new UsageError(`--org ${org}: ${unknownOrgMessage(org)}`) : err;
    });
    result = exportable.map((kind, i) => ({ kind, live: states[i]!, documents: kind.export!(org, states[i]!) }));
    const current = canonicalJson(result.map((r) => r.documents));
    if (current === previous) break;
    previous = current;
    specs = result.map((r) => r.documents.map(specOf));
  }
  return result;
}
