/**
 * Directories of exported files (src/manifests/attachments.ts) that a kind owns: every file directly in one is an
 * earlier export's, so a file this export does not write again is stale. It matters most for a `.yaml` file (an
 * OpenAPI spec exported as YAML): no manifest names it any more, so the loader would read it as a manifest.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { PlannedFile } from './layout.js';

/** Kind → the directory (relative to the export directory) its exported files go in, and nothing else does. */
export const ATTACHMENT_DIRS: Readonly<Record<string, string>> = { OpenAPISpec: 'openapi' };

/** Files directly in the exported kinds' attachment directories that this export does not write, sorted. */
export async function staleAttachments(
  outDir: string,
  kinds: readonly string[],
  planned: readonly PlannedFile[],
): Promise<string[]> {
  const written = new Set(planned.map((f) => f.path));
  const out: string[] = [];
  for (const dir of kinds.map((k) => ATTACHMENT_DIRS[k]).filter((d): d is string => d !== undefined)) {
    let entries;
    try {
      entries = await readdir(path.join(outDir, dir), { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    for (const e of entries)
      if (e.isFile() && !written.has(`${dir}/${e.name}`)) out.push(path.join(outDir, dir, e.name));
  }
  return out.sort();
}
