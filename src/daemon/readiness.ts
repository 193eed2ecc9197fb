/**
 * What /readyz answers (daemon.ts keeps the facts, this turns them into the answer): a leader — or a daemon
 * without `ha` — is ready once the manifests loaded and the API answered; a replica standing by is ready while it
 * can read the lease. Only categories, counts and positions: never a message, which may quote a manifest's or
 * the config's content (the logs have those).
 */
import type { ElectionStatus } from './ha/leadership.js';
import type { Readiness } from './server.js';

/** The last manifest load. */
export interface ManifestsState {
  ok: boolean;
  at: string;
  /** Problems the last load found (absent when it succeeded or the directory could not be read at all). */
  problems?: number;
  /** `file:line:column` of the first problems, files relative to the manifests directory. */
  positions?: string[];
  /** The load failed without positions (e.g. the directory is unreadable); the error's class. */
  errorType?: string;
  /**
   * The loader's sentence when the directory itself could not be read (missing, not a directory, unreadable, no
   * manifest in it): it names the directory the config gives, never a file's content.
   */
  reason?: string;
}

/** The last API contact. */
export interface ApiState {
  ok: boolean;
  at: string;
  /** HTTP status of the failed answer; absent when none arrived (network error, timeout). */
  status?: number;
  errorType?: string;
}

export const STANDBY = 'standing by: this replica does not hold the lease (another replica reconciles)';

/** What every answer carries: whether the daemon stops, and its last run as the HTTP answers show runs. */
export interface CommonFacts {
  stopping: boolean;
  lastRun: Record<string, unknown> | null;
}

export interface LeaderFacts extends CommonFacts {
  manifests: ManifestsState | undefined;
  api: ApiState | undefined;
  lastGood: { at: string; documents: number } | undefined;
  retryAttempt: number;
  /** With `ha`: the election's status. */
  ha: ElectionStatus | undefined;
}

export function leaderReadiness(f: LeaderFacts): Readiness {
  const reasons: string[] = [];
  const m = f.manifests;
  if (!m) reasons.push('the manifests have not been loaded yet');
  else if (!m.ok)
    reasons.push(
      m.problems !== undefined
        ? `the last manifest load failed: ${m.problems} problem(s) (positions below, messages in the log)`
        : `the last manifest load failed: ${m.reason ?? 'the manifests could not be read (see the log)'}`,
    );
  if (!f.api) reasons.push('the API has not been contacted yet');
  else if (!f.api.ok)
    reasons.push(
      `the last API contact failed: ${f.api.status !== undefined ? `HTTP ${f.api.status}` : 'no answer'} (see the log)`,
    );
  return answer(f, reasons, (ready, reason) => ({
    ready,
    ...reason,
    manifests: f.manifests ?? null,
    api: f.api ?? null,
    lastGoodManifests: f.lastGood ?? null,
    lastRun: f.lastRun,
    retry: f.retryAttempt > 0 ? { attempt: f.retryAttempt } : null,
    ...(f.ha ? { ha: f.ha } : {}),
  }));
}

/** A follower is ready while it can read the lease: it stands by to take over. */
export function standbyReadiness(f: CommonFacts & { ha: Partial<ElectionStatus> }): Readiness {
  const reasons: string[] = [];
  if (f.ha.leaseReachable === undefined) reasons.push('the lease has not been read yet');
  else if (!f.ha.leaseReachable) reasons.push(`the lease cannot be read (${f.ha.lastError ?? 'see the log'})`);
  return answer(f, reasons, (ready, reason) => ({
    ready,
    standby: true,
    status: STANDBY,
    ...reason,
    ha: f.ha,
    lastRun: f.lastRun,
  }));
}

/** Ready when nothing is wrong and the daemon is not stopping (which is then one more reason). */
function answer(
  f: CommonFacts,
  reasons: string[],
  body: (ready: boolean, reason: { reason?: string }) => Record<string, unknown>,
): Readiness {
  const ready = reasons.length === 0 && !f.stopping;
  if (f.stopping) reasons.push('the daemon is stopping');
  return { ready, body: body(ready, reasons.length > 0 ? { reason: reasons.join('; ') } : {}) };
}
