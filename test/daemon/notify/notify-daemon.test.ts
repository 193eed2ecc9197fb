/**
 * Notifications from a running daemon to local receivers: the webhook's JSON body and its HMAC-SHA256 signature,
 * the Slack message, one notification per distinct drift however often the schedule runs, one `recovered`, the
 * invalid-manifests event, retries on 500 with backoff, and a receiver that does not answer never holds up a run.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { NotifyTarget } from '../../../src/config/notify.js';
import { redactText } from '../../../src/secrets.js';
import { startTestDaemon, type TestDaemon } from '../helpers.js';
import { CAROL, membersYaml, teamYaml } from '../../audit/fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';

const SECRET = 'webhook-signing-secret-0123456789';
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function setup(mode: 'plan' | 'apply', targets: (r: { hook: Receiver; slack: Receiver }) => NotifyTarget[]) {
  const hook = await startReceiver();
  const slack = await startReceiver();
  cleanup.push(
    () => hook.close(),
    () => slack.close(),
  );
  const d = await startTestDaemon({
    files: { 'members.yaml': membersYaml(), 'team.yaml': teamYaml('Support', ['frank@acme.test', 'ivan@acme.test']) },
    config: { mode, schedule: '* * * * *', notify: targets({ hook, slack }) },
    sandbox: { actorTokens: [CAROL] },
    deps: { notifyRetry: { attempts: 4, initialMs: 1, maxMs: 4 } },
  });
  cleanup.push(() => d.stop());
  return { d, hook, slack };
}

/** One scheduled run, and every notification it caused delivered. */
async function tick(d: TestDaemon): Promise<void> {
  const run = d.nextRun();
  d.scheduler.tick();
  await run;
  await d.daemon.notifier!.sender.idle();
}

