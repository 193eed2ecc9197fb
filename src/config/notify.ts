/**
 * `notify:` of docops.yaml → NotifyTarget[]: the targets and the events they subscribe to (src/daemon/notify sends
 * to them). The JSON schema (schemas/config.schema.json) checks shapes; this checks what it cannot: a URL that
 * parses, `secretEnv` only on webhooks and naming a variable that is set (16+ characters). Problems come back as
 * issues at the field's file:line:column, with the rest of the config's.
 */
import type { ValidationIssue } from '../model/errors.js';
import type { Env } from '../manifests/interpolate.js';
import { isRecord } from '../model/json.js';

const NOTIFY_EVENTS = [
  'drift',
  'apply_failed',
  'refused',
  'awaiting_approval',
  'recovered',
  'manifests_invalid',
] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

type NotifyType = 'webhook' | 'slack';

export interface NotifyTarget {
  /** For logs: the name given, else `notify[i]` (never the URL: it is a secret). */
  name: string;
  type: NotifyType;
  /** Registered as a secret (a Slack webhook URL is a credential). */
  url: string;
  /** HMAC-SHA256 key of a generic webhook's signature header (from the variable `secretEnv` names). */
  secret?: string;
  events: NotifyEvent[];
}

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
