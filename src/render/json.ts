/**
 * The stable JSON form of a plan (2-space indent; plan/step/request keys in a fixed order, free-form values such
 * as before/after/body with sorted keys) and its strict parser, so a saved plan round-trips exactly. The parser
 * also accepts a saved-plan file and returns the plan inside it. Printed, a request's `masked` body fields show
 * their stand-in text (a SAML certificate's fingerprint); the saved-plan file renders the bodies as sent.
 */
import { UsageError } from '../core/errors.js';
import { PHASES } from '../core/plan.js';
import { OWNERSHIP_MODES, type BlockedObject, type CascadeObject, type OwnedObject, type Plan, type PlanWarning, type ReportedChange, type RequestSpec, type Step, type UnmanagedObject } from '../core/plan.js';

const PLAN_KEYS = ['formatVersion', 'steps', 'unmanaged', 'warnings', 'blocked', 'reported', 'owned', 'attribution'] as const;
const ATTRIBUTION_KEYS = ['changes', 'unavailable'] as const;
const CHANGE_KEYS = ['step', 'actor', 'at', 'action'] as const;
const STEP_KEYS = ['id', 'action', 'phase', 'kind', 'org', 'key', 'wave', 'mode', 'before', 'after', 'nulls', 'dependsOn', 'requests', 'source', 'note', 'cascades'] as const;
/** A reported change: a step's keys without requests and dependsOn (it is never sent). */
const REPORTED_KEYS = [...STEP_KEYS.filter((k) => k !== 'requests' && k !== 'dependsOn'), 'drift'];
const OWNED_KEYS = ['kind', 'org', 'key', 'id', 'what', 'owner'] as const;
const CASCADE_KEYS = ['kind', 'org', 'key', 'id', 'note'] as const;
const REQUEST_KEYS = ['method', 'path', 'body', 'capture', 'refs', 'recover', 'idempotent', 'settle', 'masked', 'merge'] as const;
const MERGE_KEYS = ['omit', 'whole'] as const;
const SETTLE_KEYS = ['path', 'until', 'failWhen', 'reads'] as const;
const SETTLE_UNTIL_KEYS = ['field', 'value'] as const;
const SETTLE_FAIL_KEYS = ['field', 'message', 'detail'] as const;
const RECOVER_KEYS = ['path', 'suffix', 'match', 'exclude', 'each'] as const;
const RECOVER_MATCH_KEYS = ['field', 'body', 'value', 'ignoreCase', 'not'] as const;
const SLOT_KEYS = ['at', 'offset', 'pointer', 'step', 'output'] as const;
const SOURCE_KEYS = ['file', 'line', 'column'] as const;
const UNMANAGED_KEYS = ['kind', 'org', 'key', 'id', 'mode'] as const;
const WARNING_KEYS = ['kind', 'org', 'key', 'message'] as const;
const BLOCKED_KEYS = ['kind', 'org', 'key', 'message', 'source'] as const;
const ACTIONS = ['create', 'update', 'delete'] as const;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Free-form data with object keys sorted, recursively. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, sortedKeys(obj[k])]));
  }
  return value;
}

/** Copy `obj` with `keys` first in that order (values mapped by `map`), then any other keys sorted. */
function ordered(obj: object, keys: readonly string[], map: (key: string, v: unknown) => unknown = (_k, v) => sortedKeys(v)): object {
  const rec = obj as Record<string, unknown>;
  const rest = Object.keys(rec).filter((k) => !keys.includes(k)).sort();
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
    if (k === 'blocked') return (v as BlockedObject[]).map((b) => ordered(b, BLOCKED_KEYS, (bk, bv) => (bk === 'source' ? ordered(bv as object, SOURCE_KEYS) : sortedKeys(bv))));
    if (k === 'attribution') return ordered(v as object, ATTRIBUTION_KEYS, (ak, av) => (ak === 'changes' ? (av as object[]).map((c) => ordered(c, CHANGE_KEYS)) : sortedKeys(av)));
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
          rk === 'refs' ? (rv as object[]).map((slot) => ordered(slot, SLOT_KEYS)) : rk === 'settle' ? stableSettle(rv as object) : sortedKeys(rv),
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
  const derived = { ...(options.scopes ? { scopes: sortedKeys(options.scopes) } : {}), ...(options.policy ? { policy: options.policy } : {}) };
  return JSON.stringify({ ...doc, ...derived }, null, 2) + '\n';
}

// ---- parsing -------------------------------------------------------------------------------------------------

