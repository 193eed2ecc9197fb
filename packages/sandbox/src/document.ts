/**
 * Content bodies in the two formats the API answers (`format=markdown` | `document`): the sandbox stores markdown
 * and answers a JSON document as one paragraph per markdown block; a JSON document sent in (a comment body) is read
 * back as markdown from its text leaves.
 */
import { isPlainObject } from './validate.js';

export type DocumentFormat = 'markdown' | 'document';

/** The spec's JSONDocument for a markdown text: one paragraph per block (blocks are separated by blank lines). */
export function markdownToDocument(markdown: string): Record<string, unknown> {
  const blocks = markdown
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter((b) => b !== '');
  return {
    object: 'document',
    data: {},
    nodes: blocks.map((text) => ({
      object: 'block',
      type: 'paragraph',
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
    })),
  };
}

/** The text of a JSON document: the text of its leaves, one block per paragraph. */
export function documentToMarkdown(doc: unknown): string {
  const texts = (node: unknown): string => {
    if (!isPlainObject(node)) return '';
    if (Array.isArray(node['leaves']))
      return node['leaves'].map((l) => (isPlainObject(l) && typeof l['text'] === 'string' ? l['text'] : '')).join('');
    return Array.isArray(node['nodes']) ? node['nodes'].map(texts).join('') : '';
  };
  const nodes = isPlainObject(doc) && Array.isArray(doc['nodes']) ? doc['nodes'] : [];
  return nodes
    .map(texts)
    .filter((t) => t !== '')
    .join('\n\n');
}

/** A stored body `{markdown}` or `{document}` in the asked format (markdown when none is asked). */
export function bodyIn(
  body: { markdown: string } | { document: Record<string, unknown> },
  format: DocumentFormat | undefined,
): Record<string, unknown> {
  const markdown = 'markdown' in body ? body.markdown : documentToMarkdown(body.document);
  if (format === 'document')
    return { document: 'document' in body ? structuredClone(body.document) : markdownToDocument(markdown) };
  return { markdown };
}
