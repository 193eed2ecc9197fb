/**
 * The strict parser of a plan's stable JSON form (json.ts renders it), so a saved plan round-trips exactly; it also
 * accepts a saved-plan file and returns the plan inside it. Every problem is reported with its path.
 */
import { UsageError } from '../model/errors.js';
import { PHASES } from '../model/plan.js';
import { OWNERSHIP_MODES, type Plan, type Step } from '../model/plan.js';
import {
  REPORTED_KEYS,
  OWNED_KEYS,
  PLAN_KEYS,
  ATTRIBUTION_KEYS,
  CHANGE_KEYS,
  STEP_KEYS,
  CASCADE_KEYS,
  REQUEST_KEYS,
  REFUSED_KEYS,
  BATCH_KEYS,
  MERGE_KEYS,
  JOIN_KEYS,
  SETTLE_KEYS,
  SETTLE_UNTIL_KEYS,
  SETTLE_FAIL_KEYS,
  RECOVER_KEYS,
  RECOVER_MATCH_KEYS,
  SLOT_KEYS,
  SOURCE_KEYS,
  UNMANAGED_KEYS,
  WARNING_KEYS,
  BLOCKED_KEYS,
  ACTIONS,
  METHODS,
} from './json-keys.js';
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
      if (specs.length > 1 && (rec as { each?: unknown } | null)?.each === undefined)
        s.fail(`${at}.recover[${i}].each`, 'required when a request has several RecoverSpecs');
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
      if (list !== undefined && s.array(list, `${at}.merge.${k}`))
        list.forEach((x, i) => s.string(x, `${at}.merge.${k}[${i}]`));
    }
  }
  if (r.joins !== undefined && s.object(r.joins, `${at}.joins`, JOIN_KEYS)) {
    for (const k of JOIN_KEYS) s.string(r.joins[k], `${at}.joins.${k}`);
    if (typeof r.joins.list === 'string' && !r.joins.list.startsWith('/'))
      s.fail(`${at}.joins.list`, 'expected a string starting with /');
  }
  if (r.refusedWhen !== undefined && s.array(r.refusedWhen, `${at}.refusedWhen`)) {
    r.refusedWhen.forEach((x, i) => {
      if (!s.object(x, `${at}.refusedWhen[${i}]`, REFUSED_KEYS)) return;
      for (const k of REFUSED_KEYS) s.string(x[k], `${at}.refusedWhen[${i}].${k}`);
    });
  }
  if (r.batch !== undefined && s.object(r.batch, `${at}.batch`, BATCH_KEYS)) {
    s.string(r.batch.list, `${at}.batch.list`);
    s.string(r.batch.results, `${at}.batch.results`);
    s.int(r.batch.max, `${at}.batch.max`, 1);
    if (s.object(r.batch.failed, `${at}.batch.failed`, REFUSED_KEYS))
      for (const k of REFUSED_KEYS) s.string(r.batch.failed[k], `${at}.batch.failed.${k}`);
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
  if (rec.path !== undefined && (typeof rec.path !== 'string' || !rec.path.startsWith('/')))
    s.fail(`${at}.path`, 'expected a string starting with /');
  if (rec.suffix !== undefined && (typeof rec.suffix !== 'string' || !rec.suffix.startsWith('/')))
    s.fail(`${at}.suffix`, 'expected a string starting with /');
  s.string(rec.each, `${at}.each`, true);
  if (rec.exclude !== undefined && s.array(rec.exclude, `${at}.exclude`))
    rec.exclude.forEach((id, i) => s.string(id, `${at}.exclude[${i}]`));
  if (!s.array(rec.match, `${at}.match`)) return;
  rec.match.forEach((m, i) => {
    const where = `${at}.match[${i}]`;
    if (!s.object(m, where, RECOVER_MATCH_KEYS)) return;
    s.string(m.field, `${where}.field`);
    s.string(m.body, `${where}.body`, true);
    if (m.value !== undefined && m.value !== null && typeof m.value !== 'string')
      s.fail(`${where}.value`, 'expected a string or null');
    if ((m.body === undefined) === (m.value === undefined)) s.fail(where, 'expected exactly one of body and value');
    if (m.ignoreCase !== undefined && typeof m.ignoreCase !== 'boolean')
      s.fail(`${where}.ignoreCase`, 'expected a boolean');
    if (m.not !== undefined && m.not !== true) s.fail(`${where}.not`, 'expected true');
  });
}

function checkSettle(s: Shape, settle: unknown, at: string): void {
  if (!s.object(settle, at, SETTLE_KEYS)) return;
  if (typeof settle.path !== 'string' || !settle.path.startsWith('/'))
    s.fail(`${at}.path`, 'expected a string starting with /');
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
  if (reported && (st.mode !== undefined || st.drift === undefined))
    s.oneOf(st.mode, `${at}.mode`, ['additive', 'observe']);
  if (reported && st.drift !== undefined) s.oneOf(st.drift, `${at}.drift`, ['report', 'propose']);
  else if (st.mode !== undefined) s.oneOf(st.mode, `${at}.mode`, OWNERSHIP_MODES);
  s.recordOrNull(st.before, `${at}.before`);
  s.recordOrNull(st.after, `${at}.after`);
  if (st.nulls !== undefined && s.object(st.nulls, `${at}.nulls`, Object.keys(st.nulls as object))) {
    for (const [k, v] of Object.entries(st.nulls)) s.string(v, `${at}.nulls.${k}`);
  }
  if (!reported && s.array(st.dependsOn, `${at}.dependsOn`))
    st.dependsOn.forEach((d, i) => s.string(d, `${at}.dependsOn[${i}]`));
  if (!reported && s.array(st.requests, `${at}.requests`))
    st.requests.forEach((r, i) => checkRequest(s, r, `${at}.requests[${i}]`));
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
  if (
    data &&
    typeof data === 'object' &&
    typeof (data as Record<string, unknown>)['planChecksum'] === 'string' &&
    'plan' in data
  ) {
    data = (data as Record<string, unknown>)['plan'];
  }
  assertPlan(data);
  return data;
}

/**
 * Every field of a plan, checked by Shape against what renderJson writes (a saved or hand-edited plan is read
 * back as the plan it says it is only when nothing is wrong); throws UsageError listing the problems found.
 */
function assertPlan(data: unknown): asserts data is Plan {
  const problems: string[] = [];
  const s = new Shape(problems);
  if (s.object(data, 'plan', [...PLAN_KEYS, 'scopes', 'policy'])) {
    // Derived from the plan when printed (renderJson's `scopes` and `policy`), never read back.
    delete data.scopes;
    delete data.policy;
    if (data.formatVersion !== 1)
      s.fail('plan.formatVersion', `unsupported plan format ${JSON.stringify(data.formatVersion)} (expected 1)`);
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
    if (data.reported !== undefined && s.array(data.reported, 'plan.reported'))
      data.reported.forEach((r, i) => checkStep(s, r, `plan.reported[${i}]`, true));
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
}
