/**
 * Delivers notifications without ever holding up a reconcile: `send` only queues (a bounded queue per target;
 * when full the oldest waiting notification is dropped, and logged). Each target's queue is worked through in
 * order by one async loop; a failed delivery (no answer, 429 or 5xx) is retried with exponential backoff up to
 * `attempts` times, other answers (4xx) are not retried. A redirect (3xx) is never followed — the receiver could
 * point the signed body and its signature anywhere — so it is a failed delivery, retried like a 5xx and logged with
 * its status (docs/reliability.md, "Redirects"). A generic webhook's body is signed with HMAC-SHA256 when
 * the target has a secret: `X-Docops-Signature-256: sha256=<hex of HMAC(secret, body)>`. Every body passes the
 * secret registry (src/secrets.ts) before it leaves; logs name targets by name, never by URL.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { Logger } from '../../log.js';
import { redactText } from '../../secrets.js';
import type { NotifyEvent, NotifyTarget } from '../../config/notify.js';

export interface RetryPolicy {
  attempts: number;
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_NOTIFY_RETRY: RetryPolicy = { attempts: 5, initialMs: 2000, maxMs: 60_000 };
export const QUEUE_SIZE = 20;
export const TIMEOUT_MS = 10_000;

export interface SenderOptions {
  logger: Logger;
  retry?: RetryPolicy;
  queueSize?: number;
  timeoutMs?: number;
  /** Delivery outcomes, for tests and metrics. */
  onDelivery?: (d: {
    target: string;
    event: NotifyEvent;
    status: number | undefined;
    attempt: number;
    delivered: boolean;
  }) => void;
}

interface Item {
  event: NotifyEvent;
  body: string;
}

export const SIGNATURE_HEADER = 'x-docops-signature-256';

/** Said beside the status of a delivery answered with a redirect (the Location itself is not logged). */
export const REDIRECT_NOT_FOLLOWED = 'not followed: docops delivers only to the configured URL';

export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

class TargetQueue {
  private readonly items: Item[] = [];
  private working: Promise<void> | undefined;

  constructor(
    private readonly target: NotifyTarget,
    private readonly o: Required<Omit<SenderOptions, 'onDelivery'>> & Pick<SenderOptions, 'onDelivery'>,
    private readonly closed: AbortSignal,
  ) {}

  push(item: Item): void {
    if (this.items.length >= this.o.queueSize) {
      const dropped = this.items.shift()!;
      this.o.logger.warn(
        { target: this.target.name, event: dropped.event },
        'notification queue full: dropped the oldest notification',
      );
    }
    this.items.push(item);
    this.working ??= this.work().finally(() => (this.working = undefined));
  }

  idle(): Promise<void> {
    return this.working ?? Promise.resolve();
  }

  private async work(): Promise<void> {
    while (this.items.length > 0 && !this.closed.aborted) await this.deliver(this.items.shift()!);
  }

  private async deliver(item: Item): Promise<void> {
    const { retry, logger } = this.o;
    for (let attempt = 1; attempt <= retry.attempts; attempt++) {
      let status: number | undefined;
      try {
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          'user-agent': 'docops',
          'x-docops-event': item.event,
          'x-docops-delivery': randomUUID(),
        };
        if (this.target.secret !== undefined) headers[SIGNATURE_HEADER] = signature(this.target.secret, item.body);
        const signal = AbortSignal.any([this.closed, AbortSignal.timeout(this.o.timeoutMs)]);
        // 'manual': a 3xx comes back as the answer (Node's fetch then returns the redirect itself, unfollowed).
        const res = await fetch(this.target.url, {
          method: 'POST',
          headers,
          body: item.body,
          redirect: 'manual',
          signal,
        });
        status = res.status;
        await res.arrayBuffer().catch(() => undefined);
      } catch {
        status = undefined; // no answer: retried
      }
      const delivered = status !== undefined && status >= 200 && status < 300;
      this.o.onDelivery?.({ target: this.target.name, event: item.event, status, attempt, delivered });
      if (delivered) {
        logger.info({ target: this.target.name, event: item.event, attempt }, 'notification sent');
        return;
      }
      const redirected = status !== undefined && status >= 300 && status < 400;
      const retryable = status === undefined || redirected || status === 429 || status >= 500;
      if (!retryable || attempt === retry.attempts || this.closed.aborted) {
        logger.error(
          {
            target: this.target.name,
            event: item.event,
            status,
            attempt,
            ...(redirected ? { redirect: REDIRECT_NOT_FOLLOWED } : {}),
          },
          'notification not delivered',
        );
        return;
      }
      const delay = Math.min(retry.maxMs, retry.initialMs * 2 ** (attempt - 1));
      logger.warn(
        {
          target: this.target.name,
          event: item.event,
          status,
          attempt,
          delayMs: delay,
          ...(redirected ? { redirect: REDIRECT_NOT_FOLLOWED } : {}),
        },
        'notification failed; retrying after backoff',
      );
      await sleep(delay, this.closed);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export class NotificationSender {
  private readonly queues: Map<NotifyTarget, TargetQueue>;
  private readonly abort = new AbortController();

  constructor(
    private readonly targets: readonly NotifyTarget[],
    options: SenderOptions,
  ) {
    const o = { retry: DEFAULT_NOTIFY_RETRY, queueSize: QUEUE_SIZE, timeoutMs: TIMEOUT_MS, ...options };
    this.queues = new Map(targets.map((t) => [t, new TargetQueue(t, o, this.abort.signal)]));
  }

  /** Queue `event` for every target that subscribes to it; `body(target)` makes that target's body. Never blocks. */
  send(event: NotifyEvent, body: (target: NotifyTarget) => unknown): void {
    if (this.abort.signal.aborted) return;
    for (const t of this.targets) {
      if (!t.events.includes(event)) continue;
      this.queues.get(t)!.push({ event, body: redactText(JSON.stringify(body(t))) });
    }
  }

  /** Resolves when every queue is empty (tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.idle()));
  }

  /** Stop: waiting notifications are dropped, a retry's wait ends, a delivery in flight is aborted. */
  async close(): Promise<void> {
    this.abort.abort();
    await this.idle();
  }
}
