/**
 * Organizations the API does not know (a mistyped `metadata.organization`): learnt from the 404 of a read a
 * kind's fetch makes anyway (the organization's own GET or one of its lists), confirmed by the organization's
 * GET (memoised: free when a kind read it already), so a no-op plan sends no request more. Every document naming
 * such an organization is blocked at its `metadata.organization` (Plan.blocked); the other organizations plan and
 * apply.
 */
import { basename } from 'node:path';
import type { DesiredEntry, FetchContext, KindDefinition, LiveKindState } from '../model/kind.js';
import type { ManifestDocument } from '../model/document.js';
import type { BlockedObject } from '../model/plan.js';
import type { DesiredState } from '../model/state.js';
import { isNotFound, mayBeUnknownOrg, organizationPath, unknownOrgMessage } from '../model/unknown-org.js';

/** The state fetchLive keeps for every kind of an organization the API does not know. */
export const orgNotFoundState = (): LiveKindState => ({ objects: [], orgNotFound: true });

/** Whether `err`, thrown by a kind's fetch in `org`, means the organization is unknown (its GET answers 404). */
export async function orgIsUnknown(ctx: FetchContext, org: string, err: unknown): Promise<boolean> {
  if (!mayBeUnknownOrg(err, org)) return false;
  try {
    await ctx.get(organizationPath(org));
    return false;
  } catch (again) {
    return isNotFound(again);
  }
}

/** One blocked object per document of (kind, org), at its `metadata.organization`. */
export function blockedDocuments(
  desired: DesiredState,
  kind: KindDefinition,
  org: string,
  entries: readonly DesiredEntry[],
): BlockedObject[] {
  const docs = new Set<ManifestDocument<unknown>>(entries.map((e) => e.doc));
  for (const d of desired.documents ?? []) if (d.kind === kind.kind && d.metadata.organization === org) docs.add(d);
  const message = unknownOrgMessage(org);
  return [...docs]
    .sort((a, b) => (a.file === b.file ? a.index - b.index : a.file < b.file ? -1 : 1))
    .map((doc) => {
      const pos = doc.pos(['metadata', 'organization']);
      const key = documentKey(doc, entries);
      return { kind: kind.kind, org, key, message, source: { file: pos.file, line: pos.line, column: pos.column } };
    });
}

/** The document's objects by key: the first, and how many more (its file and index when it has none). */
function documentKey(doc: ManifestDocument<unknown>, entries: readonly DesiredEntry[]): string {
  const own = entries.filter((e) => e.doc === doc);
  const top = own.filter((e) => e.kind === doc.kind);
  const keys = (top.length > 0 ? top : own).map((e) => e.key);
  if (keys.length === 0) return `${basename(doc.file)}#${doc.index + 1}`;
  return keys.length === 1 ? keys[0]! : `${keys[0]!} (and ${keys.length - 1} more)`;
}
