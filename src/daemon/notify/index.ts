/** Notifications of the daemon: the policy decides (no spam), the messages say, the sender delivers (async). */
import type { ApplyReport } from '../../model/apply-report.js';
import type { Plan } from '../../model/plan.js';
import type { RunRecord } from '../run.js';
import type { Logger } from '../../log.js';
import { registerSecret } from '../../secrets.js';
import { slackBody, webhookBody } from './message.js';
import { NotifyPolicy } from './policy.js';
import { NotificationSender, type SenderOptions } from './sender.js';
import type { NotifyTarget } from '../../config/notify.js';

export type { NotifyTarget } from '../../config/notify.js';

export class Notifier {
  private readonly policy = new NotifyPolicy();
  readonly sender: NotificationSender;

  constructor(
    targets: readonly NotifyTarget[],
    options: SenderOptions & { statusUrl?: () => string | undefined },
    private readonly logger: Logger = options.logger,
  ) {
    // Webhook URLs are credentials (Slack's are); signing keys too.
    for (const t of targets) {
      registerSecret(t.url);
      registerSecret(t.secret);
    }
    this.sender = new NotificationSender(targets, options);
    this.statusUrl = options.statusUrl;
  }

  private readonly statusUrl: (() => string | undefined) | undefined;

  /** A run ended: notify when the policy says so. Never throws, never waits for a delivery. */
  onRun(record: RunRecord, plan: Plan | undefined, report: ApplyReport | undefined): void {
    try {
      const decision = this.policy.decide(record, plan, report);
      if (!decision) return;
      const statusUrl = this.statusUrl?.();
      const ctx = { record, plan, report, ...(statusUrl !== undefined ? { statusUrl } : {}) };
      this.sender.send(decision.event, (t) =>
        t.type === 'slack' ? slackBody(decision, ctx) : webhookBody(decision, ctx),
      );
    } catch (err) {
      this.logger.error({ err }, 'notification could not be prepared');
    }
  }

  close(): Promise<void> {
    return this.sender.close();
  }
}
