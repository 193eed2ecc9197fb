/**
 * Where exported documents go: one file per kind (`teams.yaml`, several documents), a few kinds named
 * explicitly, and kinds whose documents are large (a site and its whole structure) one file per document.
 * Kinds not named here get `<kind, lower-case, plural>.yaml`, so new kinds join without a change here.
 */
export const SINGLE_FILES: Readonly<Record<string, string>> = { Organization: 'organization.yaml', Members: 'members.yaml' };

/** Kinds exported one file per document, into this directory, named by the document's title. */
export const PER_DOCUMENT_DIRS: Readonly<Record<string, string>> = { Site: 'sites' };

export function kindFileName(kind: string): string {
  const lower = kind.toLowerCase();
  return SINGLE_FILES[kind] ?? `${lower}${lower.endsWith('s') ? '' : 's'}.yaml`;
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
  documents: object[];
}

/** Files for one kind's documents (none when it exported nothing). */
export function layoutKind(kind: string, documents: readonly object[]): PlannedFile[] {
  if (documents.length === 0) return [];
  const dir = PER_DOCUMENT_DIRS[kind];
  if (dir === undefined) return [{ path: kindFileName(kind), documents: [...documents] }];
  const used = new Set<string>();
  return documents.map((doc) => {
    const title = (doc as { spec?: { title?: unknown } }).spec?.title;
    const base = slug(typeof title === 'string' ? title : kind);
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    return { path: `${dir}/${name}.yaml`, documents: [doc] };
  });
}
