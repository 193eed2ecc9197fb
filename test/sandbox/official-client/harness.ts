/**
 * Drives the platform's own generated client (`@gitbook/api`, not written by us) against a sandbox on 127.0.0.1
 * (ephemeral port). Every answer the client receives is checked against the official spec's response schema for
 * its operation and status, so a case fails when the sandbox answers a shape the spec does not allow (a missing
 * required member, a wrong type), whatever the case itself asserts.
 */
import { GitBookAPI } from '@gitbook/api';
// The package's index.d.ts re-exports './client' without a file extension, which NodeNext resolution cannot
// follow, and its `exports` hide dist/: the generated methods' types are read from client.d.ts by path.
import type { Api } from '../../../node_modules/@gitbook/api/dist/client.js';
import { expect } from 'vitest';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { requestValidator, responseValidator, spec } from '../contract-spec.js';
import type { Json } from '../helpers.js';

export const ORG = 'org-demo';

/** One spec operation a case calls: its method and spec path (e.g. `/orgs/{organizationId}/sites`). */
export interface SpecOperation {
  operationId: string;
  method: string;
  path: string;
}

const OPERATIONS: SpecOperation[] = Object.entries(spec.paths as Record<string, Record<string, Json>>).flatMap(
  ([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({ operationId: op.operationId as string, method: method.toUpperCase(), path })),
);

const pathPattern = (specPath: string): RegExp =>
  new RegExp(`^${specPath.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
const PATTERNS = OPERATIONS.map((op) => ({
  op,
  re: pathPattern(op.path),
  literal: op.path.replace(/\{[^}]+\}/g, '').length,
}));

/** The spec operation a request hits (the most literal path wins: `/versions/latest` over `/versions/{id}`). */
export function operationOf(method: string, path: string): SpecOperation | undefined {
  const found = PATTERNS.filter((p) => p.op.method === method && p.re.test(path));
  return found.sort((a, b) => b.literal - a.literal)[0]?.op;
}

const requestValidators = new Map<string, ReturnType<typeof requestValidator> | null>();

function requestValidatorFor(op: SpecOperation): ReturnType<typeof requestValidator> | null {
  if (!requestValidators.has(op.operationId)) {
    let v: ReturnType<typeof requestValidator> | null = null;
    try {
      v = requestValidator(op.method, op.path);
    } catch {
      v = null; // the operation declares no body
    }
    requestValidators.set(op.operationId, v);
  }
  return requestValidators.get(op.operationId) ?? null;
}

const validators = new Map<string, ReturnType<typeof responseValidator> | null>();

function validatorFor(op: SpecOperation, status: number): ReturnType<typeof responseValidator> | null {
  const key = `${op.operationId} ${status}`;
  if (!validators.has(key)) {
    let v: ReturnType<typeof responseValidator> | null = null;
    try {
      v = responseValidator(op.method, op.path, status);
    } catch {
      v = null; // no JSON body declared for this status (204/205 …)
    }
    validators.set(key, v);
  }
  return validators.get(key) ?? null;
}

/** What the client sent and received, for the assertions of a case. */
export interface Exchange {
  operationId: string | undefined;
  method: string;
  path: string;
  status: number;
  body: unknown;
}

/**
 * The official client with its generated methods' names and answer types. Arguments are loosened: the generated
 * types use TS enums for every enum (string literals do not type-check) and type maps keyed by language as
 * records of ALL languages; what the cases send is checked instead at run time against the spec's request
 * schema (`startEnv`), which is the stronger claim.
 */
type Loose<T> = {
  [K in keyof T]: {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    [M in keyof T[K]]: T[K][M] extends (...args: any[]) => Promise<infer R> ? (...args: any[]) => Promise<R> : T[K][M];
  };
};
type GeneratedMethods = Loose<Api<{ authToken?: string }>>;
declare module '@gitbook/api' {
  // Give GitBookAPI the members index.d.ts fails to re-export (declaration merging, no cast).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GitBookAPI extends GeneratedMethods {}
}
export type OfficialClient = GitBookAPI;

export interface Env {
  api: OfficialClient;
  sb: RunningSandbox;
  /** Every exchange of this case, in order. */
  log: Exchange[];
  /** Answers that do not match the spec's response schema (checked after the case). */
  problems: string[];
}

export async function startEnv(): Promise<Env> {
  const sb = await startSandbox({ seed: 'demo' });
  const log: Exchange[] = [];
  const problems: string[] = [];
  const recordingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await fetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/v1/, '');
    const op = operationOf(method, path);
    if (op && typeof init?.body === 'string') {
      const validate = requestValidatorFor(op);
      const sent: unknown = JSON.parse(init.body);
      if (validate && !validate(sent))
        problems.push(
          `${op.operationId} request not allowed by the spec: ${JSON.stringify(validate.errors?.slice(0, 3))}`,
        );
    }
    const text = await res.clone().text();
    const body: unknown = text === '' ? undefined : JSON.parse(text);
    log.push({ operationId: op?.operationId, method, path, status: res.status, body });
    if (op && res.ok && body !== undefined) {
      const validate = validatorFor(op, res.status);
      if (validate && !validate(body))
        problems.push(`${op.operationId} ${res.status}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    }
    return res;
  };
  const api = new GitBookAPI({
    endpoint: sb.origin,
    authToken: sb.token,
    serviceBinding: { fetch: recordingFetch as typeof fetch },
  });
  return { api, sb, log, problems };
}

/** The HTTP status of a call that the client reports as failed (GitBookAPIError), or of a successful one. */
export async function statusOf(call: Promise<{ status: number }>): Promise<number> {
  try {
    return (await call).status;
  } catch (err) {
    return apiErrorOf(err).code;
  }
}

/** Await a call that must succeed with `status`; its data. A refused call fails with the sandbox's message. */
export async function expectStatus<T>(call: Promise<{ status: number; data: T }>, status: number): Promise<T> {
  let res: { status: number; data: T };
  try {
    res = await call;
  } catch (err) {
    const { code, errorMessage } = apiErrorOf(err);
    throw new Error(`expected ${status}, got ${code}: ${errorMessage}`);
  }
  expect(res.status).toBe(status);
  return res.data;
}

/** The client's GitBookAPIError (its type is lost with index.d.ts's imports, so it is read by shape); else rethrow. */
function apiErrorOf(err: unknown): { code: number; errorMessage: string } {
  if (err instanceof Error && err.name === 'GitBookAPIError' && 'code' in err && typeof err.code === 'number') {
    return { code: err.code, errorMessage: 'errorMessage' in err ? String(err.errorMessage) : err.message };
  }
  throw err;
}
