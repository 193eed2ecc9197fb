/**
 * Small helpers shared by the resource kinds: step ids, API paths, field comparison and the shape of
 * exported manifest documents. Nothing here knows about a particular kind.
 */
import type { SourcePos } from '../model/errors.js';
import type { DesiredEntry, DiffResult, KindDefinition, LiveKindState, LiveObject } from '../model/kind.js';
import type { Step } from '../model/plan.js';
import { pathSegment, isRef, refsIn, sealStep } from '../model/refs.js';
import type { ManifestDocument } from '../model/document.js';
import { isRecord } from '../model/json.js';

export const API_VERSION = 'docops/v1';

/**
 * `${kind}/${org}/${key}#${suffix}`. Characters that would break a `<<ref:…>>` string (`<`, `>`, `%` and
 * runs of dots) are percent-encoded so that any title can be part of a step id that others reference.
 */
export function stepId(kind: string, org: string, key: string, suffix: string): string {
  const safe = (s: string): string =>
    s.replace(/[%<>]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()).replace(/\.(?=\.)/g, '%2E');
  return `${safe(kind)}/${safe(org)}/${safe(key)}#${suffix}`;
}

/** Steps a ref-valued id depends on (none for a live id). */
export const refSteps = (idOrRef: string | null | undefined): string[] =>
  isRef(idOrRef) ? refsIn(idOrRef).map((r) => r.stepId) : [];

/** One path segment: ids are checked and URL-encoded (pathSegment), refs are left for sealing and apply. */
export function seg(idOrRef: string): string {
  return isRef(idOrRef) ? idOrRef : pathSegment(idOrRef);
}

export function orgPath(org: string): string {
  return `/orgs/${seg(org)}`;
}

/** Structural equality for JSON-like values (arrays ordered, object key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameValue(a[k], b[k]));
  }
  return false;
}

// The one JSON object guard (src/model/json.ts), offered here beside the kinds' other helpers.
export { isRecord };

export interface FieldChanges {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  /** Changed field names, in the order of `fields`. */
  changed: string[];
}

/**
 * Compare only the fields the desired spec writes (partial management). `normalise` lets a kind compare
 * e.g. lists as sets; before/after hold the values as written/read, for the changed fields only.
 */
export function changedFields<D extends object, L extends object>(
  desired: D,
  live: L,
  fields: readonly (keyof D & keyof L & string)[],
  normalise: (field: string, value: unknown) => unknown = (_f, v) => v,
): FieldChanges {
  const out: FieldChanges = { before: {}, after: {}, changed: [] };
  for (const f of fields) {
    if (!(f in desired) || desired[f] === undefined) continue;
    const want = desired[f];
    const have = live[f] ?? null;
    if (sameValue(normalise(f, want), normalise(f, have))) continue;
    out.before[f] = have;
    out.after[f] = want;
    out.changed.push(f);
  }
  return out;
}

/** Copy the listed keys that are present (not undefined) in `from`. */
export function pick<T extends object, K extends keyof T & string>(from: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
  return out;
}

export function plainSource(pos: SourcePos): { file: string; line: number; column: number } {
  return { file: pos.file, line: pos.line, column: pos.column };
}

/** A plan Step as a kind describes it: `dependsOn` optional, and the manifest entry instead of `source`. */
export type StepInput = Omit<Step, 'dependsOn' | 'source'> & { dependsOn?: string[]; entry?: DesiredEntry };

/** Build a step with the conventions every kind follows (source copied from the entry, if any). */
export function makeStep(s: StepInput): Step {
  const step: Step = {
    id: s.id,
    action: s.action,
    phase: s.phase,
    kind: s.kind,
    org: s.org,
    key: s.key,
    wave: s.wave,
    before: s.before,
    after: s.after,
    dependsOn: [...new Set(s.dependsOn ?? [])].sort(),
    requests: s.requests,
  };
  if (s.entry) step.source = plainSource(s.entry.source);
  if (s.note !== undefined) step.note = s.note;
  return sealStep(step);
}

/**
 * What a plan shows on the steps that delete every entry (2 or more) of a list a document writes (`access:`, a team's
 * `members`): the safety gate refuses that unless the document says `allowEmpty: true` (docs/safety.md), so a
 * reviewer sees both the refusal coming and the override when it is written. Undefined below 2 entries.
 */
export function deletesAllNote(
  count: number,
  list: string,
  subKind: string,
  doc: ManifestDocument<unknown>,
): string | undefined {
  if (count < 2) return undefined;
  const all = `deletes all ${count} entries of ${list}`;
  return doc.allowEmpty === true
    ? `${all} (allowEmpty: true)`
    : `${all}: apply refuses this unless the document says allowEmpty: true (or the config safety.kinds.${subKind}.allowEmpty: true)`;
}

/**
 * Block a desired entry (see DiffResult.blocked): the plan holds none of its steps, says why at `pos`, and the
 * run fails. The caller must not emit steps for it nor register a ref to its create.
 */
export function blockEntry(result: DiffResult, entry: DesiredEntry, pos: SourcePos, message: string): void {
  result.blocked.push({ kind: entry.kind, org: entry.org, key: entry.key, message, source: plainSource(pos) });
}

/** A manifest document as `export` writes it. */
export function manifestDoc(kind: string, org: string, spec: Record<string, unknown>): object {
  return { apiVersion: API_VERSION, kind, metadata: { organization: org }, spec };
}

/**
 * Export of a title-identified kind: one document per live object, sorted by title then id, whose spec is
 * `{title, id}` (the id pinned, so a rename is recognised) followed by `more(o)`.
 */
export function exportTitled<O extends LiveObject<{ title: string }>>(
  kind: string,
  org: string,
  live: LiveKindState<O, unknown>,
  more: (o: O) => Record<string, unknown>,
): object[] {
  return [...live.objects]
    .sort((a, b) => a.key.localeCompare(b.key) || a.id.localeCompare(b.id))
    .map((o) => manifestDoc(kind, org, { title: o.fields.title, id: o.id, ...more(o) }));
}

/** A string, else null (live fields the API may leave unset). */
export function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** A nullable field as written: a string, null, or undefined when absent (not managed). */
export function nullableString(v: unknown): string | null | undefined {
  return v === null ? null : typeof v === 'string' ? v : undefined;
}

/** A kind's `crossValidate` hook, typed by its spec (KindDefinition.crossValidate). */
export type CrossValidate<S> = NonNullable<KindDefinition<S>['crossValidate']>;
