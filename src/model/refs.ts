/**
 * Ids "known after apply": how a step names an output of an earlier step, and how apply fills it in.
 *
 * User text is data. A manifest title may well read `<<ref:Team/o/x#create.id>>`, so a ref is never recognised by
 * its text in a plan. While kinds diff, `ref()` makes an in-memory token that carries a random per-process nonce
 * (no manifest and no API answer can contain it); `sealRequest` then turns each token into a readable placeholder
 * AND records where it sits in `RequestSpec.refs`. Apply substitutes only at the recorded places, so a saved plan
 * (plain JSON) is applied exactly, and a title that looks like a ref is sent as the title.
 */
import { DocopsError } from './errors.js';
import type { RefSlot, RequestSpec, Step } from './plan.js';

/**
 * The token syntax with this process's nonce, made on first use: loading node:crypto costs every command that
 * only reads manifests (validate) a few milliseconds, and only plans make refs.
 */
let syntax: { prefix: string; all: RegExp; only: RegExp } | undefined;
function tokens(): { prefix: string; all: RegExp; only: RegExp } {
  if (!syntax) {
    // node:crypto is loaded here, on first use (process.getBuiltinModule: Node ≥ 20.16), not with this module.
    const nonce = process
      .getBuiltinModule('node:crypto')
      .randomBytes(12)
      .toString('base64url')
      .replace(/[^A-Za-z0-9]/g, 'x');
    syntax = {
      prefix: `<<ref:${nonce}:`,
      all: new RegExp(`<<ref:${nonce}:([^:>]+):([A-Za-z0-9_]+)>>`, 'g'),
      only: new RegExp(`^<<ref:${nonce}:([^:>]+):([A-Za-z0-9_]+)>>$`),
    };
  }
  return syntax;
}

export interface RefTarget {
  stepId: string;
  output: string;
}

/** A reference to output `output` of step `stepId`, for a request path or body; resolved when the plan is applied. */
export function ref(stepId: string, output = 'id'): string {
  return `${tokens().prefix}${encodeURIComponent(stepId)}:${output}>>`;
}

/** Whether a value is (or contains) a ref made by `ref()` in this process. Text a user wrote never is. */
export function isRef(value: unknown): value is string {
  return typeof value === 'string' && value.includes(tokens().prefix);
}

/** How a ref reads in a sealed plan (and in renderings of requests): `<<ref:STEP_ID.OUTPUT>>`. Display only. */
export function placeholder(stepId: string, output: string): string {
  return `<<ref:${stepId}.${output}>>`;
}

const hasToken = (text: string): boolean => text.includes(tokens().prefix);

/** Every (stepId, output) a value refers to: tokens in strings, and the recorded slots of sealed requests. */
export function refsIn(value: string | null | undefined | readonly RequestSpec[]): RefTarget[] {
  if (typeof value === 'string') return tokensIn(value);
  if (!value) return [];
  const out: RefTarget[] = [];
  for (const r of value) {
    for (const s of r.refs ?? []) out.push({ stepId: s.step, output: s.output });
    out.push(...tokensIn(r.path));
    visitStrings(r.body, (text) => void out.push(...tokensIn(text)));
  }
  return out;
}

function tokensIn(text: string): RefTarget[] {
  if (!hasToken(text)) return [];
  return [...text.matchAll(tokens().all)].map((m) => ({ stepId: decodeURIComponent(m[1]!), output: m[2]! }));
}

function visitStrings(v: unknown, fn: (s: string) => void): void {
  if (typeof v === 'string') fn(v);
  else if (Array.isArray(v)) for (const x of v) visitStrings(x, fn);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) visitStrings(x, fn);
}

/**
 * The request with every token replaced by its placeholder and its place recorded in `refs` (a request that is
 * already sealed keeps its slots). A ref must be a whole path segment or a whole body value: a token inside
 * other text or in an object key is a kind bug.
 */
export function sealRequest(req: RequestSpec): RequestSpec {
  if (!hasToken(req.path) && !containsToken(req.body)) return req;
  const slots: RefSlot[] = [...(req.refs ?? [])];
  let path = '';
  let last = 0;
  for (const m of req.path.matchAll(tokens().all)) {
    const stepId = decodeURIComponent(m[1]!);
    const text = placeholder(stepId, m[2]!);
    const before = req.path.slice(last, m.index);
    path += before;
    const end = m.index + m[0].length;
    if (!(path.endsWith('/') && (end === req.path.length || req.path[end] === '/'))) {
      throw new Error(`internal: a ref must be a whole path segment: ${req.method} ${req.path}`);
    }
    slots.push({ at: 'path', offset: path.length, step: stepId, output: m[2]! });
    path += text;
    last = end;
  }
  path += req.path.slice(last);
  const body = req.body === undefined ? undefined : sealValue(req.body, '', slots, req);
  const out: RequestSpec = { ...req, path };
  if (body !== undefined) out.body = body;
  out.refs = slots;
  return out;
}

