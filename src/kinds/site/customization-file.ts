/**
 * `customization: { file: brand.yaml }`: one brand block kept in a file that several Site manifests name (YAML
 * anchors cannot do that: an anchor lives in one YAML document, and each site is its own document). The loader
 * reads the file (inside the manifests directory; KindDefinition.fileFields) and hands the kind its text; here it
 * is parsed with docops's own YAML rules (no `${VAR}` is read) and checked against the `customization` schema, with
 * every problem at its line and column in that file. The value is then used as if it were written inline.
 */
import path from 'node:path';
import type { ValidationIssue } from '../../core/errors.js';
import type { ManifestDocument } from '../../manifests/document.js';
import type { FileContent } from '../../manifests/file-refs.js';
import { parseYamlFile } from '../../manifests/parse.js';
import { validateWithSchema } from '../../manifests/schema.js';
import { isRecord } from '../common.js';
import { loadSchema } from '../schema.js';

let schema: object | undefined;

/** The `customization` definition of the Site schema (a standalone schema: it holds no $ref). */
function customizationSchema(): object {
  if (!schema) {
    const site = loadSchema('site');
    const definitions = 'definitions' in site && isRecord(site.definitions) ? site.definitions : {};
    const found = definitions['customization'];
    if (!isRecord(found)) throw new Error('schemas/site.schema.json has no definitions.customization');
    schema = found;
  }
  return schema;
}

export interface CustomizationFile {
  value?: Record<string, unknown>;
  issues: ValidationIssue[];
}

/** The customization a file holds, or the problems that keep it from being one. */
export function readCustomizationFile(doc: ManifestDocument, content: FileContent): CustomizationFile {
  const file = path.join(path.dirname(doc.file), content.file);
  const parsed = parseYamlFile(file, content.text);
  if (parsed.issues.length > 0) return { issues: parsed.issues };
  const [first, ...more] = parsed.documents;
  if (!first || more.length > 0) return { issues: [{ file, line: 1, column: 1, message: 'a customization file must hold exactly one YAML document' }] };
  const issues = validateWithSchema(first.value, customizationSchema(), (p) => first.pos(p), 'customization', (p) => first.keyPos(p));
  if (issues.length > 0 || !isRecord(first.value)) return { issues: issues.length > 0 ? issues : [{ ...first.pos([]), message: 'customization: must be a mapping' }] };
  return { value: first.value, issues: [] };
}
