/**
 * `docops export`: live state → manifest files, through every registered kind that has `export`. The result
 * is a manifests directory that plans to no changes against the organization it came from.
 */
import type { ApiClient } from '../api/types.js';
import type { KindDefinition } from '../core/kind.js';
import { layoutKind, type PlannedFile } from './layout.js';
import { readForExport, type ReadOptions } from './read-live.js';
import { writeManifestFiles } from './write.js';

export { kindFileName, layoutKind, PER_DOCUMENT_DIRS, SINGLE_FILES, slug, type PlannedFile } from './layout.js';
export { probeEntries, probeSpec } from './probe.js';
export { readForExport, MAX_PASSES, type KindExport } from './read-live.js';
export { DOCUMENT_SCHEMA, renderManifestFile, schemaComment, writeManifestFiles } from './write.js';

export interface ExportResult {
  /** Paths written. */
  files: string[];
  /** Documents per kind. */
  counts: Record<string, number>;
}

export async function exportOrganization(
  client: ApiClient,
  kinds: readonly KindDefinition[],
  org: string,
  outDir: string,
  options: ReadOptions & { overwrite?: boolean } = {},
): Promise<ExportResult> {
  const exported = await readForExport(client, kinds, org, options);
  const planned: PlannedFile[] = exported.flatMap((e) => layoutKind(e.kind.kind, e.documents));
  const files = await writeManifestFiles(outDir, planned, { overwrite: options.overwrite === true, note: `Exported from organization ${org} by docops export.` });
  return { files, counts: Object.fromEntries(exported.map((e) => [e.kind.kind, e.documents.length])) };
}