function containsToken(v: unknown): boolean {
  let found = false;
  visitStrings(v, (s) => {
    if (s.includes(tokens().prefix)) found = true;
  });
  if (!found && v && typeof v === 'object') found = keysHoldToken(v);
  return found;
}

function keysHoldToken(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(keysHoldToken);
  if (v && typeof v === 'object')
    return Object.entries(v).some(([k, x]) => k.includes(tokens().prefix) || keysHoldToken(x));
  return false;
}

function sealValue(v: unknown, pointer: string, slots: RefSlot[], req: RequestSpec): unknown {
  if (typeof v === 'string') {
    if (!v.includes(tokens().prefix)) return v;
    const m = tokens().only.exec(v);
    if (!m)
      throw new Error(`internal: a ref must be a whole body value: ${req.method} ${req.path} at ${pointer || '/'}`);
    const stepId = decodeURIComponent(m[1]!);
    slots.push({ at: 'body', pointer, step: stepId, output: m[2]! });
    return placeholder(stepId, m[2]!);
  }
  if (Array.isArray(v)) return v.map((x, i) => sealValue(x, `${pointer}/${i}`, slots, req));
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => {
        if (k.includes(tokens().prefix))
          throw new Error(`internal: a ref cannot be an object key: ${req.method} ${req.path}`);
        return [k, sealValue(x, `${pointer}/${escapePointer(k)}`, slots, req)];
      }),
    );
  }
  return v;
}

/** The step with its requests sealed. `before`, `after` and `note` are for people and hold no refs. */
export function sealStep(step: Step): Step {
  for (const [field, v] of [
    ['before', step.before],
    ['after', step.after],
    ['note', step.note],
  ] as const) {
    if (containsToken(v)) throw new Error(`internal: step ${step.id} has a ref in its ${field}`);
  }
  if (!step.requests.some((r) => hasToken(r.path) || containsToken(r.body))) return step;
  return { ...step, requests: step.requests.map(sealRequest) };
}

const escapePointer = (k: string): string => k.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (k: string): string => k.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * Path and body of a sealed request with each slot filled by `lookup`. A value that lands in the path is checked
 * and encoded as one segment (an id the server returned must not change which resource a request addresses).
 * Throws when a slot does not hold its placeholder (a hand-edited plan) or a token was never sealed.
 */
export function resolveRequest(
  req: RequestSpec,
  lookup: (stepId: string, output: string) => string,
): { path: string; body: unknown } {
  if (hasToken(req.path) || containsToken(req.body))
    throw new Error(`internal: request was not sealed: ${req.method} ${req.path}`);
  let path = req.path;
  let body: unknown = req.body === undefined ? undefined : structuredClone(req.body);
  const pathSlots = (req.refs ?? []).filter((s) => s.at === 'path').sort((a, b) => (b.offset ?? 0) - (a.offset ?? 0));
  for (const s of pathSlots) {
    const text = placeholder(s.step, s.output);
    const offset = s.offset ?? -1;
    if (path.slice(offset, offset + text.length) !== text)
      throw new Error(`plan request ${req.method} ${req.path} has no ${text} at ${offset}`);
    path = path.slice(0, offset) + pathSegment(lookup(s.step, s.output)) + path.slice(offset + text.length);
  }
  for (const s of req.refs ?? []) {
    if (s.at !== 'body') continue;
    const text = placeholder(s.step, s.output);
    const value = lookup(s.step, s.output);
    if (s.pointer === '' || s.pointer === undefined) {
      if (body !== text) throw new Error(`plan request ${req.method} ${req.path} has no ${text} as its body`);
      body = value;
      continue;
    }
    const parts = s.pointer.split('/').slice(1).map(unescapePointer);
    let parent: unknown = body;
    for (const p of parts.slice(0, -1))
      parent = parent && typeof parent === 'object' ? (parent as Record<string, unknown>)[p] : undefined;
    const leaf = parts[parts.length - 1]!;
    if (!parent || typeof parent !== 'object' || (parent as Record<string, unknown>)[leaf] !== text) {
      throw new Error(`plan request ${req.method} ${req.path} has no ${text} at ${s.pointer}`);
    }
    (parent as Record<string, unknown>)[leaf] = value;
  }
  return { path, body };
}

/**
 * One id as a path segment: URL-encoded, and never empty, `.` or `..` (even encoded, URL parsers treat `%2e%2e`
 * as `..`): such an id would make a request address another resource than the one planned.
 */
export function pathSegment(id: string): string {
  if (id === '' || /^(\.|%2e){1,2}$/i.test(id))
    throw new DocopsError(`id ${JSON.stringify(id)} cannot be used in a request path (empty, "." or "..")`);
  return encodeURIComponent(id);
}
