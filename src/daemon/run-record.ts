/**
 * What one daemon reconcile reports (src/daemon/run.ts makes it): the status page, the metrics, the notifications,
 * the HTTP endpoints and the fleet read it. Apart from the run itself, so its readers need none of the run's parts.
 */
import type { ValidationIssue } from '../model/errors.js';
import type { OrgRead } from './informer/informer.js';
import type { DaemonMode } from '../config/config.js';
import type { RunResult } from './metrics.js';
import type { TriggerReason } from './triggers.js';

export interface RunRecord {
  id: number;
  reasons: TriggerReason[];
  result: RunResult;
  mode: DaemonMode;
  startedAt: string;
  durationMs: number;
  /** Manifest documents loaded (absent when the load failed). */
  documents?: number;
  /** Steps the plan held (drift) when the API was reached. */
  planned?: number;
  applied?: number;
  failed?: number;
  skipped?: number;
  /** Manifest problems, when result is invalid_manifests. */
  issues?: ValidationIssue[];
  /** The full message (for logs and in-process callers; the HTTP endpoints never show it: it may quote content). */
  error?: string;
  /** The class of the error that ended the run (`ApiError`, `ConflictError` …), safe to show anywhere. */
  errorType?: string;
  /** The HTTP status of the API answer that ended the run (absent: none, or no answer arrived). */
  apiStatus?: number;
  /** Whether the API answered as it should: undefined when not contacted. */
  apiOk?: boolean;
  /** A scoped run: whether it planned from the live state read while the debounce waited (daemon.ts readAhead). */
  readAhead?: boolean;
  /** Milliseconds spent loading the manifests, planning (reads, diff, safety gate) and applying; a phase not reached is absent. */
  timings?: { loadMs?: number; planMs?: number; applyMs?: number };
  /** Whether shutdown or the loss of the lease stopped the apply before every step ran (result `interrupted`). */
  interrupted?: boolean;
  /** Why the safety gate or the policy refused the plan (result `refused`). */
  violations?: { rule: string; message: string }[];
  /** A refused plan that waits for an approval of this checksum (src/policy). */
  approval?: { checksum: string };
  /** The broken links of each managed space the run's live state holds (src/daemon/health.ts). */
  health?: SpaceHealth[];
  /** What stopped it. */
  interruptedBy?: 'shutdown' | 'lease';
  /** A full reconcile, or one scoped to `scopes` (absent when the manifests did not load: no plan was made). */
  scope?: 'full' | 'scoped';
  /** Why the run is full (`scope: 'full'`). */
  fullBecause?: string;
  /** The scoped run's scopes as `Kind/org`: those whose documents changed, and all it fetched and diffed. */
  scopes?: { changed: string[]; reconciled: string[] };
  /** How each organization's live state was read (with an informer): from its audit events, or whole and why. */
  reads?: OrgRead[];
}

/** The broken links of one managed space (docs health, src/daemon/health.ts). */
export interface SpaceHealth {
  org: string;
  /** Space id, and its title. */
  id: string;
  space: string;
  broken: number;
  inChangeRequests: number;
}
