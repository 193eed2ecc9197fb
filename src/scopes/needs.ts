/**
 * The least-privilege token a plan needs: the OAuth scopes of the requests behind it, each request matched to
 * its spec operation by method and path template (src/scopes/operations.ts). Two sets: what `plan` used (the
 * reads it made), and what `apply` of this plan uses (the same reads, the steps' requests, the reads apply adds:
 * a read-modify-write's GET, a lost create's re-read, a settle's polling, and `GET /user` for the safety guards).
 * Derived from the plan and the reads, never stored in the plan.
 */
import type { ApiClient } from '../model/api-client.js';
import { recoverPath, recoverSpecs, type Plan, type RequestSpec } from '../model/plan.js';
import { placeholder } from '../model/refs.js';
import { matchOperation } from './operations.js';

export interface ApiCall {
  method: string;
  path: string;
}

export interface TokenNeeds {
  /** OAuth scopes, sorted. */
  scopes: string[];
  /** Operations (`METHOD /template`) the spec gives no OAuth scope: only a personal token may call them. */
  personalTokenOnly: string[];
  /** Requests (`METHOD path`) that match no operation of the spec. */
  unmatched: string[];
}

export interface PlanScopes {
  plan: TokenNeeds;
  apply: TokenNeeds;
}

export function tokenNeeds(calls: Iterable<ApiCall>): TokenNeeds {
  const scopes = new Set<string>();
  const personal = new Set<string>();
  const unmatched = new Set<string>();
  for (const call of calls) {
    let op;
    try {
      op = matchOperation(call.method, call.path);
    } catch {
      op = undefined; // a path segment that is not valid percent-encoding names no operation
    }
    if (!op) unmatched.add(`${call.method} ${call.path}`);
    else if (op.scopes.length === 0) personal.add(`${op.method} ${op.path}`);
    else for (const s of op.scopes) scopes.add(s);
  }
  return { scopes: [...scopes].sort(), personalTokenOnly: [...personal].sort(), unmatched: [...unmatched].sort() };
}

/** A path of the request with each of its refs (ids known after apply) as one stand-in segment. */
function withoutRefs(path: string, r: RequestSpec): string {
  let out = path;
  for (const slot of r.refs ?? []) out = out.split(placeholder(slot.step, slot.output)).join('ref');
  return out;
}

/** Every request apply of this plan sends, and the reads it makes around them. */
export function applyCalls(plan: Plan): ApiCall[] {
  const calls: ApiCall[] = [{ method: 'GET', path: '/user' }];
  for (const step of plan.steps) {
    for (const r of step.requests) {
      const path = withoutRefs(r.path, r);
      calls.push({ method: r.method, path });
      if (r.merge) calls.push({ method: 'GET', path });
      for (const spec of recoverSpecs(r)) calls.push({ method: 'GET', path: recoverPath(spec, path) });
      if (r.settle) calls.push({ method: 'GET', path: withoutRefs(r.settle.path, r) });
    }
  }
  return calls;
}

export function planScopes(plan: Plan, reads: readonly ApiCall[]): PlanScopes {
  return { plan: tokenNeeds(reads), apply: tokenNeeds([...reads, ...applyCalls(plan)]) };
}

/** The same client, recording every read it makes (the paths a plan's fetch reads). */
export function recordingClient(client: ApiClient, reads: ApiCall[]): ApiClient {
  const read = (path: string): void => void reads.push({ method: 'GET', path });
  return {
    get baseUrl() {
      return client.baseUrl;
    },
    request: (method, path, options) => {
      if (method === 'GET') read(path);
      return client.request(method, path, options);
    },
    get: (path, query) => (read(path), client.get(path, query)),
    paginate: (path, query) => (read(path), client.paginate(path, query)),
    listAll: (path, query) => (read(path), client.listAll(path, query)),
    close: () => client.close(),
  };
}

const list = (items: readonly string[]): string => (items.length === 0 ? 'none' : items.join(', '));

/** Lines for the text and markdown plans: the scopes of the read-only and the write token. */
export function scopeLines(s: PlanScopes): string[] {
  const extra = s.apply.scopes.filter((x) => !s.plan.scopes.includes(x));
  const lines = [
    `Token scopes: plan ${list(s.plan.scopes)}; apply ${list(s.apply.scopes)}${extra.length > 0 ? ` (adds ${extra.join(', ')})` : ''}.`,
  ];
  if (s.apply.personalTokenOnly.length > 0) {
    lines.push(`Personal token only (the spec gives these no OAuth scope): ${s.apply.personalTokenOnly.join(', ')}.`);
  }
  if (s.apply.unmatched.length > 0) lines.push(`Not in the API spec: ${s.apply.unmatched.join(', ')}.`);
  return lines;
}
