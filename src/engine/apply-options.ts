/** What apply (apply.ts) is told and tells: its options, the write gate it asks, the events of each step. */
import type { Step } from '../model/plan.js';
import type { RecoveredEvent } from './send.js';

export type ApplyEvent =
  | { type: 'start'; step: Step }
  | { type: 'done'; step: Step; durationMs: number }
  | { type: 'failed'; step: Step; error: Error; durationMs: number }
  | { type: 'skipped'; step: Step; reason: string }
  | RecoveredEvent;

export interface ApplyOptions {
  concurrency?: number;
  onStep?: (event: ApplyEvent) => void;
  /** Runs before a step's first request (e.g. the safety journal snapshots deletes). A throw fails the step. */
  beforeStep?: (step: Step) => Promise<void>;
  /** When aborted, steps not yet started are skipped; steps in flight finish. */
  signal?: AbortSignal;
  /**
   * Whether writing may go on, asked before every ordered group, every step and every request: once it gives a
   * reason, nothing further is sent (not even the rest of a step in flight) and every step not finished is
   * skipped or failed with that reason (`ApplyReport.stopped`). Its `signal` aborts a request waiting to be sent
   * or between retries. Generic: the daemon's leader election answers it (src/daemon/ha), the core knows no
   * more than "may I write".
   */
  writeGate?: WriteGate;
  /** Waits between the reads of a request's `settle` (src/engine/settle.ts); tests pass one that returns at once. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * The OAuth scopes the API gives a request (src/scopes): a write refused with 403 names what the token lacks.
   * Absent, the refusal says only that the token may not make it.
   */
  scopesOf?: (method: string, path: string) => readonly string[] | undefined;
}

export interface WriteGate {
  /** undefined while writing may go on; else why it must stop (for the rest of this apply). */
  check(): string | undefined;
  /** Aborted when writing must stop: a request not yet sent, or waiting to be retried, is not sent. */
  signal?: AbortSignal;
}

export const UNREACHABLE_REASON = 'API unreachable';
