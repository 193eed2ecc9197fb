/** Notification targets (`notify:` in docops.yaml) and the events they subscribe to. */

export const NOTIFY_EVENTS = [
  'drift',
  'apply_failed',
  'refused',
  'awaiting_approval',
  'recovered',
  'manifests_invalid',
] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

export const NOTIFY_TYPES = ['webhook', 'slack'] as const;
export type NotifyType = (typeof NOTIFY_TYPES)[number];

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
