/**
 * `ha:` of docops.yaml: leader election through a Kubernetes Lease (docs/daemon.md, "High availability"), its
 * client-go defaults, and the checks of its timings the schema cannot make.
 */
import type { ValidationIssue } from '../model/errors.js';
import { isRecord } from '../model/json.js';

export interface HaConfig {
  mode: 'kubernetes';
  /** Absent: the pod's namespace, else the kubeconfig context's, else `default`. */
  namespace?: string;
  leaseName: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** client-go's leader-election defaults. */
export const HA_DEFAULTS = {
  leaseName: 'docops',
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
} as const;

type At = (path: string[]) => { file: string; line: number; column: number };

export function haConfig(raw: unknown): { ha?: HaConfig } {
  if (!isRecord(raw) || raw.mode !== 'kubernetes') return {};
  const d = HA_DEFAULTS;
  const num = (k: keyof typeof d): number => (typeof raw[k] === 'number' ? raw[k] : (d[k] as number));
  return {
    ha: {
      mode: 'kubernetes',
      ...(typeof raw.namespace === 'string' ? { namespace: raw.namespace } : {}),
      leaseName: typeof raw.leaseName === 'string' ? raw.leaseName : d.leaseName,
      leaseDurationMs: num('leaseDurationMs'),
      renewDeadlineMs: num('renewDeadlineMs'),
      retryPeriodMs: num('retryPeriodMs'),
    },
  };
}

/**
 * The election's timings must nest as client-go requires: the leader stops writing (renewDeadline) before the
 * others may take over (leaseDuration), and renews more than once within its deadline (1.2 × retryPeriod,
 * client-go's jitter factor).
 */
export function haIssues(raw: unknown, at: At): ValidationIssue[] {
  if (!isRecord(raw)) return [];
  const d = HA_DEFAULTS;
  const value = (k: 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'): number | undefined =>
    raw[k] === undefined ? d[k] : typeof raw[k] === 'number' ? raw[k] : undefined;
  const lease = value('leaseDurationMs');
  const renew = value('renewDeadlineMs');
  const retry = value('retryPeriodMs');
  const where = (k: string): { file: string; line: number; column: number } =>
    at(raw[k] !== undefined ? ['ha', k] : ['ha']);
  const issues: ValidationIssue[] = [];
  if (lease !== undefined && renew !== undefined && renew >= lease) {
    issues.push({
      ...where('renewDeadlineMs'),
      message: `ha.renewDeadlineMs: must be below ha.leaseDurationMs (${lease}), so the leader stops writing before another replica may take over`,
    });
  }
  if (renew !== undefined && retry !== undefined && renew <= 1.2 * retry) {
    issues.push({
      ...where('retryPeriodMs'),
      message: `ha.retryPeriodMs: 1.2 × it must be below ha.renewDeadlineMs (${renew}), so the leader tries to renew more than once before it gives up`,
    });
  }
  return issues;
}
