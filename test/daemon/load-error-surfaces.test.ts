/**
 * A daemon whose manifests directory is mistyped (issue 34, point 7): the one sentence the CLI says ("manifests
 * directory … does not exist") reaches every surface — the log at error level (the stack only at debug), the
 * status page and /api/status (no made-up `.:0:0` position), /readyz's reason, the run in the runs table, and the
 * notifications — instead of "could not be read (UsageError; see the log)".
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/daemon/run.js';
import { NotifyPolicy } from '../../src/daemon/notify/policy.js';
import { slackBody, webhookBody } from '../../src/daemon/notify/message.js';
import { emptyPlan } from '../../src/model/plan.js';
import { startTestDaemon, type TestDaemon } from './helpers.js';

let d: TestDaemon;
let missing: string;
let sentence: string;
beforeAll(async () => {
  d = await startTestDaemon({ files: {}, config: (dir) => ({ manifestsDir: join(dir, 'manifestz') }) });
  missing = join(d.dir, 'manifestz');
  sentence = `manifests directory ${missing} does not exist`;
}, 60_000);
afterAll(async () => {
  await d?.stop();
});

describe('a mistyped manifests directory, on every surface', () => {
  it('the run fails as invalid manifests with the sentence as its error', () => {
    expect(d.daemon.runs[0]).toMatchObject({ result: 'invalid_manifests', errorType: 'UsageError', error: sentence });
  });

  it('the log says the sentence at error level; the stack only at debug', () => {
    const errors = d.logs.filter((l) => l.level === 50);
    expect(errors.map((l) => l.msg)).toEqual([`cannot load manifests: ${sentence}`]);
    expect(JSON.stringify(errors)).not.toContain('stack');
    const debug = d.logs.filter((l) => l.level === 20 && l.msg === 'cannot load manifests (stack)');
    expect(JSON.stringify(debug)).toContain('at ');
  });

  it('the status page and /api/status say it, with no position', async () => {
    const page = await d.get('/');
    expect(page.text).toContain(`The manifests could not be read: <span data-field="load-error">${sentence}</span>.`);
    expect(page.text).not.toContain('.:0:0');
    expect(page.text).not.toContain('see the log');
    const api = JSON.parse((await d.get('/api/status')).text) as {
      manifests: { ok: boolean; problems: unknown[]; error: string | null };
      runs: { result: string; error: string | null }[];
    };
    expect(api.manifests).toMatchObject({ ok: false, problems: [], error: sentence });
    expect(api.runs[0]).toMatchObject({ result: 'invalid_manifests', error: sentence });
  });

  it('/readyz gives it as the reason', async () => {
    const ready = await d.get('/readyz');
    expect(ready.status).toBe(503);
    const body = JSON.parse(ready.text) as { reason: string; manifests: Record<string, unknown> };
    expect(body.reason).toBe(`the last manifest load failed: ${sentence}; the API has not been contacted yet`);
    expect(body.manifests).toMatchObject({ ok: false, errorType: 'UsageError', reason: sentence });
  });

  it('the notification says it, and another sentence is another notification', () => {
    const record = d.daemon.runs[0]!;
    const policy = new NotifyPolicy();
    const decision = policy.decide(record, undefined, undefined)!;
    expect(decision.event).toBe('manifests_invalid');
    expect(webhookBody(decision, { record, plan: undefined, report: undefined })).toMatchObject({ error: sentence });
    expect(slackBody(decision, { record, plan: undefined, report: undefined }).text).toContain(sentence);
    const other: RunRecord = { ...record, id: 2, error: `${missing} is not a directory` };
    expect(policy.decide(other, emptyPlan(), undefined)?.event).toBe('manifests_invalid');
  });
});