async function behindDocopsBack(d: TestDaemon, user: string, role: string): Promise<void> {
  const res = await fetch(`${d.sandbox.url}/orgs/org-demo/members/${user}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${CAROL.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ role }),
  });
  expect(res.status).toBe(200);
}

describe('notifications', () => {
  it('plan mode: one signed webhook and one Slack message per distinct drift over many cycles, one when it is resolved', async () => {
    const { d, hook, slack } = await setup('plan', ({ hook, slack }) => [
      {
        name: 'hook',
        type: 'webhook',
        url: hook.url,
        secret: SECRET,
        events: ['drift', 'recovered', 'manifests_invalid'],
      },
      { name: 'slack', type: 'slack', url: slack.url, events: ['drift', 'recovered'] },
    ]);
    // The URL is a secret: nothing the daemon prints shows it.
    expect(redactText(`posting to ${slack.url}`)).not.toContain(slack.url);
    await tick(d);
    expect(hook.received).toEqual([]);

    await behindDocopsBack(d, 'u-bob', 'admin');
    for (let i = 0; i < 6; i++) await tick(d);
    expect(hook.received).toHaveLength(1);
    expect(slack.received).toHaveLength(1);
    const sent = hook.received[0]!;
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers['x-docops-event']).toBe('drift');
    expect(sent.headers['x-docops-signature-256']).toBe(
      `sha256=${createHmac('sha256', SECRET).update(sent.body).digest('hex')}`,
    );
    expect(sent.json).toMatchObject({
      event: 'drift',
      mode: 'plan',
      summary: 'Plan: 0 to add, 1 to change, 0 to delete.',
      run: { result: 'success', planned: 1 },
    });
    expect(sent.json.changes).toEqual([
      expect.objectContaining({
        kind: 'Members',
        key: 'bob@acme.test',
        action: 'update',
        changedBy: expect.objectContaining({ actor: 'carol@acme.test', action: 'member.updated' }),
      }),
    ]);
    expect(sent.json.changes[0].sentence).toMatch(
      /^Members role of bob@acme\.test changed to admin by carol@acme\.test at \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );
    expect(slack.received[0]!.json.text).toContain('*docops: Drift detected*');
    expect(slack.received[0]!.json.text).toMatch(
      /• Members role of bob@acme\.test changed to admin by carol@acme\.test at /,
    );
    expect(slack.received[0]!.headers['x-docops-signature-256']).toBeUndefined();

    // Another change: a distinct drift, sent once.
    await behindDocopsBack(d, 'u-dan', 'admin');
    for (let i = 0; i < 3; i++) await tick(d);
    expect(hook.received.map((r) => r.json.event)).toEqual(['drift', 'drift']);
    expect(hook.received[1]!.json.changes).toHaveLength(2);

    // Set back by hand: resolved, said once.
    await behindDocopsBack(d, 'u-bob', 'edit');
    await behindDocopsBack(d, 'u-dan', 'review');
    for (let i = 0; i < 3; i++) await tick(d);
    expect(hook.received.map((r) => r.json.event)).toEqual(['drift', 'drift', 'recovered']);
    expect(hook.received[2]!.json.resolves).toBe('drift');
    expect(slack.received.map((r) => r.json.text.split('\n')[0])).toEqual([
      '*docops: Drift detected* (plan mode, run #3)',
      expect.stringContaining('Drift detected'),
      expect.stringContaining('Recovered'),
    ]);

    // Invalid manifests: once, with file:line, however many runs see them.
    const invalid = d.nextRun((r) => r.result === 'invalid_manifests');
    d.write(
      'broken.yaml',
      'apiVersion: docops/v1\nkind: Team\nmetadata: { organization: org-demo }\nspec: { title: 7 }\n',
    );
    await invalid;
    await d.daemon.notifier!.sender.idle();
    for (let i = 0; i < 3; i++) await tick(d);
    const invalidEvents = hook.received.filter((r) => r.json.event === 'manifests_invalid');
    expect(invalidEvents).toHaveLength(1);
    expect(invalidEvents[0]!.json.problems[0]).toMatchObject({ line: 4, message: expect.stringContaining('title') });
    expect(slack.received).toHaveLength(3); // Slack does not subscribe to manifests_invalid
  });

  it('apply mode: a reverted drift is one notification naming the outcome; the clean runs after it send nothing', async () => {
    const { d, hook } = await setup('apply', ({ hook }) => [
      { name: 'hook', type: 'webhook', url: hook.url, events: ['drift', 'recovered', 'apply_failed'] },
    ]);
    await behindDocopsBack(d, 'u-bob', 'admin');
    for (let i = 0; i < 4; i++) await tick(d);
    expect(hook.received.map((r) => r.json.event)).toEqual(['drift']);
    expect(hook.received[0]!.json.changes[0]).toMatchObject({
      origin: 'drift',
      outcome: 'applied',
      changedBy: expect.objectContaining({ actor: 'carol@acme.test' }),
    });
    expect(hook.received[0]!.headers['x-docops-signature-256']).toBeUndefined();
    // A manifest edit is not drift: applying it notifies nobody.
    const edited = d.nextRun();
    d.write('team.yaml', teamYaml('Support', ['frank@acme.test']));
    expect(await edited).toMatchObject({ result: 'success', applied: 1 });
    await d.daemon.notifier!.sender.idle();
    expect(hook.received.map((r) => r.json.event)).toEqual(['drift']);
    // The same change made again later is news again.
    await behindDocopsBack(d, 'u-bob', 'admin');
    await tick(d);
    expect(hook.received.map((r) => r.json.event)).toEqual(['drift', 'drift']);
  });

  it('retries a target answering 500 with backoff, and a target that does not answer never holds up a run', async () => {
    const { d, hook, slack } = await setup('plan', ({ hook, slack }) => [
      { name: 'hook', type: 'webhook', url: hook.url, events: ['drift'] },
      { name: 'slow', type: 'slack', url: slack.url, events: ['drift'] },
    ]);
    hook.answers.push(500, 503, 500);
    slack.answers.push(0); // holds its answer until released
    await behindDocopsBack(d, 'u-bob', 'admin');
    const run = d.nextRun();
    d.scheduler.tick();
    expect((await run).result).toBe('success'); // the run ended while Slack still has not answered
    await hook.count(4);
    await slack.count(1);
    expect(hook.received.map((r) => r.body)).toEqual(Array(4).fill(hook.received[0]!.body));
    const otherRun = d.nextRun();
    d.scheduler.tick();
    expect((await otherRun).result).toBe('success');
    slack.release();
    await d.daemon.notifier!.sender.idle();
    expect(hook.received).toHaveLength(4);
    expect(slack.received).toHaveLength(1);
    expect(d.logs.filter((l) => l.msg === 'notification failed; retrying after backoff').map((l) => l.status)).toEqual([
      500, 503, 500,
    ]);
    expect(d.logs.some((l) => JSON.stringify(l).includes(hook.url))).toBe(false);
  });
});
