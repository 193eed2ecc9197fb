/**
 * Where exported documents go: one file per kind (`teams.yaml`, several documents), a few kinds named
 * explicitly, and kinds whose documents are large (a site and its whole structure) one file per document.
 * Kinds not named here get `<kind, lower-case, plural>.yaml`, so new kinds join without a change here.
 *
 * Every file stays under EXPORT_FILE_BUDGET (half the loader's per-file limit): a kind whose documents do not
 * fit one file is spread over `<name>-001.yaml`, `<name>-002.yaml` … in document order, and the one list of a
 * kind in SPLIT_LISTS (an organization's members) is spread over several documents first.
 */
import { DEFAULT_MAX_FILE_BYTES } from '../manifests/decode.js';
import { packDocuments, splitDocument } from './split.js';
import { renderDocument } from './text.js';

/** The most bytes of documents export puts in one file: half the loader's limit, a wide margin for hand edits. */
export const EXPORT_FILE_BUDGET = Math.floor(DEFAULT_MAX_FILE_BYTES / 2);

export const SINGLE_FILES: Readonly<Record<string, string>> = {
  Organization: 'organization.yaml',
  Members: 'members.yaml',
};

/** Kinds exported one file per document, into this directory, named by the document's title. */
export const PER_DOCUMENT_DIRS: Readonly<Record<string, string>> = { Site: 'sites' };

/** Kinds with one document per organization whose list (this spec field) may be spread over several documents. */
export const SPLIT_LISTS: Readonly<Record<string, string>> = { Members: 'members' };

export function kindFileName(kind: string): string {
  const lower = kind.toLowerCase();
  return SINGLE_FILES[kind] ?? `${lower}${lower.endsWith('s') ? '' : 's'}.yaml`;
}

/** The names a kind's files may have when it does not fit one file: `teams-001.yaml` … */
export function kindPartPattern(kind: string): RegExp {
  const stem = kindFileName(kind)
    .replace(/\.yaml$/, '')
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${stem}-\\d{3,}\\.yaml$`);
}

/** `Docs & API!` → `docs-api`. */
export function slug(title: string): string {
  const s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return s === '' ? 'untitled' : s;
}

export interface PlannedFile {
  /** Relative path with `/`. */
  path: string;
  /** The file's documents, rendered as YAML, in order. */
  documents: string[];
  /** A file a document names (`{file}`), written as this text instead of documents and header. */
  text?: string;
}

export interface LayoutOptions {
  /** Most bytes of documents per file (default EXPORT_FILE_BUDGET); the two header comment lines come on top. */
  budget?: number;
  render?: (doc: object) => string;
}

/** Files for one kind's documents (none when it exported nothing). */
export function layoutKind(kind: string, documents: readonly object[], options: LayoutOptions = {}): PlannedFile[] {
  if (documents.length === 0) return [];
  const budget = options.budget ?? EXPORT_FILE_BUDGET;
  const render = options.render ?? renderDocument;
  const dir = PER_DOCUMENT_DIRS[kind];
  if (dir !== undefined) return perDocumentFiles(kind, dir, documents, render);
  const list = SPLIT_LISTS[kind];
  const texts = documents.flatMap((doc) =>
    list === undefined ? [render(doc)] : splitDocument(doc, list, budget, render),
  );
  const files = packDocuments(texts, budget);
  if (files.length === 1) return [{ path: kindFileName(kind), documents: files[0]! }];
  const stem = kindFileName(kind).replace(/\.yaml$/, '');
  const width = Math.max(3, String(files.length).length);
  return files.map((docs, i) => ({ path: `${stem}-${String(i + 1).padStart(width, '0')}.yaml`, documents: docs }));
}

function perDocumentFiles(
  kind: string,
  dir: string,
  documents: readonly object[],
  render: (doc: object) => string,
): PlannedFile[] {
  const used = new Set<string>();
  return documents.map((doc) => {
    const title = (doc as { spec?: { title?: unknown } }).spec?.title;
    const base = slug(typeof title === 'string' ? title : kind);
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    return { path: `${dir}/${name}.yaml`, documents: [render(doc)] };
  });
}
