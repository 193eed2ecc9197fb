/**
 * `customization: { file: brand.yaml }`: one brand block kept in a file that several Site manifests name (YAML
 * anchors cannot do that: an anchor lives in one YAML document, and each site is its own document). The loader
 * reads the file (inside the manifests directory; KindDefinition.fileFields) and hands the kind its text; here it
 * is parsed with docops's own YAML rules as data (`${VAR}` is text, never read) and checked against the
 * `customization` schema, with every problem at its line and column in that file. The value is then used as if it
 * were written inline.
 */
import path from 'node:path';
import type { SourcePos, ValidationIssue } from '../../model/errors.js';
import type { ManifestDocument } from '../../model/document.js';
import type { FileContent } from '../../manifests/file-refs.js';
import type { DocPath } from '../../manifests/paths.js';
import { DEFAULT_MAX_FILE_BYTES } from '../../manifests/decode.js';
import { parseYamlFile } from '../../manifests/parse.js';
import { validateWithSchema } from '../../manifests/schema.js';
import { isRecord } from '../common.js';
import { loadSchema } from '../schema.js';

let siteSchema: object | undefined;

/**
 * The largest brand file read: what a manifest may be (it is YAML docops parses, and the API gives no limit on a
 * customization), far above any brand block (a few KiB).
 */
export const CUSTOMIZATION_FILE_MAX_BYTES = DEFAULT_MAX_FILE_BYTES;

/**
 * The file's block is checked with the Site schema itself, as the spec `{title, customization: block}`: the build
 * generates that schema's validator, so no schema is compiled at run time (docs/dev/benchmarks.md, "Start-up").
 */
function validateBlock(
  value: unknown,
  locate: (p: DocPath) => SourcePos,
  locateKey: (p: DocPath) => SourcePos,
): ValidationIssue[] {
  siteSchema ??= loadSchema('site');
  // Paths below the stand-in spec's `customization` are paths in the file; the title is valid, so every problem is below it.
  return validateWithSchema(
    { title: 'brand', customization: value },
    siteSchema,
    (p) => locate(p.slice(1)),
    '',
    (p) => locateKey(p.slice(1)),
  );
}

export interface CustomizationFile {
  value?: Record<string, unknown>;
  issues: ValidationIssue[];
}

/** The customization a file holds, or the problems that keep it from being one. */
export function readCustomizationFile(doc: ManifestDocument, content: FileContent): CustomizationFile {
  const file = path.join(path.dirname(doc.file), content.file);
  // Data, not a manifest: `${…}` is text here (docs/kinds.md), never a variable read or refused.
  const parsed = parseYamlFile(file, content.text, { interpolate: false, maxFileBytes: CUSTOMIZATION_FILE_MAX_BYTES });
  if (parsed.issues.length > 0) return { issues: parsed.issues };
  const [first, ...more] = parsed.documents;
  if (!first || more.length > 0)
    return {
      issues: [{ file, line: 1, column: 1, message: 'a customization file must hold exactly one YAML document' }],
    };
  const issues = validateBlock(
    first.value,
    (p) => first.pos(p),
    (p) => first.keyPos(p),
  );
  if (issues.length > 0 || !isRecord(first.value))
    return { issues: issues.length > 0 ? issues : [{ ...first.pos([]), message: 'customization: must be a mapping' }] };
  return { value: first.value, issues: [] };
}
