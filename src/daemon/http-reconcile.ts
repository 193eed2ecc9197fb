/**
 * POST /reconcile's answer: 202 as soon as the run is accepted, or with `wait` the run's summary and a status
 * by its result; `full` asks for a full read (the informer's, on demand). 503 while stopping or standing by.
 */
import type { Logger } from '../log.js';
import type { RunRecord } from './run.js';
import { publicRun } from './run-view.js';
import type { ReconcileAnswer } from './server.js';
import { STANDBY } from './readiness.js';
import { RunnerStoppedError, type TriggerReason } from './triggers.js';

const HTTP_STATUS: Record<RunRecord['result'], number> = {
  success: 200,
  invalid_manifests: 422,
  refused: 409,
  failed: 502,
  interrupted: 503,
};

export async function answerReconcile(
  daemon: {
    stopping: boolean;
    standby: boolean;
    running: boolean;
    trigger(reason: TriggerReason): Promise<RunRecord>;
    logger: Logger;
    manifestsDir: string;
  },
  wait: boolean,
  full: boolean,
): Promise<ReconcileAnswer> {
  if (daemon.stopping) return { status: 503, body: { error: 'the daemon is stopping' } };
  if (daemon.standby) return { status: 503, body: { error: STANDBY, standby: true } };
  const queued = daemon.running;
  const run = daemon.trigger(full ? 'full' : 'http');
  if (!wait) {
    run.catch(() => {});
    return { status: 202, body: { accepted: true, queued } };
  }
  try {
    const record = await run;
    return { status: HTTP_STATUS[record.result], body: publicRun(record, daemon.manifestsDir) };
  } catch (err) {
    if (err instanceof RunnerStoppedError) return { status: 503, body: { error: 'the daemon is stopping' } };
    daemon.logger.error({ err }, 'POST /reconcile: the run could not be started');
    return { status: 503, body: { error: 'the run could not be started (see the log)' } };
  }
}