class Shape {
  constructor(private readonly problems: string[]) {}
  fail(at: string, message: string): void {
    this.problems.push(`${at}: ${message}`);
  }
  object(v: unknown, at: string, allowed: readonly string[]): v is Record<string, unknown> {
    if (!v || typeof v !== 'object' || Array.isArray(v)) {
      this.fail(at, 'expected an object');
      return false;
    }
    for (const k of Object.keys(v)) if (!allowed.includes(k)) this.fail(`${at}.${k}`, 'unknown field');
    return true;
  }
  string(v: unknown, at: string, optional = false): void {
    if (optional && v === undefined) return;
    if (typeof v !== 'string') this.fail(at, 'expected a string');
  }
  int(v: unknown, at: string, min: number): void {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) this.fail(at, `expected an integer ≥ ${min}`);
  }
  oneOf(v: unknown, at: string, values: readonly string[]): void {
    if (typeof v !== 'string' || !values.includes(v)) this.fail(at, `expected one of ${values.join(', ')}`);
  }
  array(v: unknown, at: string): v is unknown[] {
    if (Array.isArray(v)) return true;
    this.fail(at, 'expected an array');
    return false;
  }
  recordOrNull(v: unknown, at: string): void {
    if (v !== null && (!v || typeof v !== 'object' || Array.isArray(v))) this.fail(at, 'expected an object or null');
  }
}

function checkRequest(s: Shape, r: unknown, at: string): void {
  if (!s.object(r, at, REQUEST_KEYS)) return;
  s.oneOf(r.method, `${at}.method`, METHODS);
  if (typeof r.path !== 'string' || !r.path.startsWith('/')) s.fail(`${at}.path`, 'expected a string starting with /');
  if (r.capture !== undefined && s.object(r.capture, `${at}.capture`, Object.keys(r.capture as object))) {
    for (const [k, v] of Object.entries(r.capture)) s.string(v, `${at}.capture.${k}`);
  }
  const specs: unknown = r.recover;
  if (Array.isArray(specs)) {
    if (specs.length === 0) s.fail(`${at}.recover`, 'expected at least one RecoverSpec');
    specs.forEach((rec: unknown, i) => {
      checkRecover(s, rec, `${at}.recover[${i}]`);
      if (specs.length > 1 && (rec as { each?: unknown } | null)?.each === undefined) s.fail(`${at}.recover[${i}].each`, 'required when a request has several RecoverSpecs');
    });
  } else if (r.recover !== undefined) checkRecover(s, r.recover, `${at}.recover`);
  if (r.idempotent !== undefined && r.idempotent !== true) s.fail(`${at}.idempotent`, 'expected true');
  if (r.settle !== undefined) checkSettle(s, r.settle, `${at}.settle`);
  if (r.masked !== undefined && s.object(r.masked, `${at}.masked`, Object.keys(r.masked as object))) {
    for (const [k, v] of Object.entries(r.masked)) s.string(v, `${at}.masked.${k}`);
  }
  if (r.merge !== undefined && s.object(r.merge, `${at}.merge`, MERGE_KEYS)) {
    for (const k of MERGE_KEYS) {
      const list = r.merge[k];
      if (list !== undefined && s.array(list, `${at}.merge.${k}`)) list.forEach((x, i) => s.string(x, `${at}.merge.${k}[${i}]`));
    }
  }
  if (r.refs !== undefined && s.array(r.refs, `${at}.refs`)) {
    r.refs.forEach((slot, i) => {
      const where = `${at}.refs[${i}]`;
      if (!s.object(slot, where, SLOT_KEYS)) return;
      s.oneOf(slot.at, `${where}.at`, ['path', 'body']);
      s.string(slot.step, `${where}.step`);
      s.string(slot.output, `${where}.output`);
      if (slot.at === 'path') s.int(slot.offset, `${where}.offset`, 1);
      else s.string(slot.pointer, `${where}.pointer`);
    });
  }
}

