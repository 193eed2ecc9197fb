/**
 * The checks of docops.yaml's values that JSON Schema cannot express (load.ts reports them with the schema's):
 * a listen address, a cron expression, and the fields that must agree with one another.
 */
import { validateDetailed } from 'node-cron';
import type { ValidationIssue } from '../model/errors.js';
import { driftIssues, modeIssues } from './ownership.js';
import { haIssues } from './ha.js';
import { isRecord } from '../model/json.js';

export interface ListenAddress {
  host: string;
  port: number;
}

type At = (path: string[]) => { file: string; line: number; column: number };

/** `HOST:PORT` (IPv6 in brackets) → address; undefined when malformed. */
export function parseListen(value: string): ListenAddress | undefined {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9_.-]+)):(\d{1,5})$/.exec(value);
  if (!m) return undefined;
  const port = Number(m[3]);
  if (port > 65535) return undefined;
  return { host: m[1] ?? m[2]!, port };
}

/** Checks JSON Schema cannot express. Each looks only at values of the right type (the schema reports the rest). */
export function semanticIssues(raw: Record<string, unknown>, at: At, atKey: At): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (typeof raw.schedule === 'string' && raw.schedule !== '') {
    const problem = cronProblem(raw.schedule);
    if (problem) issues.push({ ...at(['schedule']), message: `schedule: ${problem}` });
  }
  if (typeof raw.listen === 'string' && PORT_TOO_BIG.test(raw.listen))
    issues.push({ ...at(['listen']), message: 'listen: the port must be 0..65535' });
  if (raw.reconcileSecret !== undefined && raw.reconcileSecretFile !== undefined) {
    issues.push({
      ...atKey(['reconcileSecretFile']),
      message: 'reconcileSecretFile: give reconcileSecret or reconcileSecretFile, not both',
    });
  }
  issues.push(...haIssues(raw.ha, at), ...modeIssues(raw, at), ...driftIssues(raw, at));
  const retry = isRecord(raw.retry) ? raw.retry : {};
  if (typeof retry.initialMs === 'number' && typeof retry.maxMs === 'number' && retry.maxMs < retry.initialMs) {
    issues.push({ ...at(['retry', 'maxMs']), message: 'retry.maxMs: must not be smaller than retry.initialMs' });
  }
  return issues;
}

const PORT_TOO_BIG = /:(6553[6-9]|655[4-9]\d|65[6-9]\d\d|6[6-9]\d{3}|[7-9]\d{4})$/;

/** node-cron's own validation, with its field-level reason. */
export function cronProblem(expression: string): string | undefined {
  const result = validateDetailed(expression);
  const why = result.valid ? '' : result.errors.map((e) => e.message).join('; ');
  return result.valid ? undefined : `"${expression}" is not a valid cron expression${why ? ` (${why})` : ''}`;
}
