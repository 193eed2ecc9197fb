/**
 * The manifest envelope every document shares: apiVersion, kind, metadata.organization, optional prune,
 * allowEmpty and mode, spec. Checked in code (not from schemas/document.schema.json, which exists for editors) so the messages
 * can name the known kinds and the allowed fields.
 */
import type { ValidationIssue } from '../model/errors.js';
import type { KindDefinition } from '../model/kind.js';
import type { ManifestDocument } from '../model/document.js';
import { OWNERSHIP_MODES, type OwnershipMode } from '../model/plan.js';
import type { ParsedYamlDoc } from './parse.js';
import { describeValue, jsonType } from './paths.js';
import { NOT_SHOWN, isHidden, markAt, markedValues, registerMarkedValues } from './secret-fields.js';
import { isRecord } from '../model/json.js';

export const API_VERSION = 'docops/v1';
export const ENVELOPE_FIELDS = ['apiVersion', 'kind', 'metadata', 'prune', 'allowEmpty', 'mode', 'spec'] as const;
const REQUIRED = ['apiVersion', 'kind', 'metadata', 'spec'] as const;
export const METADATA_FIELDS = ['organization'] as const;
/** The API's EntityId: what organization, team, space and collection ids look like (spec-notes §1.7). */
export const ENTITY_ID = /^[a-zA-Z0-9_-]+$/;

export interface EnvelopeResult {
  issues: ValidationIssue[];
  /** The registered kind, when `kind` names one (its spec can be validated even if other fields are wrong). */
  kind?: KindDefinition;
  /** `spec`, when it is an object. */
  spec?: Record<string, unknown>;
  /** The document, only when the whole envelope is valid. */
  doc?: ManifestDocument;
}

const got = (v: unknown): string =>
  v !== null && typeof v !== 'object' ? `${jsonType(v)} ${describeValue(v)}` : jsonType(v);

/** Records an issue at a path of the document (at its key rather than its value with `atKey`). */
type Issue = (path: string[], message: string, atKey?: boolean) => void;

export function checkEnvelope(parsed: ParsedYamlDoc, kinds: ReadonlyMap<string, KindDefinition>): EnvelopeResult {
  const issues: ValidationIssue[] = [];
  const v = parsed.value;
  const issue: Issue = (path, message, atKey = false) => {
    const pos = atKey ? parsed.keyPos(path) : parsed.pos(path);
    issues.push({ ...pos, message, path: path.map((s) => '/' + s).join('') });
  };
  if (!isRecord(v)) {
    issue([], `a manifest must be a mapping with ${REQUIRED.join(', ')} (got ${got(v)})`);
    return { issues };
  }
  checkFields(v, issue);
  const kind = checkKind(v, kinds, issue);
  const metadata = v.metadata;
  if ('metadata' in v) checkMetadata(metadata, issue);
  const mode = OWNERSHIP_MODES.find((m) => m === v.mode);
  checkFlags(v, mode, kind, issue);
  const spec = checkSpec(v, kind, issue);

  if (issues.length > 0 || !kind || !spec || !isRecord(metadata)) return { issues, kind, spec };
  const doc: ManifestDocument = {
    file: parsed.file,
    index: parsed.index,
    apiVersion: API_VERSION,
    kind: kind.kind,
    metadata: metadata as ManifestDocument['metadata'],
    spec,
    pos: parsed.pos,
  };
  if (typeof v.prune === 'boolean') doc.prune = v.prune;
  if (typeof v.allowEmpty === 'boolean') doc.allowEmpty = v.allowEmpty;
  if (mode !== undefined) doc.mode = mode;
  return { issues, kind, spec, doc };
}

/** The envelope's fields: the required ones there, no unknown one, and the one apiVersion. */
function checkFields(v: Record<string, unknown>, issue: Issue): void {
  for (const field of REQUIRED) if (!(field in v)) issue([], `missing required field "${field}"`);
  for (const field of Object.keys(v)) {
    if (!(ENVELOPE_FIELDS as readonly string[]).includes(field)) {
      issue([field], `unknown field "${field}" (allowed: ${ENVELOPE_FIELDS.join(', ')})`, true);
    }
  }
  if ('apiVersion' in v && v.apiVersion !== API_VERSION) {
    issue(['apiVersion'], `apiVersion: must be "${API_VERSION}" (got ${describeValue(v.apiVersion)})`);
  }
}

