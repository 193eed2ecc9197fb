/**
 * Keeping export's files under a byte budget. A kind with one document per organization (Members) has its list
 * spread over several documents; documents are then packed into files in order. Pure and deterministic: the
 * same documents and budget always give the same parts and files.
 */

/** Bytes of a rendered document plus the `---` line that separates it from the previous one. */
export const SEPARATOR_BYTES = 4;
/**
 * Estimated share of the budget a part is filled to. Estimates are JSON sizes, and YAML of the same list is up
 * to ~25% larger (indentation), so parts land near 3/4 of the budget; a part that still ends up over it is
 * halved and rendered again.
 */
const FILL = 0.6;

export const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * One document, rendered, as one or more documents each at most `budget` bytes: the list at `spec[listName]`
 * is cut into consecutive runs (order kept), every other field is repeated in each part. A document without
 * such a list, or with one item, is returned whole whatever its size (the loader will say it is too large).
 */
export function splitDocument(
  doc: object,
  listName: string,
  budget: number,
  render: (doc: object) => string,
): string[] {
  const spec = (doc as { spec?: unknown }).spec;
  const list = spec !== null && typeof spec === 'object' ? (spec as Record<string, unknown>)[listName] : undefined;
  if (!Array.isArray(list) || list.length < 2) return [render(doc)];
  const withList = (items: unknown[]): object => ({
    ...doc,
    spec: { ...(spec as Record<string, unknown>), [listName]: items },
  });
  // Rendering is the slow part (about 1.5 s for 100,000 members), so cut by a cheap estimate and render each part once.
  const chunks: unknown[][] = [];
  let current: unknown[] = [];
  let size = 0;
  for (const item of list) {
    const itemBytes = byteLength(JSON.stringify(item) ?? '');
    if (current.length > 0 && size + itemBytes > budget * FILL) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += itemBytes;
  }
  chunks.push(current);
  const fitting = (items: unknown[]): string[] => {
    const text = render(withList(items));
    if (byteLength(text) <= budget || items.length < 2) return [text];
    const half = Math.ceil(items.length / 2);
    return [...fitting(items.slice(0, half)), ...fitting(items.slice(half))];
  };
  return chunks.flatMap(fitting);
}

/** Rendered documents packed into files in order, each file's documents (with separators) at most `budget` bytes. */
export function packDocuments(texts: readonly string[], budget: number): string[][] {
  const files: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const text of texts) {
    const bytes = byteLength(text) + SEPARATOR_BYTES;
    if (current.length > 0 && size + bytes > budget) {
      files.push(current);
      current = [];
      size = 0;
    }
    current.push(text);
    size += bytes;
  }
  if (current.length > 0) files.push(current);
  return files;
}
