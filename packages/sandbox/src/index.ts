/**
 * The docops sandbox: a stateful, in-memory implementation of the management API over real HTTP on
 * loopback. Newcomers try docops against it without an account; tests and benchmarks use it as ground truth.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuditLog, watchStore } from './audit-log.js';
import { FaultInjector, habitStream, parseFaults, toFaultSpec, type FaultSpec } from './faults.js';
import { StoreHistory } from './stale.js';
import { formatRateLimit, parseRateLimit, RateLimiter, type RateLimitSpec } from './rate-limit.js';
import { buildApiRouter } from './routes/index.js';
import { BENCH_SIZES, generateOrg, scaledSizes } from './generated-org.js';
import { addReadOnlyUser, applySeed, type SeedName } from './seed.js';
import { seedStore } from './seed-generated.js';
import { createRequestListener } from './server.js';
import { RaceWorld, type RaceReport } from './race.js';
import type { PipelineDeps } from './pipeline.js';
import { Evolution } from './evolve.js';
import { loadStateFile, saveStateFile } from './state.js';
import { StatsRecorder, type SandboxStats } from './stats.js';
import { SandboxStore } from './store.js';
import { isPlainObject } from './validate.js';

export { formatRateLimit, parseFaults, parseRateLimit };
export type { FaultSpec, RateLimitSpec, SandboxStats, SeedName };
export type { RaceEntry, RaceReport, RaceUndo } from './race.js';
export { SandboxStore } from './store.js';
export { AuditLog, type AuditFaults, type AuditRecord } from './audit-log.js';
export { evolvedRecords, type EvolvedRec } from './evolve.js';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './paginate.js';
export { DEMO_ORG_ID, READ_TOKEN_USER_EMAIL, READ_TOKEN_USER_ID, TOKEN_USER_ID } from './seed.js';
/** Table accessors and record types, for tests and benchmarks that fill the store directly. */
export {
  collections,
  memberKey,
  members,
  orgs,
  spaces,
  teamMemberKey,
  teamMembers,
  teams,
  translations,
  users,
} from './records.js';
export type {
  CollectionRec,
  MemberRec,
  MemberRole,
  OrgRec,
  SpaceRec,
  TeamMemberRec,
  TeamRec,
  TeamRole,
  TranslationRec,
  UserRec,
} from './records.js';
export type { RouteTable } from './routes/table.js';

export interface SandboxOptions {
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The bearer token the sandbox accepts. Default `sandbox-token`. */
  token?: string;
  /**
   * A second bearer token for a read-only user (READ_TOKEN_USER_ID, `read` member of every organization the
   * state holds): every GET answers as for `token`, every write is refused with 403. Default: none.
   */
  readToken?: string;
  /**
   * Further write tokens, each acting as an existing user of the state (e.g. `{token: 'carol-token', userId:
   * 'u-carol'}`): tests make changes "behind docops's back" with them, and the audit log names that user.
   */
  actorTokens?: { token: string; userId: string }[];
  /** Load this JSON snapshot at start if it exists; save to it atomically after every successful write. */
  stateFile?: string;
  /**
   * Initial state when there is no state file. Default `demo`. `{ large: MEMBERS }`: the benchmark's generated
   * organization (`org-bench`, generated-org.ts) scaled to MEMBERS members, its token user an admin; `org` names it
   * otherwise (several sandboxes standing for the organizations of one fleet).
   */
  seed?: SeedName | { large: number; org?: string };
  /** Fault injection for /v1 (see faults.ts for the grammar). */
  faults?: string | FaultSpec;
  /**
   * A rate limit per token (rate-limit.ts), e.g. `600/min`: the same as `rateLimit=600/min` in `faults`, so a
   * later setFaults / `PUT /_sandbox/faults` replaces it with the rest of the spec.
   */
  rateLimit?: string | RateLimitSpec;
  /** The clock (timestamps, soft-delete retention). Default: the system clock. */
  now?: () => Date;
}