/** The registered kind `kind` names (an issue naming the known kinds when it names none). */
function checkKind(
  v: Record<string, unknown>,
  kinds: ReadonlyMap<string, KindDefinition>,
  issue: Issue,
): KindDefinition | undefined {
  if (!('kind' in v)) return undefined;
  const kind = typeof v.kind === 'string' ? kinds.get(v.kind) : undefined;
  if (!kind) {
    const known = [...kinds.keys()].sort().join(', ');
    issue(['kind'], `kind: unknown kind ${describeValue(v.kind)} (known kinds: ${known || 'none registered'})`);
  }
  return kind;
}

/** metadata: an object whose organization is an organization id, and nothing else. */
function checkMetadata(metadata: unknown, issue: Issue): void {
  if (!isRecord(metadata)) issue(['metadata'], `metadata: must be object (got ${got(metadata)})`);
  else if (!('organization' in metadata)) issue(['metadata'], 'metadata: missing required field "organization"');
  else if (typeof metadata.organization !== 'string' || metadata.organization.trim() === '') {
    issue(
      ['metadata', 'organization'],
      `metadata.organization: must be a non-empty string (got ${got(metadata.organization)})`,
    );
  } else if (!ENTITY_ID.test(metadata.organization)) {
    // The id goes into every request path (/orgs/{id}/…): `..`, `/` or `%2F` would address something else.
    issue(
      ['metadata', 'organization'],
      `metadata.organization: must be an organization id, matching ${ENTITY_ID.source} (got ${describeValue(metadata.organization)})`,
    );
  }
  // A misplaced field (e.g. `prune: true` under metadata) must not be silently ignored.
  if (isRecord(metadata)) {
    for (const field of Object.keys(metadata)) {
      if (!(METADATA_FIELDS as readonly string[]).includes(field)) {
        issue(['metadata', field], `metadata: unknown field "${field}" (allowed: ${METADATA_FIELDS.join(', ')})`, true);
      }
    }
  }
}

/** mode, prune and allowEmpty: of their type, and none that contradicts the mode or means nothing for the kind. */
function checkFlags(
  v: Record<string, unknown>,
  mode: OwnershipMode | undefined,
  kind: KindDefinition | undefined,
  issue: Issue,
): void {
  if ('mode' in v && mode === undefined)
    issue(['mode'], `mode: must be one of ${OWNERSHIP_MODES.join(', ')} (got ${got(v.mode)})`);
  if ('prune' in v && typeof v.prune !== 'boolean') issue(['prune'], `prune: must be boolean (got ${got(v.prune)})`);
  // Prune deletes what no manifest writes; additive and observe never do (src/engine/modes.ts).
  else if (v.prune === true && mode !== undefined && mode !== 'authoritative') {
    issue(
      ['prune'],
      `prune: a document in mode ${mode} never deletes what no manifest writes, so prune: true contradicts it (remove one of them)`,
      true,
    );
  }
  // A flag that means nothing for this kind must not look as if it did something.
  else if (v.prune === true && kind?.prunable === false) {
    issue(
      ['prune'],
      `prune: ${kind.kind} objects are never deleted by docops, so prune means nothing here (remove it)`,
      true,
    );
  }
  if ('allowEmpty' in v && typeof v.allowEmpty !== 'boolean')
    issue(['allowEmpty'], `allowEmpty: must be boolean (got ${got(v.allowEmpty)})`);
  else if (v.allowEmpty === true && kind && (kind.lists ?? []).length === 0) {
    issue(
      ['allowEmpty'],
      `allowEmpty: ${kind.kind} documents write no list of an object's sub-objects, so allowEmpty means nothing here (remove it)`,
      true,
    );
  }
}

/** spec, when it is an object; else an issue that never quotes a value the kind marks as secret. */
function checkSpec(
  v: Record<string, unknown>,
  kind: KindDefinition | undefined,
  issue: Issue,
): Record<string, unknown> | undefined {
  const spec = isRecord(v.spec) ? v.spec : undefined;
  if ('spec' in v && !spec) {
    // A scalar where the kind's spec holds secret fields may be one of them (secret-fields.ts): a secret, unshown.
    const marked = kind ? markedValues(kind.schema, v.spec) : [];
    registerMarkedValues(marked);
    const hidden = isHidden(markAt(marked, [])) && v.spec !== null && typeof v.spec !== 'object';
    issue(['spec'], `spec: must be object (got ${hidden ? `${jsonType(v.spec)}, ${NOT_SHOWN}` : got(v.spec)})`);
  }
  return spec;
}
