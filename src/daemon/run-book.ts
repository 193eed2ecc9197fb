/**
 * What a daemon's finished runs leave behind: the last runs, the manifests' and the API's state /readyz reports,
 * and the retry a failed run calls for. Apart from the Daemon (daemon.ts), which starts the runs, elects and stops.
 */
import type { Logger } from '../log.js';
import type { Retrier } from './backoff.js';
import type { ElectionStatus } from './ha/leadership.js';
import type { DaemonMetrics } from './metrics.js';
import { leaderReadiness, standbyReadiness, type ApiState, type ManifestsState } from './readiness.js';
import type { RunRecord } from './run-record.js';
import { positionsOf, publicRun } from './run-view.js';
import type { Readiness } from './server.js';

const HISTORY = 20;

export class RunBook {
  /** The most recent runs, newest last. */
  readonly runs: RunRecord[] = [];
  private manifests: ManifestsState | undefined;
  private api: ApiState | undefined;
  private lastGood: { at: string; documents: number } | undefined;

  constructor(
    private readonly manifestsDir: string,
    private readonly retrier: Retrier,
    private readonly tell: {
      metrics: DaemonMetrics;
      logger: Logger;
      retryScheduled(next: { attempt: number; delayMs: number }): void;
    },
  ) {}

  /** A finished run → the manifests' and the API's state, the retry schedule, the history. */
  record(r: RunRecord, stopping: boolean): void {
    const at = new Date().toISOString();
    if (r.result === 'invalid_manifests') {
      this.manifests = r.issues
        ? { ok: false, at, problems: r.issues.length, positions: positionsOf(r, this.manifestsDir) }
        : {
            ok: false,
            at,
            ...(r.errorType !== undefined ? { errorType: r.errorType } : {}),
            // The loader's UsageErrors are its sentences about the directory (src/manifests/load.ts).
            ...(r.errorType === 'UsageError' && r.error !== undefined ? { reason: r.error } : {}),
          };
    } else {
      this.manifests = { ok: true, at };
      this.lastGood = { at, documents: r.documents ?? 0 };
    }
    if (r.apiOk !== undefined) {
      this.api = r.apiOk
        ? { ok: true, at }
        : {
            ok: false,
            at,
            ...(r.apiStatus !== undefined ? { status: r.apiStatus } : {}),
            ...(r.errorType !== undefined ? { errorType: r.errorType } : {}),
          };
    }

    if (r.result === 'success') this.retrier.succeeded();
    else if (r.result === 'failed' && !stopping && !r.interrupted) {
      const next = this.retrier.failed();
      this.tell.metrics.setBackoff(next.delayMs);
      this.tell.logger.warn(
        { attempt: next.attempt, delayMs: next.delayMs },
        'reconcile failed; retrying after backoff',
      );
      this.tell.retryScheduled(next);
    } else this.retrier.cancel();
    if (r.result !== 'failed') this.tell.metrics.setBackoff(0);

    this.runs.push(r);
    if (this.runs.length > HISTORY) this.runs.shift();
  }

  /**
   * What /readyz answers. `standby`: an election decides and this replica does not hold the lease (also while it
   * starts electing), so it answers as one standing by.
   */
  readiness(f: { stopping: boolean; standby: boolean; ha: ElectionStatus | undefined }): Readiness {
    const last = this.runs.at(-1);
    const common = { stopping: f.stopping, lastRun: last ? publicRun(last, this.manifestsDir) : null };
    return f.standby
      ? standbyReadiness({ ...common, ha: f.ha ?? { role: 'starting' } })
      : leaderReadiness({
          ...common,
          manifests: this.manifests,
          api: this.api,
          lastGood: this.lastGood,
          retryAttempt: this.retrier.attempt,
          ha: f.ha,
        });
  }
}
