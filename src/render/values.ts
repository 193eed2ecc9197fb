/**
 * Shared formatting of plan values for the human renderers: secret-looking fields are masked (defence in depth: the plan contract already says before/after never hold secrets), and
 * field-level changes are computed for updates.
 */
import type { CascadeObject, Step, OwnedObject, ReportedChange, UnmanagedObject } from '../model/plan.js';
import { DRIFT_REASON, MODE_REASON } from '../model/plan.js';

export const SENSITIVE = '(sensitive)';

const SECRET_FIELD_RE = /token|secret|password|passwd|sharekey|authorization|apikey|api_key|credential|private_?key/i;

export function isSecretField(name: string): boolean {
  return SECRET_FIELD_RE.test(name);
}

/**
 * Mask secret-looking keys, recursively, so the value is safe to print. `before`/`after` hold no refs (sealStep
 * refuses them), so text that reads like a ref is a user's text and is printed as it is.
 */
function sanitize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sanitize);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        isSecretField(k) && v !== null && v !== undefined ? SENSITIVE : sanitize(v),
      ]),
    );
  }
  return value;
}

/** How every renderer shows a missing value (absent or null), wherever it appears: one form. */
export const MISSING = '(unset)';

/** One value as a short string (JSON); absent and null are MISSING. */
export function formatValue(value: unknown, maxLength = 400): string {
  if (value === undefined || value === null) return MISSING;
  const text = JSON.stringify(sanitize(value)) ?? String(value);
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/** Format a field's value, masking it whole when the field name looks secret. */
export function formatField(field: string, value: unknown, maxLength?: number): string {
  if (value !== undefined && value !== null && isSecretField(field)) return SENSITIVE;
  return formatValue(value, maxLength);
}

/**
 * A field's value in a step: a null the step's kind gives a meaning (Step.nulls, e.g. a member's role) is
 * `null (guest)`; any other value as formatField shows it (absent and other nulls: MISSING).
 */
export function formatStepField(step: Pick<Step, 'nulls'>, field: string, value: unknown, maxLength?: number): string {
  const meaning = value === null ? step.nulls?.[field] : undefined;
  return meaning !== undefined ? `null (${meaning})` : formatField(field, value, maxLength);
}

/** Whether a side of a change has a value to show: set, or a null the step's kind gives a meaning. */
export const hasShownValue = (step: Pick<Step, 'nulls'>, field: string, value: unknown): boolean =>
  value !== undefined && (value !== null || step.nulls?.[field] !== undefined);

/** Key-order-insensitive equality of plain JSON-like data. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a as object);
    const kb = Object.keys(b as object);
    return (
      ka.length === kb.length &&
      ka.every(
        (k) =>
          Object.hasOwn(b as object, k) &&
          sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
      )
    );
  }
  return false;
}

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Fields that differ between before and after (after's key order first, then fields only before has). Where both
 * sides are objects the change is reported per nested field (`members.ann@x.test`), so one changed entry in a big
 * map does not print the whole map twice.
 */
export function fieldChanges(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  prefix = '',
): FieldChange[] {
  const b = before ?? {};
  const a = after ?? {};
  const fields = [...Object.keys(a), ...Object.keys(b).filter((k) => !Object.hasOwn(a, k))];
  const out: FieldChange[] = [];
  for (const f of fields) {
    if (sameValue(b[f], a[f])) continue;
    const bv = b[f];
    const av = a[f];
    if (isPlainObject(bv) && isPlainObject(av)) out.push(...fieldChanges(bv, av, `${prefix}${f}.`));
    else out.push({ field: `${prefix}${f}`, before: bv, after: av });
  }
  return out;
}

export const stepLabel = (s: { kind: string; org: string; key: string }): string => `${s.kind} ${s.org}/${s.key}`;

export const ACTION_SYMBOL: Record<Step['action'], string> = { create: '+', update: '~', delete: '-' };

export interface Totals {
  add: number;
  change: number;
  delete: number;
  /** Objects the deletes take with them (Step.cascades), listed under their steps. */
  cascaded: number;
}

/**
 * Later steps of objects a create of the same plan makes (fields the create request cannot set, members invited
 * and added right after it), by the create's step id. The text and markdown plans show them under the create
 * instead of as separate steps, so one new object is one add; the plan data (JSON, saved plans, apply) keeps them
 * as they are.
 */
export function createFollowUps(steps: readonly Step[]): { byCreate: Map<string, Step[]>; folded: Set<string> } {
  const creates = new Map<string, string>();
  const byCreate = new Map<string, Step[]>();
  const folded = new Set<string>();
  const keyOf = (s: Step): string => JSON.stringify([s.kind, s.org, s.key]);
  for (const s of steps) if (s.action === 'create' && !creates.has(keyOf(s))) creates.set(keyOf(s), s.id);
  for (const s of steps) {
    const create = s.action === 'delete' ? undefined : creates.get(keyOf(s));
    if (create === undefined || create === s.id) continue;
    byCreate.set(create, [...(byCreate.get(create) ?? []), s]);
    folded.add(s.id);
  }
  return { byCreate, folded };
}

/** Totals as people read them (text, markdown, notifications): a step folded under its create is part of the add. */
export function textTotals(steps: readonly Step[]): Totals {
  const { folded } = createFollowUps(steps);
  return totals(steps.filter((s) => !folded.has(s.id)));
}

export function totals(steps: readonly Step[]): Totals {
  const t: Totals = { add: 0, change: 0, delete: 0, cascaded: 0 };
  for (const s of steps) {
    if (s.action === 'create') t.add++;
    else if (s.action === 'update') t.change++;
    else t.delete++;
    t.cascaded += s.cascades?.length ?? 0;
  }
  return t;
}

export const summaryLine = (t: Totals): string =>
  `Plan: ${t.add} to add, ${t.change} to change, ${t.delete} to delete${t.cascaded > 0 ? ` (taking ${t.cascaded} more object${t.cascaded === 1 ? '' : 's'} with them)` : ''}.`;

/** One object a step takes with it: `Space org/Getting Started (soft delete: restorable for 7 days; id sp-1)`. */
export function cascadeLabel(c: CascadeObject): string {
  const extra = [c.note, c.id !== undefined ? `id ${c.id}` : undefined].filter(Boolean);
  return `${stepLabel(c)}${extra.length > 0 ? ` (${extra.join('; ')})` : ''}`;
}

export const CASCADE_PREFIX = 'also deletes: ';

export const NO_CHANGES = 'No changes. Live state matches the manifests.';

/** Said instead of NO_CHANGES when nothing else is planned but some objects are blocked: never "no changes". */
export const NOTHING_ELSE = 'Nothing else to change, but the plan cannot reach the manifests (see Blocked).';

export const blockedHeading = (n: number): string =>
  `Blocked: ${n} manifest object${n === 1 ? '' : 's'} the plan cannot reach (nothing is planned for ${n === 1 ? 'it' : 'them'}; the run fails):`;

/** `file:line:column: ` of a blocked object, or nothing when it has no source. */
export const sourcePrefix = (b: { source?: { file: string; line: number; column: number } }): string =>
  b.source ? `${b.source.file}:${b.source.line}:${b.source.column}: ` : '';

/** Said instead of NO_CHANGES when nothing is planned but the ownership modes leave drift alone: never "no changes". */
export const reportedOnly = (n: number): string =>
  `No changes to apply, but ${n} drifted object${n === 1 ? ' is' : 's are'} only reported: ${n === 1 ? 'its' : 'their'} ownership mode leaves ${n === 1 ? 'it' : 'them'} as ${n === 1 ? 'it is' : 'they are'} (see Reported).`;

export const reportedHeading = (n: number): string =>
  `Reported, not applied: ${n} change${n === 1 ? '' : 's'} the ownership modes leave alone:`;

export const ownedHeading = (n: number): string =>
  `Owned by another writer: ${n} object${n === 1 ? '' : 's'} docops leaves alone:`;

/** `Site org/Help center: sections, section groups and site spaces owned by Git Sync (repository acme/docs)`. */
export const ownedLine = (o: OwnedObject): string =>
  `${stepLabel(o)}: ${o.what} owned by ${o.owner}${o.id !== undefined ? ` (id ${o.id})` : ''}`;

/** A reported change as a step for the step renderers (it has no requests; nothing depends on it). */
export const reportedStep = (r: ReportedChange): Step => ({ ...r, requests: [], dependsOn: [] });

/** What a line says of its ownership mode: a reported change why it is not applied, an additive step its mode. */
export function modeTag(s: Pick<Step, 'mode'> | ReportedChange, reported = false): string | undefined {
  if (reported && 'drift' in s && s.drift !== undefined) return DRIFT_REASON[s.drift];
  if (s.mode === undefined || s.mode === 'authoritative') return undefined;
  return reported ? MODE_REASON[s.mode] : s.mode;
}

/** What an unmanaged line adds after its label: its id, and the mode that leaves it in place when one does. */
export function unmanagedTags(u: Pick<UnmanagedObject, 'id' | 'mode'>): string {
  const tags = [
    u.mode === 'additive' ? 'additive: left in place, a written list is not the whole list' : undefined,
    u.id ? `id ${u.id}` : undefined,
  ].filter(Boolean);
  return tags.length > 0 ? ` (${tags.join('; ')})` : '';
}
