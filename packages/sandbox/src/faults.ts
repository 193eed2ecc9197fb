/**
 * Fault injection for /v1 requests, deterministic under a seed. Grammar (comma-separated key=value):
 *
 *   latency=20ms          fixed delay before every request is handled (ms | s; a bare number is ms)
 *   spike=0.01:300ms      with probability 0.01, an extra delay of 300ms
 *   429=0.05              answer 429 with Retry-After (whole seconds, see retryAfter)
 *   5xx=0.02              answer 502, 503 or 504 before the request is processed (nothing happens)
 *   5xxAfter=0.02         process the request (writes happen), then answer 502, 503 or 504 instead of its answer
 *   reset=0.01            destroy the socket before the request is processed (nothing happens)
 *   resetAfter=0.01       process the request (writes happen), then destroy the socket without answering
 *   retryAfter=1          Retry-After seconds on 429 (default 1; 0 allowed)
 *   seed=7                PRNG seed (default 1)
 *   max=3                 inject at most this many failures (429/5xx/5xxAfter/reset/resetAfter), then pass
 *   rateLimit=600/min     a token bucket per bearer token (rate-limit.ts): X-RateLimit-* headers on every answer,
 *                         429 with Retry-After when empty; not a random fault (draws nothing, never counts in max)
 *
 * The world's habits (not failures: they draw from streams of their own, never count in max, and leave the
 * outcomes above unchanged for a seed):
 *
 *   stale=2s              list answers show each object as it was this long ago (a create appears late, a delete
 *                         disappears late, an update shows the old values late); a GET of one object is current
 *   auditDelay=2s:1s      an audit event becomes visible this long (± the jitter, so out of order across changes)
 *                         after its change, carrying the time of the change
 *   evolve=0.2            with this probability per object, answers carry fields docops does not know and, where
 *                         the spec has an enum, a value outside it (what a newer API sends): the store holds them
 *                         (a later GET shows the value until someone writes the field), a body that writes the
 *                         object may send them back and keeps them; objects created while it is set get the
 *                         fields only; turning it off takes nothing back (evolve.ts, evolve-habits.ts)
 *   race=0.1              with this probability, between docops's read of an object and its write of it, another
 *                         actor changes the same object (a different field, or an item of the same list)
 *
 * Every request draws exactly three numbers, in arrival order, so the same seed and the same request
 * sequence give the same outcomes whatever the outcomes are. The outcomes are laid out on [0, 1) in the order
 * 429, 5xx, reset, resetAfter, 5xxAfter (the last one added last, so older specs keep their outcomes per seed).
 * A client cannot tell a 5xx or a reset before processing from one after: both mean "may have happened".
 */
import { parseRateLimit, type RateLimitSpec } from './rate-limit.js';

export interface FaultSpec {
  latencyMs?: number;
  spike?: { probability: number; durationMs: number };
  tooManyRequests?: number;
  serverError?: number;
  /** Process the request, then answer 502/503/504 instead of its real answer. */
  serverErrorAfter?: number;
  reset?: number;
  resetAfter?: number;
  retryAfterSeconds?: number;
  seed?: number;
  maxFaults?: number;
  rateLimit?: RateLimitSpec;
  /** List answers lag this far behind (ms). */
  staleMs?: number;
  /** Audit events become visible this long after their change, ± jitterMs. */
  auditDelay?: { delayMs: number; jitterMs: number };
  /** Probability per object of fields and enum values from a newer API. */
  evolve?: number;
  /** Probability per read-then-write of another actor's change in between. */
  race?: number;
}

export type FaultOutcome =
  | { kind: 'pass' }
  | { kind: 'status'; status: number; headers: Record<string, string> }
  /** Process the request, then answer this status instead. */
  | { kind: 'statusAfter'; status: number }
  | { kind: 'reset' }
  | { kind: 'resetAfter' };

export interface FaultDecision {
  delayMs: number;
  outcome: FaultOutcome;
}

const KEYS = [
  'latency',
  'spike',
  '429',
  '5xx',
  '5xxAfter',
  'reset',
  'resetAfter',
  'retryAfter',
  'seed',
  'max',
  'rateLimit',
  'stale',
  'auditDelay',
  'evolve',
  'race',
];

