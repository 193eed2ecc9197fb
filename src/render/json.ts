/**
 * The stable JSON form of a plan (2-space indent): each object the schema describes (schemas/plan.schema.json) lists
 * its members in the schema's order, free-form values such as before/after/body have their keys sorted, so a saved
 * plan round-trips exactly (its reader: src/plan-file/read-plan.ts). Printed, a request's `masked` body fields show
 * their stand-in text (a SAML certificate's fingerprint); the saved-plan file renders the bodies as sent.
 */
import { planSchema, resolveRef, type SchemaNode } from '../model/format-schemas.js';
import type { Plan, RequestSpec } from '../model/plan.js';
import { isRecord } from '../model/json.js';

/** Free-form data with object keys sorted, recursively. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortedKeys(value[k])]),
    );
  }
  return value;
}

/** The alternative of a conditional or a union (a request's `recover`: one RecoverSpec or a list) that is of value's type. */
function branchOf(root: SchemaNode, node: SchemaNode, value: unknown): SchemaNode | undefined {
  const branches = node.if ? [node.then, node.else] : (node.oneOf ?? node.anyOf ?? []);
  const type = Array.isArray(value) ? 'array' : isRecord(value) ? 'object' : undefined;
  return branches.map((b) => b && resolveRef(root, b)).find((b) => b?.type === type);
}

/**
 * `value` as printed where the schema's `node` describes it: an object with the members the schema lists first, in
 * its order, then any other sorted; a list item by item; anything the schema leaves free-form with sorted keys.
 */
function stable(root: SchemaNode, node: SchemaNode, value: unknown): unknown {
  let at = resolveRef(root, node);
  if (!at.properties && !at.items) at = branchOf(root, at, value) ?? at;
  if (Array.isArray(value) && at.items) return value.map((v) => stable(root, at.items!, v));
  if (!isRecord(value) || !at.properties) return sortedKeys(value);
  const known = at.properties;
  const rest = Object.keys(value)
    .filter((k) => !(k in known))
    .sort();
  return Object.fromEntries(
    [...Object.keys(known), ...rest]
      .filter((k) => value[k] !== undefined)
      .map((k) => [k, known[k] ? stable(root, known[k], value[k]) : sortedKeys(value[k])]),
  );
}

export interface JsonOptions {
  /** Keep the bodies exactly as sent (the saved-plan file); default: `masked` fields show their stand-in text. */
  unmasked?: boolean;
  /**
   * The OAuth scopes the plan's requests use (src/scopes), printed as `scopes` after the plan's own keys. Derived
   * data, not part of the plan: the reader drops it.
   */
  scopes?: object;
  /** What a policy says about the plan (src/policy), printed as `policy` after `scopes`. Derived too: the reader drops it. */
  policy?: object;
}

/** The body a printed plan shows: each `masked` top-level field replaced by its stand-in text. */
function shownBody(r: RequestSpec): unknown {
  const body = r.body;
  if (!r.masked || !isRecord(body)) return body;
  const out: Record<string, unknown> = { ...body };
  for (const [field, text] of Object.entries(r.masked)) if (field in out) out[field] = text;
  return out;
}

/** The plan as printed: every step's requests with their masked bodies. */
const masked = (plan: Plan): Plan => ({
  ...plan,
  steps: plan.steps.map((s) => ({ ...s, requests: s.requests.map((r) => ({ ...r, body: shownBody(r) })) })),
});

export function renderJson(plan: Plan, options: JsonOptions = {}): string {
  const schema = planSchema();
  const doc = stable(schema, schema, options.unmasked ? plan : masked(plan)) as object;
  const derived = {
    ...(options.scopes ? { scopes: sortedKeys(options.scopes) } : {}),
    ...(options.policy ? { policy: options.policy } : {}),
  };
  return JSON.stringify({ ...doc, ...derived }, null, 2) + '\n';
}
