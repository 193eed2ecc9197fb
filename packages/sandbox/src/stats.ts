/** Request counters for tests and benchmarks, keyed by route pattern (not raw path), plus the ordered log. */

export interface RequestLogEntry {
  seq: number;
  method: string;
  /** `METHOD /v1/pattern`'s pattern part, e.g. `/v1/orgs/:organizationId/members`; `(unmatched)` if none. */
  route: string;
  path: string;
  /** HTTP status answered; 0 when the connection was reset without an answer. */
  status: number;
  /** Set when a fault decided the outcome: `429`, `5xx`, `5xxAfter`, `reset` or `resetAfter`. */
  fault?: string;
  /** Injected delay (latency + spike) in ms, when there was one. */
  delayMs?: number;
  /** Refused with 429 by the rate limit (rate-limit.ts), not by a random fault. */
  rateLimited?: true;
}

export interface SandboxStats {
  total: number;
  byMethod: Record<string, number>;
  /** Keyed `METHOD /v1/pattern`, e.g. `GET /v1/orgs/:organizationId/members`. */
  byRoute: Record<string, number>;
  /** Keyed by status; `0` counts connections reset without an answer. */
  byStatus: Record<string, number>;
  /** Answers 429 from the rate limit (`byStatus['429']` also counts injected 429 faults). */
  rateLimited: number;
  requests: RequestLogEntry[];
}

export class StatsRecorder {
  private log: RequestLogEntry[] = [];
  private seq = 0;

  record(entry: Omit<RequestLogEntry, 'seq'>): void {
    this.log.push({ seq: ++this.seq, ...entry });
  }

  reset(): void {
    this.log = [];
    this.seq = 0;
  }

  snapshot(): SandboxStats {
    const stats: SandboxStats = {
      total: 0,
      byMethod: {},
      byRoute: {},
      byStatus: {},
      rateLimited: 0,
      requests: this.log.map((e) => ({ ...e })),
    };
    for (const e of this.log) {
      stats.total++;
      bump(stats.byMethod, e.method);
      bump(stats.byRoute, `${e.method} ${e.route}`);
      bump(stats.byStatus, String(e.status));
      if (e.rateLimited) stats.rateLimited++;
    }
    return stats;
  }
}

function bump(m: Record<string, number>, key: string): void {
  m[key] = (m[key] ?? 0) + 1;
}