export interface RunningSandbox {
  /** Base URL ending in /v1, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  origin: string;
  port: number;
  token: string;
  /** Set when started with a read-only token. */
  readToken?: string;
  store: SandboxStore;
  /** Every accepted write, as GET /orgs/{id}/audit-events serves it (in memory; not in state files). */
  audit: AuditLog;
  stats(): SandboxStats;
  resetStats(): void;
  setFaults(spec: string | FaultSpec | undefined): void;
  /** The race habit's log (race.ts): every other actor's change, and every write of docops that changed one back. */
  races(): RaceReport;
  close(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = opts.host ?? '127.0.0.1';
  const token = opts.token ?? 'sandbox-token';
  const readToken = opts.readToken;
  if (readToken !== undefined && (readToken === '' || readToken === token))
    throw new Error('readToken must be non-empty and differ from token');
  const actorTokens = opts.actorTokens ?? [];
  const allTokens = [token, ...(readToken !== undefined ? [readToken] : []), ...actorTokens.map((t) => t.token)];
  if (actorTokens.some((t) => t.token === '') || new Set(allTokens).size !== allTokens.length)
    throw new Error('actorTokens must be non-empty and differ from every other token');
  const audit = new AuditLog();
  const now = opts.now ?? (() => new Date());
  const store = new SandboxStore();
  const loaded = opts.stateFile !== undefined && loadStateFile(store, opts.stateFile);
  if (!loaded) {
    const seed = opts.seed ?? 'demo';
    if (typeof seed === 'object') seedStore(store, generateOrg(scaledSizes(BENCH_SIZES, seed.large), seed.org));
    else applySeed(store, seed);
  }
  // With a state file, the read-only user joins the organizations the file holds (and the file keeps it).
  const readUserAdded = readToken !== undefined && addReadOnlyUser(store);
  if (opts.stateFile && (!loaded || readUserAdded)) saveStateFile(store, opts.stateFile);
  watchStore(store);
  const stats = new StatsRecorder();
  const clock = (): number => now().getTime();
  const initial = withRateLimit(toFaultSpec(opts.faults), opts.rateLimit);
  const router = buildApiRouter();
  const evolution = new Evolution(store, router);
  evolution.configure(initial);
  let injector = makeInjector(initial);
  let limiter = makeLimiter(initial, clock);
  const history = new StoreHistory(store, clock);
  const habits = (spec: FaultSpec | undefined): void => {
    history.lag(spec?.staleMs);
    audit.delay(spec?.auditDelay ? auditDelays(spec) : undefined);
  };
  habits(initial);
  let origin = '';
  const setFaults = (spec: unknown): void => {
    if (spec !== undefined && typeof spec !== 'string' && !isPlainObject(spec))
      throw new Error('fault spec must be a string, an object or undefined');
    const parsed = withRateLimit(toFaultSpec(spec as string | FaultSpec | undefined), undefined);
    const nextLimiter = makeLimiter(parsed, clock);
    injector = makeInjector(parsed);
    limiter = nextLimiter;
    habits(parsed);
    deps.race?.configure(parsed);
    evolution.configure(parsed);
  };

  const deps: PipelineDeps = {
    store,
    router,
    evolution,
    stats,
    token,
    actorTokens,
    audit,
    ...(readToken !== undefined ? { readToken, afterStateLoad: () => void addReadOnlyUser(store) } : {}),
    now,
    ...(opts.stateFile ? { stateFile: opts.stateFile } : {}),
    origin: () => origin,
    faults: () => injector,
    rateLimiter: () => limiter,
    setFaults,
    history,
  };
  const race = new RaceWorld(deps);
  race.configure(initial);
  deps.race = race;
  const server = createServer(createRequestListener(deps));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined; // close() is idempotent
  const closeServer = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      server.close((err) => (err ? reject(err) : resolve()));
      server.closeAllConnections();
    });
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: `${origin}/v1`,
    origin,
    port,
    token,
    ...(readToken !== undefined ? { readToken } : {}),
    store,
    audit,
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    setFaults,
    races: () => race.report(),
    close: () => (closing ??= closeServer()),
  };
}

function makeInjector(spec: FaultSpec | undefined): FaultInjector | undefined {
  return spec === undefined || Object.keys(spec).length === 0 ? undefined : new FaultInjector(spec);
}

/**
 * The spec with its rate limit in parsed form: `option` (startSandbox's `rateLimit`) is added to it, and a spec
 * given as an object (`PUT /_sandbox/faults {"spec": {...}}`) may name its limit as text.
 */
function withRateLimit(spec: FaultSpec | undefined, option: string | RateLimitSpec | undefined): FaultSpec | undefined {
  const given: unknown = spec?.rateLimit;
  if (option !== undefined && given !== undefined)
    throw new Error('give the rate limit either as rateLimit or in the fault spec, not both');
  const raw = option ?? given;
  if (raw === undefined) return spec;
  const rateLimit = typeof raw === 'string' ? parseRateLimit(raw) : checkedRateLimit(raw);
  return { ...spec, rateLimit };
}

function checkedRateLimit(raw: unknown): RateLimitSpec {
  const ok =
    isPlainObject(raw) &&
    Number.isSafeInteger(raw['limit']) &&
    (raw['limit'] as number) >= 1 &&
    typeof raw['windowMs'] === 'number' &&
    raw['windowMs'] >= 1;
  if (!ok) throw new Error('rateLimit must be text like "600/min" or {"limit": N ≥ 1, "windowMs": MS ≥ 1}');
  return { limit: raw['limit'] as number, windowMs: raw['windowMs'] as number };
}

function makeLimiter(spec: FaultSpec | undefined, clock: () => number): RateLimiter | undefined {
  return spec?.rateLimit === undefined ? undefined : new RateLimiter(spec.rateLimit, clock);
}

/** Per event, in the order events are recorded: how long after its change it becomes visible (`auditDelay`). */
function auditDelays(spec: FaultSpec): () => number {
  const { delayMs, jitterMs } = spec.auditDelay!;
  const random = habitStream(spec, 'auditDelay');
  return () => Math.max(0, Math.round(delayMs + jitterMs * (2 * random() - 1)));
}
