/**
 * `notify:` of docops.yaml → NotifyTarget[]. The JSON schema (schemas/config.schema.json) checks shapes; this
 * checks what it cannot: a URL that parses, `secretEnv` only on webhooks and naming a variable that is set (16+
 * characters). Problems come back as issues at the field's file:line:column, with the rest of the config's.
 */
import type { ValidationIssue } from '../../model/errors.js';
import type { Env } from '../../manifests/interpolate.js';
import { NOTIFY_EVENTS, type NotifyEvent, type NotifyTarget, type NotifyType } from './types.js';
import { isRecord } from '../../model/json.js';

type At = (path: string[]) => { file: string; line: number; column: number };

export const MIN_SIGNING_SECRET = 16;

/** Targets from a schema-valid `notify` value; issues for what the schema cannot see. */
export function notifyTargets(raw: unknown, env: Env, at: At): { targets: NotifyTarget[]; issues: ValidationIssue[] } {
  const targets: NotifyTarget[] = [];
  const issues: ValidationIssue[] = [];
  if (!Array.isArray(raw)) return { targets, issues };
  raw.forEach((item, i) => {
    if (!isRecord(item)) return;
    const where = (field: string): { file: string; line: number; column: number } => at(['notify', String(i), field]);
    const type = item.type as NotifyType;
    const url = typeof item.url === 'string' ? item.url : '';
    let ok = true;
    try {
      const u = new URL(url);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('not http');
    } catch {
      issues.push({ ...where('url'), message: `notify[${i}].url: not an http(s) URL` });
      ok = false;
    }
    let secret: string | undefined;
    if (typeof item.secretEnv === 'string') {
      if (type !== 'webhook') {
        issues.push({
          ...where('secretEnv'),
          message: `notify[${i}].secretEnv: only a webhook target signs its body (Slack checks its own URL)`,
        });
        ok = false;
      } else {
        secret = env[item.secretEnv];
        if (secret === undefined || secret.trim().length < MIN_SIGNING_SECRET) {
          issues.push({
            ...where('secretEnv'),
            // Its name is not quoted: a field marked secret never is (the key itself may be written there).
            message: `notify[${i}].secretEnv: the variable it names must hold the signing secret (${MIN_SIGNING_SECRET}+ characters)`,
          });
          ok = false;
        }
      }
    }
    if (!ok) return;
    const events = Array.isArray(item.events) ? (item.events as NotifyEvent[]) : [...NOTIFY_EVENTS];
    targets.push({
      name: typeof item.name === 'string' ? item.name : `notify[${i}]`,
      type,
      url,
      ...(secret !== undefined ? { secret: secret.trim() } : {}),
      events,
    });
  });
  return { targets, issues };
}
