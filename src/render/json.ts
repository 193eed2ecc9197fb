/**
 * The stable JSON form of a plan (2-space indent; plan/step/request keys in a fixed order, free-form values such
 * as before/after/body with sorted keys) and its strict parser, so a saved plan round-trips exactly. The parser
 * also accepts a saved-plan file and returns the plan inside it. Printed, a request's `masked` body fields show
 * their stand-in text (a SAML certificate's fingerprint); the saved-plan file renders the bodies as sent.
 */
import type {
  BlockedObject,
  CascadeObject,
  OwnedObject,
  Plan,
  PlanWarning,
  ReportedChange,
  RequestSpec,
  Step,
  UnmanagedObject,
} from '../model/plan.js';
import {
  REPORTED_KEYS,
  OWNED_KEYS,
  PLAN_KEYS,
  ATTRIBUTION_KEYS,
  CHANGE_KEYS,
  STEP_KEYS,
  CASCADE_KEYS,
  REQUEST_KEYS,
  SETTLE_KEYS,
  SETTLE_UNTIL_KEYS,
  SETTLE_FAIL_KEYS,
  SLOT_KEYS,
  SOURCE_KEYS,
  UNMANAGED_KEYS,
  WARNING_KEYS,
  BLOCKED_KEYS,
} from './json-keys.js';

/** Free-form data with object keys sorted, recursively. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(obj)
        .sort()
        .map((k) => [k, sortedKeys(obj[k])]),
    );
  }
  return value;
}

/** Copy `obj` with `keys` first in that order (values mapped by `map`), then any other keys sorted. */
function ordered(
  obj: object,
  keys: readonly string[],
  map: (key: string, v: unknown) => unknown = (_k, v) => sortedKeys(v),
): object {
  const rec = obj as Record<string, unknown>;
  const rest = Object.keys(rec)
    .filter((k) => !keys.includes(k))
    .sort();
  return Object.fromEntries([...keys, ...rest].filter((k) => rec[k] !== undefined).map((k) => [k, map(k, rec[k])]));
}

export interface JsonOptions {
  /** Keep the bodies exactly as sent (the saved-plan file); default: `masked` fields show their stand-in text. */
  unmasked?: boolean;
  /**
   * The OAuth scopes the plan's requests use (src/scopes), printed as `scopes` after the plan's own keys. Derived
   * data, not part of the plan: the parser accepts and drops it.
   */
  scopes?: object;
  /** What a policy says about the plan (src/policy), printed as `policy` after `scopes`. Derived too: the parser drops it. */
  policy?: object;
}

function stablePlan(plan: Plan, options: JsonOptions): object {
  return ordered(plan, PLAN_KEYS, (k, v) => {
    if (k === 'steps') return (v as Step[]).map((s) => stableStep(s, options));
    if (k === 'unmanaged') return (v as UnmanagedObject[]).map((u) => ordered(u, UNMANAGED_KEYS));
    if (k === 'warnings') return (v as PlanWarning[]).map((w) => ordered(w, WARNING_KEYS));
    if (k === 'reported') return (v as ReportedChange[]).map((r) => stableStep(r, options, REPORTED_KEYS));
    if (k === 'owned') return (v as OwnedObject[]).map((o) => ordered(o, OWNED_KEYS));
    if (k === 'blocked')
      return (v as BlockedObject[]).map((b) =>
        ordered(b, BLOCKED_KEYS, (bk, bv) => (bk === 'source' ? ordered(bv as object, SOURCE_KEYS) : sortedKeys(bv))),
      );
    if (k === 'attribution')
      return ordered(v as object, ATTRIBUTION_KEYS, (ak, av) =>
        ak === 'changes' ? (av as object[]).map((c) => ordered(c, CHANGE_KEYS)) : sortedKeys(av),
      );
    return sortedKeys(v);
  });
}

/** The body a printed plan shows: each `masked` top-level field replaced by its stand-in text. */
function shownBody(r: RequestSpec): unknown {
  const body = r.body;
  if (!r.masked || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [field, text] of Object.entries(r.masked)) if (field in out) out[field] = text;
  return out;
}

function stableStep(step: Step | ReportedChange, options: JsonOptions, keys: readonly string[] = STEP_KEYS): object {
  return ordered(step, keys, (k, v) => {
    if (k === 'requests') {
      return (v as RequestSpec[]).map((r) =>
        ordered(options.unmasked ? r : { ...r, body: shownBody(r) }, REQUEST_KEYS, (rk, rv) =>
          rk === 'refs'
            ? (rv as object[]).map((slot) => ordered(slot, SLOT_KEYS))
            : rk === 'settle'
              ? stableSettle(rv as object)
              : sortedKeys(rv),
        ),
      );
    }
    if (k === 'source') return ordered(v as object, SOURCE_KEYS);
    if (k === 'cascades') return (v as CascadeObject[]).map((c) => ordered(c, CASCADE_KEYS));
    return sortedKeys(v);
  });
}

function stableSettle(settle: object): object {
  return ordered(settle, SETTLE_KEYS, (k, v) => {
    if (k === 'until') return (v as object[]).map((c) => ordered(c, SETTLE_UNTIL_KEYS));
    if (k === 'failWhen') return (v as object[]).map((f) => ordered(f, SETTLE_FAIL_KEYS));
    return sortedKeys(v);
  });
}

export function renderJson(plan: Plan, options: JsonOptions = {}): string {
  const doc = stablePlan(plan, options);
  const derived = {
    ...(options.scopes ? { scopes: sortedKeys(options.scopes) } : {}),
    ...(options.policy ? { policy: options.policy } : {}),
  };
  return JSON.stringify({ ...doc, ...derived }, null, 2) + '\n';
}
