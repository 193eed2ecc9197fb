/**
 * The daemon's unauthenticated /readyz (and the authenticated POST /reconcile answer) say why the daemon is not
 * ready with categories, counts and file:line:column positions only — never a message, which may quote a
 * manifest's or the config's content. The log keeps the full messages for the operator.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ORG, SUPPORT, startTestDaemon, teamYaml, type TestDaemon } from './helpers.js';

const CONTENT = 'Quoted-Manifest-Content-7f3a';

let current: TestDaemon | undefined;
afterEach(async () => {
  await current?.stop();
  current = undefined;
});

describe('/readyz and POST /reconcile carry no file content', () => {
  it('invalid manifests: problems and positions (relative to the manifests directory), not the messages', async () => {
    const secret = 'reconcile-secret-of-enough-length';
    const t = (current = await startTestDaemon({
      files: { 'support.yaml': SUPPORT },
      config: { reconcileSecret: secret },
    }));
    const bad = t.nextRun();
    t.write(
      'bad.yaml',
      teamYaml('Bad', [CONTENT]).replace(`organization: ${ORG}`, `organization: ${ORG}\n  ${CONTENT}: 1`),
    );
    const run = await bad;
    expect(run.result).toBe('invalid_manifests');
    expect(run.issues!.some((i) => i.message.includes(CONTENT))).toBe(true); // the messages do quote the content

    const ready = await t.get('/readyz');
    expect(ready.status).toBe(503);
    const body = JSON.parse(ready.text) as Record<string, { problems?: number; positions?: string[] } | null>;
    expect(body.manifests).toMatchObject({ ok: false, problems: run.issues!.length });
    expect(body.manifests!.positions).toEqual(run.issues!.map((i) => `bad.yaml:${i.line}:${i.column}`));
    expect(body.lastRun).toMatchObject({ result: 'invalid_manifests', problems: run.issues!.length });
    expect(ready.text).not.toContain(CONTENT);

    const answer = await fetch(`${t.daemon.url}/reconcile?wait=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
    });
    const text = await answer.text();
    expect(answer.status).toBe(422);
    expect(JSON.parse(text)).toMatchObject({
      result: 'invalid_manifests',
      problems: run.issues!.length,
      positions: body.manifests!.positions,
    });
    expect(text).not.toContain(CONTENT);
    // The operator's log has the messages.
    expect(JSON.stringify(t.logs)).toContain(CONTENT);
  });

  it('manifests that cannot be loaded at all: the error class, not its message', async () => {
    const t = (current = await startTestDaemon({
      files: { 'support.yaml': SUPPORT },
      deps: {
        loadManifests: async () => {
          throw new Error(`cannot read ${CONTENT}`);
        },
      },
    }));
    expect(t.daemon.runs[0]).toMatchObject({ result: 'invalid_manifests', errorType: 'Error' });
    const ready = await t.get('/readyz');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toMatchObject({
      manifests: { ok: false, errorType: 'Error' },
      reason: expect.stringMatching(/could not be read/),
    });
    expect(ready.text).not.toContain(CONTENT);
    expect(JSON.stringify(t.logs)).toContain(CONTENT);
  });

  it('an API failure: its HTTP status, not the API message (which may echo what was sent)', async () => {
    const t = (current = await startTestDaemon({ files: { 'support.yaml': SUPPORT }, faults: '5xx=1' }));
    const run = t.daemon.runs[0]!;
    expect(run).toMatchObject({ result: 'failed', apiOk: false, errorType: 'ApiError' });
    expect(run.apiStatus).toBeGreaterThanOrEqual(500);
    const ready = await t.get('/readyz');
    const body = JSON.parse(ready.text) as {
      api: Record<string, unknown>;
      lastRun: Record<string, unknown>;
      reason: string;
    };
    expect(body.api).toMatchObject({ ok: false, status: run.apiStatus, errorType: 'ApiError' });
    expect(body.reason).toContain(`HTTP ${run.apiStatus}`);
    expect(body.lastRun).not.toHaveProperty('error');
    expect(ready.text).not.toContain(run.error!);
  });

  it('/healthz and /metrics carry nothing from the manifests', async () => {
    const t = (current = await startTestDaemon({ files: { 'support.yaml': SUPPORT } }));
    const bad = t.nextRun();
    t.write('bad.yaml', teamYaml(CONTENT).replace('kind: Team', `kind: ${CONTENT}`));
    expect((await bad).result).toBe('invalid_manifests');
    for (const path of ['/healthz', '/metrics']) {
      const res = await t.get(path);
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(CONTENT);
    }
  });
});
