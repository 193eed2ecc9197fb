/**
 * The delete journal: before each delete or prune step, one JSON line with a snapshot of the object about
 * to go, written and fsync'd before the step's first request (applyPlan's `beforeStep`). If the snapshot
 * cannot be taken or the line cannot be written, the step fails — docops never deletes without a snapshot.
 * A kind with a `snapshot` hook reads, through the API, the object and everything its delete takes along
 * (format 2, `state`); other objects are kept as the plan fetched them. `docops undo` reads it back.
 */
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { ApiClient } from '../model/api-client.js';
import { createFetchContext } from '../engine/fetch-context.js';
import type { KindDefinition, LiveObject, Snapshot } from '../model/kind.js';
import { pathSegments, type Step } from '../model/plan.js';
import type { JournalRecord } from '../model/generated/journal.js';
import type { LiveState } from '../model/state.js';
import { redactCredentials } from '../secrets.js';
import { redactSecretsReporting } from './redact.js';
import { openInside } from '../write-inside.js';

/** The format this docops writes (schemas/journal.schema.json, which undo reads with); format 2 adds `state` and `redacted`. */
export const JOURNAL_VERSION = 2 satisfies JournalRecord['v'];

/** One line of the journal: its type is generated from schemas/journal.schema.json. */
export type { JournalRecord };

export interface JournalOptions {
  now?: () => Date;
  /** With both, kinds that have a `snapshot` hook read complete snapshots through this client. */
  client?: ApiClient;
  kinds?: readonly KindDefinition[];
}

export interface Journal {
  /** For applyPlan's `beforeStep`: journals delete/prune steps, ignores the rest. Throws when it cannot write. */
  beforeStep: (step: Step) => Promise<void>;
  /** `<dir>/journal-<timestamp>.jsonl`; created on the first delete. */
  file: string;
}

export const isDeleteStep = (step: Step): boolean => step.phase === 'delete' || step.phase === 'prune';

export function journalFileName(at: Date): string {
  return `journal-${at.toISOString().replace(/[:.]/g, '-')}.jsonl`;
}

export function createJournal(dir: string, live: LiveState, opts: JournalOptions = {}): Journal {
  const now = opts.now ?? (() => new Date());
  const file = path.join(dir, journalFileName(now()));
  const find = liveObjectFinder(live);
  const kinds = new Map((opts.kinds ?? []).map((k) => [k.kind, k]));
  let created = false;
  // Steps of one wave run concurrently; appends go one at a time so lines never interleave.
  let queue: Promise<void> = Promise.resolve();

  const append = async (line: string): Promise<void> => {
    if (!created) await mkdir(dir, { recursive: true, mode: 0o700 });
    // Never through a link: a journal file planted as one would send the snapshot elsewhere (src/write-inside.ts).
    const handle = await openInside(dir, file, 'a', 0o600);
    try {
      await handle.appendFile(line, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (!created) {
      created = true;
      await syncDir(dir);
    }
  };

  /** The kind's complete snapshot, read fresh (not memoised across steps: each sees the state right before its delete). */
  const complete = async (object: LiveObject): Promise<Snapshot | undefined> => {
    const kind = kinds.get(object.kind);
    if (!kind?.snapshot || !opts.client) return undefined;
    return kind.snapshot(
      createFetchContext(opts.client, () => false),
      object,
    );
  };

  const beforeStep = async (step: Step): Promise<void> => {
    if (!isDeleteStep(step)) return;
    const object = find(step);
    const state = object ? await complete(object) : undefined;
    // Fields are redacted by name above; the whole line also goes through the secret registry (a title, key
    // or step id could hold the token). Payload secrets stay (a certificate): undo sends them back.
    const line = redactCredentials(JSON.stringify(snapshotOf(step, object, state, now()))) + '\n';
    const result = queue.then(() => append(line));
    queue = result.catch(() => undefined);
    return result;
  };

  return { beforeStep, file };
}

function snapshotOf(step: Step, object: LiveObject | undefined, state: Snapshot | undefined, at: Date): JournalRecord {
  const base = {
    v: JOURNAL_VERSION,
    time: at.toISOString(),
    stepId: step.id,
    phase: step.phase,
    action: step.action,
    kind: step.kind,
    org: step.org,
    key: step.key,
  } as const;
  if (!object) {
    const fields = redactSecretsReporting(step.before ?? {}, 'fields');
    return { ...base, objectKey: step.key, fields: fields.value, snapshot: 'plan', ...redacted(fields.dropped) };
  }
  // A live object's fields are its kind's JSON object (LiveObject leaves their type to the kind).
  const fields = redactSecretsReporting(object.fields as JournalRecord['fields'], 'fields');
  const record: JournalRecord = {
    ...base,
    objectKey: object.key,
    id: object.id,
    fields: fields.value,
    snapshot: state ? 'complete' : 'live',
  };
  const dropped = [...fields.dropped];
  if (state) {
    const safe = redactSecretsReporting(state, 'state');
    record.state = safe.value;
    dropped.push(...safe.dropped);
  }
  return { ...record, ...redacted(dropped) };
}

const redacted = (dropped: string[]): { redacted?: string[] } => (dropped.length > 0 ? { redacted: dropped } : {});

/**
 * Finds the live object a delete step removes: by (kind, org, key); for duplicate titles the step key is
 * `title (id)`; failing both, by an id that appears as a segment of the step's DELETE path.
 */
function liveObjectFinder(live: LiveState): (step: Step) => LiveObject | undefined {
  const byKey = new Map<string, LiveObject | null>();
  const byScope = new Map<string, LiveObject[]>();
  const k = (...parts: string[]): string => parts.join('\u0000');
  for (const state of live.values()) {
    for (const o of state.objects) {
      const plain = k(o.kind, o.org, o.key);
      const prev = byKey.get(plain);
      byKey.set(plain, prev === undefined || prev?.id === o.id ? o : null); // null: ambiguous title
      byKey.set(k(o.kind, o.org, `${o.key} (${o.id})`), o);
      const scope = byScope.get(k(o.kind, o.org));
      if (scope) scope.push(o);
      else byScope.set(k(o.kind, o.org), [o]);
    }
  }
  return (step) => {
    const hit = byKey.get(k(step.kind, step.org, step.key));
    if (hit) return hit;
    const segments = pathSegments(step, ['DELETE']);
    return (byScope.get(k(step.kind, step.org)) ?? []).find((o) => segments.has(o.id));
  };
}

/** Make the new file's directory entry durable too; some platforms cannot fsync a directory. */
async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EACCES') throw err;
  } finally {
    await handle?.close();
  }
}
