/**
 * OpenAPISpec export: one document per spec, sorted by slug. A URL spec exports `source: {url}`; a text spec its
 * latest version's raw text as a file next to the manifests (`openapi/<slug>.<json|yaml>`), which export writes
 * and the document names with `{file}` (src/manifests/attachments.ts), so the export plans no change. A spec with
 * neither (never processed successfully, or no raw text for its latest version) has no source to export: it is
 * left out, and the export's plan lists it as unmanaged. Undo's documents name the same files (snapshot.ts).
 */
import type { FileContent } from '../../manifests/file-refs.js';
import { manifestDoc } from '../common.js';
import { digestOf, OPENAPI_KIND, type OpenApiObject, type OpenApiState } from './model.js';

/** Where export puts a text spec's content, relative to the export directory. */
export const OPENAPI_FILES_DIR = 'openapi';

const fileOf = (slug: string, format: 'json' | 'yaml'): string => `${OPENAPI_FILES_DIR}/${slug}.${format}`;

/**
 * A text spec's raw text as `{file, text, sha256}` for export (or undo) to write beside the manifest; none when no
 * raw text was read for it. A journal of an older docops may lack the text's format: YAML reads JSON too.
 */
export function textSource(o: OpenApiObject, state: OpenApiState): FileContent | undefined {
  const raw = state.aux?.texts?.[o.id];
  if (!raw) return undefined;
  return { file: fileOf(o.key, raw.format === 'json' ? 'json' : 'yaml'), text: raw.text, sha256: digestOf(raw.text) };
}

/**
 * The document's source: `{url}`, or the raw text as `{file, text, sha256}` for export to write; none when the
 * spec has neither (its fetch reads every raw text on export's first pass, so this is decided once).
 */
function exportSource(o: OpenApiObject, state: OpenApiState): object | undefined {
  return o.fields.sourceURL !== null ? { url: o.fields.sourceURL } : textSource(o, state);
}

export function exportSpecs(org: string, live: OpenApiState): object[] {
  return [...live.objects]
    .sort((a, b) => a.key.localeCompare(b.key))
    .flatMap((o) => {
      const source = exportSource(o, live);
      return source ? [manifestDoc(OPENAPI_KIND, org, { slug: o.key, source })] : [];
    });
}