function checkRecover(s: Shape, rec: unknown, at: string): void {
  if (!s.object(rec, at, RECOVER_KEYS)) return;
  if (rec.path !== undefined && (typeof rec.path !== 'string' || !rec.path.startsWith('/'))) s.fail(`${at}.path`, 'expected a string starting with /');
  if (rec.suffix !== undefined && (typeof rec.suffix !== 'string' || !rec.suffix.startsWith('/'))) s.fail(`${at}.suffix`, 'expected a string starting with /');
  s.string(rec.each, `${at}.each`, true);
  if (rec.exclude !== undefined && s.array(rec.exclude, `${at}.exclude`)) rec.exclude.forEach((id, i) => s.string(id, `${at}.exclude[${i}]`));
  if (!s.array(rec.match, `${at}.match`)) return;
  rec.match.forEach((m, i) => {
    const where = `${at}.match[${i}]`;
    if (!s.object(m, where, RECOVER_MATCH_KEYS)) return;
    s.string(m.field, `${where}.field`);
    s.string(m.body, `${where}.body`, true);
    if (m.value !== undefined && m.value !== null && typeof m.value !== 'string') s.fail(`${where}.value`, 'expected a string or null');
    if ((m.body === undefined) === (m.value === undefined)) s.fail(where, 'expected exactly one of body and value');
    if (m.ignoreCase !== undefined && typeof m.ignoreCase !== 'boolean') s.fail(`${where}.ignoreCase`, 'expected a boolean');
    if (m.not !== undefined && m.not !== true) s.fail(`${where}.not`, 'expected true');
  });
}

function checkSettle(s: Shape, settle: unknown, at: string): void {
  if (!s.object(settle, at, SETTLE_KEYS)) return;
  if (typeof settle.path !== 'string' || !settle.path.startsWith('/')) s.fail(`${at}.path`, 'expected a string starting with /');
  s.int(settle.reads, `${at}.reads`, 1);
  if (s.array(settle.until, `${at}.until`)) {
    settle.until.forEach((c, i) => {
      if (!s.object(c, `${at}.until[${i}]`, SETTLE_UNTIL_KEYS)) return;
      s.string(c.field, `${at}.until[${i}].field`);
      s.string(c.value, `${at}.until[${i}].value`);
    });
  }
  if (settle.failWhen !== undefined && s.array(settle.failWhen, `${at}.failWhen`)) {
    settle.failWhen.forEach((f, i) => {
      if (!s.object(f, `${at}.failWhen[${i}]`, SETTLE_FAIL_KEYS)) return;
      s.string(f.field, `${at}.failWhen[${i}].field`);
      s.string(f.message, `${at}.failWhen[${i}].message`, true);
      s.string(f.detail, `${at}.failWhen[${i}].detail`, true);
    });
  }
}

function checkStep(s: Shape, st: unknown, at: string, reported = false): void {
  if (!s.object(st, at, reported ? REPORTED_KEYS : STEP_KEYS)) return;
  for (const k of ['id', 'kind', 'org', 'key'] as const) s.string(st[k], `${at}.${k}`);
  s.oneOf(st.action, `${at}.action`, ACTIONS);
  s.oneOf(st.phase, `${at}.phase`, PHASES);
  s.int(st.wave, `${at}.wave`, 0);
  if (reported && (st.mode !== undefined || st.drift === undefined)) s.oneOf(st.mode, `${at}.mode`, ['additive', 'observe']);
  if (reported && st.drift !== undefined) s.oneOf(st.drift, `${at}.drift`, ['report', 'propose']);
  else if (st.mode !== undefined) s.oneOf(st.mode, `${at}.mode`, OWNERSHIP_MODES);
  s.recordOrNull(st.before, `${at}.before`);
  s.recordOrNull(st.after, `${at}.after`);
  if (st.nulls !== undefined && s.object(st.nulls, `${at}.nulls`, Object.keys(st.nulls as object))) {
    for (const [k, v] of Object.entries(st.nulls)) s.string(v, `${at}.nulls.${k}`);
  }
  if (!reported && s.array(st.dependsOn, `${at}.dependsOn`)) st.dependsOn.forEach((d, i) => s.string(d, `${at}.dependsOn[${i}]`));
  if (!reported && s.array(st.requests, `${at}.requests`)) st.requests.forEach((r, i) => checkRequest(s, r, `${at}.requests[${i}]`));
  checkSource(s, st.source, `${at}.source`);
  s.string(st.note, `${at}.note`, true);
  if (st.cascades !== undefined && s.array(st.cascades, `${at}.cascades`)) {
    st.cascades.forEach((c, i) => {
      const where = `${at}.cascades[${i}]`;
      if (!s.object(c, where, CASCADE_KEYS)) return;
      for (const k of ['kind', 'org', 'key'] as const) s.string(c[k], `${where}.${k}`);
      s.string(c.id, `${where}.id`, true);
      s.string(c.note, `${where}.note`, true);
    });
  }
}

function checkSource(s: Shape, source: unknown, at: string): void {
  if (source === undefined || !s.object(source, at, SOURCE_KEYS)) return;
  s.string(source.file, `${at}.file`);
  s.int(source.line, `${at}.line`, 1);
  s.int(source.column, `${at}.column`, 1);
}