export function parseFaults(spec: string): FaultSpec {
  const out: FaultSpec = {};
  const fail = (why: string): never => {
    throw new Error(`invalid fault spec "${spec}": ${why}`);
  };
  for (const raw of spec.split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) fail(`"${part}" is not key=value`);
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    const prob = (): number => {
      const n = Number(value);
      if (value === '' || !Number.isFinite(n) || n < 0 || n > 1)
        fail(`${key} must be a probability between 0 and 1 (got "${value}")`);
      return n;
    };
    const duration = (v: string): number => {
      const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(v);
      if (!m) return fail(`${key} must be a duration like 20ms or 1.5s (got "${v}")`);
      return Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1));
    };
    const whole = (): number => {
      if (!/^\d+$/.test(value)) fail(`${key} must be a non-negative integer (got "${value}")`);
      return Number(value);
    };
    switch (key) {
      case 'latency':
        out.latencyMs = duration(value);
        break;
      case 'spike': {
        const [p, d] = value.split(':');
        if (p === undefined || d === undefined)
          return fail(`spike must be PROBABILITY:DURATION, e.g. 0.01:300ms (got "${value}")`);
        const n = Number(p);
        if (p === '' || !Number.isFinite(n) || n < 0 || n > 1)
          fail(`spike probability must be between 0 and 1 (got "${p}")`);
        out.spike = { probability: n, durationMs: duration(d) };
        break;
      }
      case '429':
        out.tooManyRequests = prob();
        break;
      case '5xx':
        out.serverError = prob();
        break;
      case '5xxAfter':
        out.serverErrorAfter = prob();
        break;
      case 'reset':
        out.reset = prob();
        break;
      case 'resetAfter':
        out.resetAfter = prob();
        break;
      case 'retryAfter':
        out.retryAfterSeconds = whole();
        break;
      case 'seed':
        out.seed = whole();
        break;
      case 'max':
        out.maxFaults = whole();
        break;
      case 'rateLimit':
        try {
          out.rateLimit = parseRateLimit(value);
        } catch (err) {
          fail((err as Error).message);
        }
        break;
      case 'stale':
        out.staleMs = duration(value);
        break;
      case 'auditDelay': {
        const [d, j] = value.split(':');
        out.auditDelay = { delayMs: duration(d ?? ''), jitterMs: j === undefined ? 0 : duration(j) };
        if (out.auditDelay.jitterMs > out.auditDelay.delayMs)
          fail(`auditDelay's jitter may not exceed its delay (an event is never visible before its change)`);
        break;
      }
      case 'evolve':
        out.evolve = prob();
        break;
      case 'race':
        out.race = prob();
        break;
      default:
        fail(`unknown key "${key}" (known: ${KEYS.join(', ')})`);
    }
  }
  const total =
    (out.tooManyRequests ?? 0) +
    (out.serverError ?? 0) +
    (out.serverErrorAfter ?? 0) +
    (out.reset ?? 0) +
    (out.resetAfter ?? 0);
  if (total > 1 + 1e-9)
    fail(`the probabilities of 429, 5xx, 5xxAfter, reset and resetAfter add up to ${total}, more than 1`);
  return out;
}

/** mulberry32: a tiny, well-distributed 32-bit PRNG; our own so results never depend on Math.random. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A PRNG stream of its own for one of the world's habits (stale, auditDelay, evolve, race), seeded by the spec's
 * seed and the habit's name: drawing from it never shifts the per-request outcomes above.
 */
export function habitStream(spec: FaultSpec, habit: string): () => number {
  return mulberry32(((spec.seed ?? 1) ^ fnv1a(habit)) >>> 0);
}

/** A number in [0, 1) fixed by the seed, the habit and a key (an object's table and id): the same every time asked. */
export function habitChance(spec: FaultSpec, habit: string, key: string): number {
  return mulberry32(((spec.seed ?? 1) ^ fnv1a(`${habit}\u0000${key}`)) >>> 0)();
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const SERVER_ERRORS = [502, 503, 504] as const;

export class FaultInjector {
  private readonly random: () => number;
  private injected = 0;

  constructor(readonly spec: FaultSpec) {
    this.random = mulberry32(spec.seed ?? 1);
  }

  /** Decide the fate of the next request. Call once per /v1 request, in arrival order. */
  decide(): FaultDecision {
    const s = this.spec;
    const [u, spikeU, pickU] = [this.random(), this.random(), this.random()];
    let delayMs = s.latencyMs ?? 0;
    if (s.spike && spikeU < s.spike.probability) delayMs += s.spike.durationMs;
    if (s.maxFaults !== undefined && this.injected >= s.maxFaults) return { delayMs, outcome: { kind: 'pass' } };
    const outcome = this.pick(u, pickU);
    if (outcome.kind !== 'pass') this.injected++;
    return { delayMs, outcome };
  }

  private pick(u: number, pickU: number): FaultOutcome {
    const s = this.spec;
    let edge = s.tooManyRequests ?? 0;
    if (u < edge) return { kind: 'status', status: 429, headers: { 'retry-after': String(s.retryAfterSeconds ?? 1) } };
    edge += s.serverError ?? 0;
    if (u < edge) return { kind: 'status', status: SERVER_ERRORS[Math.floor(pickU * 3)] ?? 503, headers: {} };
    edge += s.reset ?? 0;
    if (u < edge) return { kind: 'reset' };
    edge += s.resetAfter ?? 0;
    if (u < edge) return { kind: 'resetAfter' };
    edge += s.serverErrorAfter ?? 0;
    if (u < edge) return { kind: 'statusAfter', status: SERVER_ERRORS[Math.floor(pickU * 3)] ?? 503 };
    return { kind: 'pass' };
  }
}

export function toFaultSpec(spec: string | FaultSpec | undefined): FaultSpec | undefined {
  if (spec === undefined) return undefined;
  return typeof spec === 'string' ? parseFaults(spec) : spec;
}
