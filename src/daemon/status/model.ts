/**
 * What the status page and its JSON endpoints show, as plain data: the daemon's mode and role, the manifests'
 * revision and load errors, the drift the last plan found (by kind, field by field, with who made it and what
 * became of each step), the unmanaged objects and the last runs. Built from run records and plans by the
 * StatusTracker (tracker.ts); rendered by html.ts. Values come from the plan's `before`/`after` (which never hold
 * secrets) through formatField (secret-looking fields masked); request bodies are never shown, and the server
 * passes every answer through the secret registry (src/secrets.ts).
 */
import type { OwnershipMode } from '../../model/plan.js';
import type { ProposalView } from '../drift/propose.js';
import type { Revision } from './revision.js';

export interface StatusData {
  generatedAt: string;
  daemon: {
    mode: 'apply' | 'plan';
    /** `single` without leader election; `leader` / `standby` with it. */
    role: string;
    schedule: string | null;
    ready: boolean;
    reason: string | null;
    /** On the in-process sandbox seeded with the demo organization (`--sandbox`): nothing leaves the machine. */
    demo: boolean;
  };
  manifests: {
    dir: string;
    revision: Revision | null;
    /** Whether the last load succeeded (null before the first). */
    ok: boolean | null;
    problems: LoadProblem[];
    /** Why the last load failed when it failed without a position (a missing or unreadable directory); else null. */
    error: string | null;
  };
  /** What the last plan found; null before the first plan. */
  drift: DriftView | null;
  /** Approvals (src/policy): null without a policy. */
  approval: ApprovalStatus | null;
  /** The pull request proposing drift (kinds with drift: propose); null when no kind proposes. */
  proposal: ProposalView | null;
  /** How the live state is read: following the audit log, or full reads (null: the informer is off). */
  informer: InformerView | null;
  /** Broken links per managed space, as the last run that read each found them; empty before any was read. */
  health: SpaceHealthView[];
  runs: RunView[];
}

export interface SpaceHealthView {
  org: string;
  /** The space's title, and its id. */
  space: string;
  id: string;
  broken: number;
  /** Broken links in the space's open change requests (not counted in `broken`). */
  inChangeRequests: number;
  /** The run that read them, and when it started. */
  run: number;
  at: string;
}

/** A plan waiting for approval, the last approved one applied, and how approvals are taken. */
export interface ApprovalStatus {
  waiting: {
    checksum: string;
    since: string;
    run: number;
    rules: { rule: string; message: string; objects: string[] }[];
  } | null;
  lastApplied: { checksum: string; by: string; at: string; url?: string } | null;
  endpoint: boolean;
  githubTeam: string | null;
}

/** The informer's state (src/daemon/informer): per organization, followed through its audit events or in fallback. */
export interface InformerView {
  pollSeconds: number;
  resyncMinutes: number;
  orgs: {
    org: string;
    /** `informer`: audit events followed; `fallback`: a full read every run. */
    mode: 'informer' | 'fallback';
    /** Why it is in fallback, or why its last full read happened. */
    why?: string;
    /** The HTTP status the audit events answered, when unavailable. */
    status?: number;
    lastPollAt?: string;
    lastFullReadAt?: string;
    nextResyncAt?: string;
    resyncing: boolean;
    events: number;
    reads: number;
  }[];
}

export interface LoadProblem {
  /** Relative to the manifests directory when inside it. */
  file: string;
  line: number;
  column: number;
  message: string;
}

export interface DriftView {
  /** The run whose plan this is. */
  run: number;
  at: string;
  mode: 'apply' | 'plan';
  /** A scoped run compared only these `Kind/org` scopes (null: a full run compared everything). */
  scopedTo: string[] | null;
  total: number;
  byKind: { kind: string; steps: DriftStep[] }[];
  /** Why the audit events could not be read (the plan says who changed what otherwise). */
  attributionUnavailable: string | null;
  blocked: { kind: string; org: string; key: string; message: string; source: string | null }[];
  /** Drift the ownership modes leave alone (outcome `reported`): listed, never written. */
  reported: { total: number; items: DriftStep[] };
  /** Live objects another writer owns (a site's structure under Git Sync), left alone. */
  owned: { kind: string; org: string; key: string; id: string | null; what: string; owner: string }[];
  /** `mode`: set when an ownership mode (additive), not the absence of prune, leaves the object in place. */
  unmanaged: {
    total: number;
    items: { kind: string; org: string; key: string; id: string | null; mode: OwnershipMode | null }[];
  };
}

export type StepOutcome = 'applied' | 'failed' | 'skipped' | 'pending' | 'refused' | 'not applied' | 'reported';

export interface DriftStep {
  id: string;
  kind: string;
  org: string;
  key: string;
  action: 'create' | 'update' | 'delete';
  /** The ownership mode that produced the line (src/engine/modes.ts). */
  mode: OwnershipMode;
  prune: boolean;
  note: string | null;
  /** Field-level diff: live value → the manifests' value (formatted, secret-looking fields masked). */
  changes: { field: string; live: string; desired: string }[];
  /** What caused it: a manifest edit, drift (a live change), or unknown (the daemon's first run, or after a failed one). */
  origin: 'manifests' | 'drift' | 'unknown';
  /** The step's object as one sentence (with who changed it when known). */
  sentence: string;
  changedBy: { actor: string; at: string; action: string } | null;
  outcome: StepOutcome;
  /** Why it failed or was skipped. */
  outcomeDetail: string | null;
  source: string | null;
}

export interface RunView {
  id: number;
  startedAt: string;
  reasons: string[];
  durationMs: number;
  result: string;
  mode: 'apply' | 'plan';
  documents: number | null;
  planned: number | null;
  applied: number | null;
  failed: number | null;
  skipped: number | null;
  /** Manifest problems of an invalid_manifests run. */
  problems: number | null;
  /** Why the safety gate refused (refused runs). */
  refusedBecause: { rule: string; message: string }[];
  /** The error's class, and its message (for runs that failed). */
  errorType: string | null;
  error: string | null;
  apiStatus: number | null;
  interrupted: boolean;
}
