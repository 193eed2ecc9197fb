/**
 * `docops export`: live state → manifest files, through every registered kind that has `export`. The result
 * is a manifests directory that plans to no changes against the organization it came from, every file under
 * EXPORT_FILE_BUDGET (see layout.ts).
 */
import type { ApiClient } from '../model/api-client.js';
import type { KindDefinition } from '../model/kind.js';
import { extractAttachments } from '../manifests/attachments.js';
import {
  kindFileName,
  kindPartPattern,
  layoutKind,
  PER_DOCUMENT_DIRS,
  type LayoutOptions,
  type PlannedFile,
} from './layout.js';
import { readForExport, type ReadOptions } from './read-live.js';
import { staleAttachments } from './attachment-dirs.js';
import { staleExportFiles, writeManifestFiles } from './write.js';
import { setAsideFields, setAsideInDocument } from '../manifests/unknown-values.js';

export { EXPORT_FILE_BUDGET, kindFileName, layoutKind, slug, type LayoutOptions } from './layout.js';
export { probeSpec } from './probe.js';
export { readForExport } from './read-live.js';
export { packDocuments, splitDocument } from './split.js';
export {
  DOCUMENT_SCHEMA,
  SCHEMAS_FOLDER,
  SHIPPED_SCHEMAS_DIR,
  findEditorSchema,
  gitWorkTree,
  renderDocument,
  schemaComment,
} from './text.js';

export interface ExportResult {
  /** Paths written. */
  files: string[];
  /** Stale parts of an earlier export that --overwrite removed. */
  removed: string[];
  /** Documents per kind (as the kinds exported them, before any list was spread over several). */
  counts: Record<string, number>;
  /** Per kind, the fields left out because they hold a value docops does not know (each is a comment where it was). */
  unknown: Record<string, number>;
}

export async function exportOrganization(
  client: ApiClient,
  kinds: readonly KindDefinition[],
  org: string,
  outDir: string,
  options: ReadOptions & {
    overwrite?: boolean;
    layout?: LayoutOptions;
    /** The directory the command was given, when outDir is below it (init's): no link out of it is followed. */
    within?: string;
    /** The editor schema the files' first line names (relative to each file); none when absent. */
    schema?: string;
  } = {},
): Promise<ExportResult> {
  const exported = await readForExport(client, kinds, org, options);
  const unknown: Record<string, number> = {};
  // Files the documents name (a SAML certificate) are written beside the manifests, verbatim.
  const planned: PlannedFile[] = exported.flatMap((e) => {
    const { documents, attachments } = extractAttachments(e.kind, e.documents, PER_DOCUMENT_DIRS[e.kind.kind] ?? '');
    // Values a newer API sent that docops does not know: left out (unmanaged), said in a comment.
    const known = documents.map((d) => setAsideInDocument(d, e.kind.schema));
    const left = known.reduce((n, d) => n + setAsideFields(d).length, 0);
    if (left > 0) unknown[e.kind.kind] = left;
    return [
      ...layoutKind(e.kind.kind, known, options.layout),
      ...attachments.map((a) => ({ path: a.path, documents: [], text: a.text })),
    ];
  });
  // Every exportable kind's names, also of kinds that export nothing now: their old file would resurrect objects.
  const names = exported
    .filter((e) => PER_DOCUMENT_DIRS[e.kind.kind] === undefined)
    .map((e) => ({ single: kindFileName(e.kind.kind), part: kindPartPattern(e.kind.kind) }));
  const stale = [
    ...(await staleExportFiles(outDir, (n) => names.some((k) => n === k.single || k.part.test(n)), planned)),
    // An exported file no document names any more (a deleted spec's YAML would load as a manifest).
    ...(await staleAttachments(
      outDir,
      exported.map((e) => e.kind.kind),
      planned,
    )),
  ];
  const { written, removed } = await writeManifestFiles(outDir, planned, {
    overwrite: options.overwrite === true,
    note: `Exported from organization ${org} by docops export.`,
    stale,
    ...(options.within !== undefined ? { within: options.within } : {}),
    ...(options.schema !== undefined ? { schema: options.schema } : {}),
  });
  return {
    files: written,
    removed,
    counts: Object.fromEntries(exported.map((e) => [e.kind.kind, e.documents.length])),
    unknown,
  };
}
