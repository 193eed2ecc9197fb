/**
 * A notification goes to the configured URL and nowhere else: a receiver answering a redirect (307 and 308 would
 * re-send the signed body and its X-Docops-Signature-256 header; 301/302/303 a GET) gets a failed delivery, logged
 * with its status and retried like any failure, and the origin the redirect names never hears from docops.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log.js';
import { NotificationSender, REDIRECT_NOT_FOLLOWED, SIGNATURE_HEADER } from '../../../src/daemon/notify/sender.js';
import type { NotifyTarget } from '../../../src/config/notify.js';
import { startElsewhere, type Elsewhere } from '../../helpers/elsewhere.js';
import { startReceiver, type Receiver } from './receiver.js';

const SECRET = 'webhook-signing-secret-0123456789';
const ATTEMPTS = 3;

let receiver: Receiver;
let elsewhere: Elsewhere;
afterEach(async () => {
  await receiver.close();
  await elsewhere.close();
});

async function deliver(target: Omit<NotifyTarget, 'url' | 'events'>, status: number) {
  elsewhere = await startElsewhere();
  receiver = await startReceiver();
  receiver.location = `${elsewhere.origin}/collect`;
  receiver.answers.push(...Array<number>(ATTEMPTS).fill(status));
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: 'debug',
    format: 'json',
    stream: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const statuses: (number | undefined)[] = [];
  const sender = new NotificationSender([{ ...target, url: receiver.url, events: ['drift'] }], {
    logger,
    retry: { attempts: ATTEMPTS, initialMs: 1, maxMs: 2 },
    onDelivery: (d) => statuses.push(d.status),
  });
  sender.send('drift', () => ({ event: 'drift', text: 'Drift detected' }));
  await sender.idle();
  await sender.close();
  return { logs, statuses };
}

describe('notification redirects', () => {
  for (const status of [307, 308, 301, 302, 303]) {
    it(`a signed webhook answered ${status}: a failed delivery, retried, never sent where the redirect points`, async () => {
      const { logs, statuses } = await deliver({ name: 'hook', type: 'webhook', secret: SECRET }, status);

      expect(elsewhere.received).toEqual([]);
      expect(receiver.received).toHaveLength(ATTEMPTS);
      expect(receiver.received[0]!.headers[SIGNATURE_HEADER]).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(statuses).toEqual(Array(ATTEMPTS).fill(status));
      expect(logs.filter((l) => l.msg === 'notification failed; retrying after backoff').map((l) => l.status)).toEqual(
        Array(ATTEMPTS - 1).fill(status),
      );
      expect(logs.filter((l) => l.msg === 'notification not delivered')).toEqual([
        expect.objectContaining({
          target: 'hook',
          status,
          attempt: ATTEMPTS,
          level: 50,
          redirect: REDIRECT_NOT_FOLLOWED,
        }),
      ]);
      expect(logs.some((l) => l.msg === 'notification sent')).toBe(false);
      expect(JSON.stringify(logs)).not.toContain(elsewhere.origin); // the Location is not logged (nor the URL)
    });
  }

  it('a Slack webhook answered 307: the message is not re-sent to the other origin', async () => {
    const { statuses } = await deliver({ name: 'slack', type: 'slack' }, 307);
    expect(elsewhere.received).toEqual([]);
    expect(statuses).toEqual([307, 307, 307]);
  });

  it('a redirect followed by a 200 is delivered at the retry (only the configured URL is ever asked)', async () => {
    elsewhere = await startElsewhere();
    receiver = await startReceiver();
    receiver.location = `${elsewhere.origin}/collect`;
    receiver.answers.push(307);
    const statuses: (number | undefined)[] = [];
    const logger = createLogger({ level: 'silent' });
    const sender = new NotificationSender([{ name: 'hook', type: 'webhook', url: receiver.url, events: ['drift'] }], {
      logger,
      retry: { attempts: ATTEMPTS, initialMs: 1, maxMs: 2 },
      onDelivery: (d) => statuses.push(d.status),
    });
    sender.send('drift', () => ({ event: 'drift' }));
    await sender.idle();
    await sender.close();
    expect(statuses).toEqual([307, 200]);
    expect(elsewhere.received).toEqual([]);
  });
});
