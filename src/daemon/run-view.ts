/**
 * Run records as the daemon's HTTP answers show them (/readyz, POST /reconcile, the status page's paths).
 */
import { relative, sep } from 'node:path';
import type { RunRecord } from './run.js';

const MAX_POSITIONS = 50;

/** A file inside the manifests directory relative to it (with `/`), any other as it is. */
export function manifestRelative(manifestsDir: string, file: string): string {
  const rel = relative(manifestsDir, file);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) ? rel.split(sep).join('/') : file;
}

/**
 * A run as the HTTP endpoints show it: an allow-list of fields that cannot hold file content (counts,
 * categories, positions). The run's `error` and its issues' messages stay in the log, where the operator reads
 * them; a field added to RunRecord later is not shown here until it is listed.
 */
export function publicRun(r: RunRecord, manifestsDir: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: r.id,
    reasons: r.reasons,
    result: r.result,
    mode: r.mode,
    startedAt: r.startedAt,
    durationMs: r.durationMs,
  };
  const optional = {
    scope: r.scope,
    readAhead: r.readAhead,
    documents: r.documents,
    planned: r.planned,
    applied: r.applied,
    failed: r.failed,
    skipped: r.skipped,
    apiOk: r.apiOk,
    interrupted: r.interrupted,
    interruptedBy: r.interruptedBy,
    apiStatus: r.apiStatus,
    errorType: r.errorType,
    timings: r.timings,
    // A checksum (sha256:hex): what an approval must name, safe to show anywhere.
    approval: r.approval,
    // How the live state was read: categories and counts, no organization names.
    reads: r.reads?.map((x) => ({
      read: x.read,
      ...(x.why !== undefined ? { why: x.why } : {}),
      ...(x.events !== undefined ? { events: x.events } : {}),
    })),
  };
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) out[k] = v;
  if (r.issues) {
    out.problems = r.issues.length;
    out.positions = positionsOf(r, manifestsDir);
  }
  return out;
}

/** `file:line:column` of a run's first problems; files inside the manifests directory relative to it. */
export function positionsOf(r: RunRecord, manifestsDir: string): string[] {
  return (r.issues ?? []).slice(0, MAX_POSITIONS).map((i) => {
    return `${manifestRelative(manifestsDir, i.file)}:${i.line}:${i.column}`;
  });
}
