// Generated from schemas/journal.schema.json by tools/build/format-types.ts (npm run build): edit the schema, not this file.
import type { Snapshot } from '../kind.js';

/**
 * One line of a delete journal (journal-<timestamp>.jsonl): before each delete or prune step, a snapshot of the object about to go, written and fsync'd before the step's first request; `docops undo` reads it back. Format 2 adds state and redacted; undo still reads format 1. A reader reads the members named here and ignores others.
 */
export type JournalRecord = {
  /**
   * The journal format.
   */
  v: 1 | 2;
  /**
   * When the snapshot was taken (ISO 8601).
   */
  time: string;
  stepId: string;
  phase: 'create' | 'update' | 'delete' | 'prune';
  action: 'create' | 'update' | 'delete';
  kind: string;
  org: string;
  /**
   * The step's key (for duplicate titles `title (id)`); objectKey is the live object's own key.
   */
  key: string;
  objectKey: string;
  id?: string;
  /**
   * The live object's fields (secrets removed), or the step's before when no live object was found; its shape only the object's kind knows.
   */
  fields: {
    [k: string]: unknown;
  };
  /**
   * complete: the kind's snapshot read the object and what its delete takes along (state); live: the object as fetched for the plan; plan: only the managed fields the step recorded.
   */
  snapshot: 'complete' | 'live' | 'plan';
  /**
   * With complete: live states by manifest kind, as the kinds' export reads them (secrets removed).
   */
  state?: Snapshot;
  /**
   * Fields left out because their names look like secrets (paths into the record), so undo can say so.
   */
  redacted?: string[];
};
