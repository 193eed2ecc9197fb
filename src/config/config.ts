/**
 * docops.yaml as docops reads it (load.ts makes it): what both hosts take from the file. The daemon runs by all of
 * it; `docops plan|apply --config` reads the kinds' ownership modes, `safety:`, `journalDir`, `prune`, `apiUrl` and
 * `organizations:` (src/cli/config-file.ts, src/cli/organizations.ts).
 */
import type { SourcePos } from '../model/errors.js';
import type { DriftPolicy, OwnershipMode } from '../model/plan.js';
import type { ApprovalsConfig } from '../policy/config.js';
import type { LoadedPolicy } from '../policy/evaluate.js';
import { DEFAULT_LIST_LAG_MS } from '../api/expectations.js';
import type { ListenAddress } from './checks.js';
import { HA_DEFAULTS, type HaConfig } from './ha.js';
import type { NotifyTarget } from './notify.js';
import type { OrgConfig, ShardConfig } from './organizations.js';
import type { ProposalsConfig } from './ownership.js';

/** `mode:` — what the daemon's runs do with the plan (the one-shot commands are `plan` or `apply` by name). */
export type DaemonMode = 'apply' | 'plan';

export interface DocopsConfig {
  /** Absolute path of the config file ('' when built without one, e.g. in tests). */
  configFile: string;
  /** Absolute manifests directory. */
  manifestsDir: string;
  /** Variables the manifests may read as `${NAME}` (names or `PREFIX*`); none when absent. */
  allowEnv?: string[];
  apiUrl?: string;
  /** Absolute path of the token file; without it the token comes from DOCOPS_TOKEN. */
  tokenFile?: string;
  /** Where fields checked only when the daemon starts are written (every config problem names its place). */
  at?: { tokenFile?: SourcePos };
  concurrency: number;
  schedule?: string;
  mode: DaemonMode;
  prune: Record<string, boolean>;
  /** Per manifest kind: how docops owns its objects (`kinds:` in docops.yaml; none when absent). */
  kinds?: Record<string, KindConfig>;
  /** Where drift under `drift: propose` is proposed (ownership.ts). */
  proposals?: ProposalsConfig;
  invite: boolean;
  listen: ListenAddress;
  /** POST /reconcile is disabled without it. */
  reconcileSecret?: string;
  debounceMs: number;
  retry: { initialMs: number; maxMs: number };
  shutdownGraceMs: number;
  safety?: Record<string, unknown>;
  /** Where delete journals go (a snapshot of every object before it is deleted); must be writable. */
  journalDir: string;
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
  /** Run against an in-process sandbox (demo seed) instead of apiUrl. */
  sandbox: boolean;
  /** Serve the status page and its JSON endpoints (default true). */
  statusPage?: boolean;
  /** Notification targets (none when absent). */
  notify?: NotifyTarget[];
  /** Leader election (absent: off, this daemon is the only writer). */
  ha?: HaConfig;
  /** Rules over every plan, and how approvals are taken (src/policy; absent: no policy). */
  policy?: LoadedPolicy;
  approvals?: ApprovalsConfig;
  /** Following the audit log between full reads (docs/daemon.md, "The informer"); absent: off (the loader always sets it). */
  informer?: InformerSettings;
  /**
   * Docs health (src/daemon/health.ts): the broken links of the managed spaces are read at the end of a run at
   * most this often, in ms; 0: never. Absent: CONFIG_DEFAULTS.healthMinutes.
   */
  healthEveryMs?: number;
  /** How far behind a write the API's lists may answer (ms; src/api/expectations.ts). Absent: CONFIG_DEFAULTS.listLagSeconds. */
  listLagMs?: number;
  /** Several organizations, each reconciled on its own (src/daemon/fleet); absent: the one of `manifestsDir`. */
  organizations?: OrgConfig[];
  /** With organizations: the share of them this daemon reconciles (static) or the shard Leases it competes for (dynamic). */
  shard?: ShardConfig;
}

export interface InformerSettings {
  enabled: boolean;
  /** 0: polls only with the runs the other triggers start. */
  pollMs: number;
  /** 0: no background resync. */
  resyncMs: number;
  overlapMs: number;
  /** The widest the overlap grows for events seen late (src/audit/feed.ts). */
  maxOverlapMs?: number;
}

/** One kind's entry under `kinds:`: its ownership mode and what a run does with its drift (src/daemon/drift). */
export interface KindConfig {
  drift?: DriftPolicy;
  mode?: OwnershipMode;
}

export const CONFIG_DEFAULTS = {
  concurrency: 8,
  mode: 'apply',
  listen: '0.0.0.0:8080',
  debounceMs: 500,
  retry: { initialMs: 1000, maxMs: 300_000 },
  shutdownGraceMs: 30_000,
  logLevel: 'info',
  // client-go's leader-election defaults.
  ha: HA_DEFAULTS,
  informer: { enabled: true, pollSeconds: 30, resyncMinutes: 240, overlapSeconds: 60, maxOverlapSeconds: 3600 },
  // One list request per managed space: read hourly, not by every run (a save, an informer's revert).
  healthMinutes: 60,
  listLagSeconds: DEFAULT_LIST_LAG_MS / 1000,
} as const;
