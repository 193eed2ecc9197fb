/** What the sandbox's request pipeline (server.ts) and its introspection endpoints (introspection.ts) are given. */
import type { AuditLog } from './audit-log.js';
import type { Evolution } from './evolve.js';
import type { FaultInjector } from './faults.js';
import type { RaceWorld } from './race.js';
import type { RateLimiter } from './rate-limit.js';
import type { Router } from './router.js';
import type { StatsRecorder } from './stats.js';
import type { SandboxStore } from './store.js';
import type { StoreHistory } from './stale.js';

export interface PipelineDeps {
  store: SandboxStore;
  router: Router;
  stats: StatsRecorder;
  token: string;
  /** A second, read-only bearer token (undefined: only `token` is accepted). */
  readToken?: string;
  /** Further write tokens, each authenticating as the given user. */
  actorTokens?: readonly { token: string; userId: string }[];
  /** Where accepted writes are recorded (absent: not recorded). */
  audit?: AuditLog;
  now: () => Date;
  stateFile?: string;
  origin: () => string;
  faults: () => FaultInjector | undefined;
  /** The rate limit of the current fault spec (undefined: none). */
  rateLimiter: () => RateLimiter | undefined;
  setFaults: (spec: unknown) => void;
  /** The store's recent changes, for lists that answer late (`stale`); absent: lists are current. */
  history?: StoreHistory;
  /** The race habit (race.ts): the other actor's changes, and what docops's writes do to them. */
  race?: RaceWorld;
  /** The `evolve` habit: what a newer API adds to answers, and takes back in bodies (evolve.ts). */
  evolution?: Evolution;
  /** Called after PUT /_sandbox/state replaced the store (re-adds the read-only user when there is a read token). */
  afterStateLoad?: () => void;
}