/** Parse and validate a JSON plan; throws UsageError listing every shape problem found. */
export function parsePlanJson(text: string): Plan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`plan is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  // A saved-plan file (`docops plan --out`, src/plan-file) reads as the plan it carries.
  if (data && typeof data === 'object' && typeof (data as Record<string, unknown>)['planChecksum'] === 'string' && 'plan' in data) {
    data = (data as Record<string, unknown>)['plan'];
  }
  const problems: string[] = [];
  const s = new Shape(problems);
  if (s.object(data, 'plan', [...PLAN_KEYS, 'scopes', 'policy'])) {
    // Derived from the plan when printed (renderJson's `scopes` and `policy`), never read back.
    delete data.scopes;
    delete data.policy;
    if (data.formatVersion !== 1) s.fail('plan.formatVersion', `unsupported plan format ${JSON.stringify(data.formatVersion)} (expected 1)`);
    if (s.array(data.steps, 'plan.steps')) {
      data.steps.forEach((st, i) => checkStep(s, st, `plan.steps[${i}]`));
      const ids = new Set<string>();
      for (const st of data.steps as Step[]) {
        if (ids.has(st.id)) s.fail('plan.steps', `duplicate step id ${st.id}`);
        ids.add(st.id);
      }
      for (const st of data.steps as Step[]) {
        for (const d of Array.isArray(st.dependsOn) ? st.dependsOn : []) {
          if (!ids.has(d)) s.fail(`plan.steps[${st.id}].dependsOn`, `unknown step ${d}`);
        }
      }
    }
    if (s.array(data.unmanaged, 'plan.unmanaged')) {
      data.unmanaged.forEach((u, i) => {
        if (!s.object(u, `plan.unmanaged[${i}]`, UNMANAGED_KEYS)) return;
        for (const k of ['kind', 'org', 'key'] as const) s.string(u[k], `plan.unmanaged[${i}].${k}`);
        s.string(u.id, `plan.unmanaged[${i}].id`, true);
        if (u.mode !== undefined) s.oneOf(u.mode, `plan.unmanaged[${i}].mode`, OWNERSHIP_MODES);
      });
    }
    if (s.array(data.warnings, 'plan.warnings')) {
      data.warnings.forEach((w, i) => {
        if (!s.object(w, `plan.warnings[${i}]`, WARNING_KEYS)) return;
        for (const k of WARNING_KEYS) s.string(w[k], `plan.warnings[${i}].${k}`);
      });
    }
    // Plans saved before blocked objects existed have none.
    if (data.blocked === undefined) data.blocked = [];
    if (s.array(data.blocked, 'plan.blocked')) {
      data.blocked.forEach((b, i) => {
        if (!s.object(b, `plan.blocked[${i}]`, BLOCKED_KEYS)) return;
        for (const k of ['kind', 'org', 'key', 'message'] as const) s.string(b[k], `plan.blocked[${i}].${k}`);
        checkSource(s, b.source, `plan.blocked[${i}].source`);
      });
    }
    if (data.reported !== undefined && s.array(data.reported, 'plan.reported')) data.reported.forEach((r, i) => checkStep(s, r, `plan.reported[${i}]`, true));
    if (data.owned !== undefined && s.array(data.owned, 'plan.owned')) {
      data.owned.forEach((o, i) => {
        if (!s.object(o, `plan.owned[${i}]`, OWNED_KEYS)) return;
        for (const k of ['kind', 'org', 'key', 'what', 'owner'] as const) s.string(o[k], `plan.owned[${i}].${k}`);
        s.string(o.id, `plan.owned[${i}].id`, true);
      });
    }
    if (data.attribution !== undefined && s.object(data.attribution, 'plan.attribution', ATTRIBUTION_KEYS)) {
      const a = data.attribution;
      s.string(a.unavailable, 'plan.attribution.unavailable', true);
      if (s.array(a.changes, 'plan.attribution.changes')) {
        a.changes.forEach((c, i) => {
          if (!s.object(c, `plan.attribution.changes[${i}]`, CHANGE_KEYS)) return;
          for (const k of CHANGE_KEYS) s.string(c[k], `plan.attribution.changes[${i}].${k}`);
        });
      }
    }
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 20);
    const more = problems.length > shown.length ? `\n… and ${problems.length - shown.length} more` : '';
    throw new UsageError(`not a valid docops plan:\n${shown.join('\n')}${more}`);
  }
  return data as unknown as Plan;
}
