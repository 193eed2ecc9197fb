/**
 * Secrets never leave docops: the API token and every site share-link secret (the `share=` part of a share
 * link's urls.published) appear in no stdout, stderr, plan file, journal, undo output or export, across the
 * representative commands, at debug log level, and on error paths (401, retries exhausted); and the token
 * never reaches any output whatever path it came from (second describe).
 */
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonCommand } from '../../src/cli/commands/daemon.js';
import { siteShareLinks } from '../../packages/sandbox/src/site-records.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { findLeaks, OutputCollector, runCliCollecting, type CollectedRun } from '../helpers/output-collector.js';
import { tempDir } from '../helpers/pipeline.js';

const TOKEN = 'tok-SECRET-9d2f41c8a7e3b605e1';
const DEBUG = ['--log-level', 'debug', '--log-format', 'json'];

let sandbox: RunningSandbox;
let work: string;
let manifests: string;
const runs: { name: string; run: CollectedRun }[] = [];

/** Run docops against the sandbox with the token in DOCOPS_TOKEN, keeping the output for the final scan. */
async function docops(
  name: string,
  argv: string[],
  env: Record<string, string> = { DOCOPS_TOKEN: TOKEN },
): Promise<CollectedRun> {
  const run = await runCliCollecting([...argv, '--api-url', sandbox.url, ...DEBUG], env, [TOKEN]);
  runs.push({ name, run });
  return run;
}

function shareSecrets(): string[] {
  return siteShareLinks(sandbox.store)
    .all()
    .flatMap((l) => [l.secret, encodeURIComponent(l.secret)]);
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'demo', token: TOKEN });
  work = tempDir('secrets');
  manifests = join(work, 'manifests');
  await cp('config.example/manifests', manifests, { recursive: true });
});
afterAll(async () => {
  await sandbox.close();
});

describe('the token and share-link secrets never appear in any output', () => {
  it('validate, plan in three formats, plan --out, apply of the saved plan (creates a share link)', async () => {
    runs.push({ name: 'validate', run: await runCliCollecting(['validate', '-m', manifests, ...DEBUG], {}, [TOKEN]) });
    for (const format of ['text', 'markdown', 'json'])
      expect((await docops(`plan ${format}`, ['plan', '-m', manifests, '--format', format])).code).toBe(0);
    const planFile = join(work, 'plan.json');
    const saved = await docops('plan --out', ['plan', '-m', manifests, '--out', planFile]);
    expect(saved.code).toBe(0);
    saved.collector.addPath(planFile);
    const apply = await docops('apply --plan', [
      'apply',
      '-m',
      manifests,
      '--plan',
      planFile,
      '--journal-dir',
      join(work, 'journal'),
    ]);
    expect(apply.code, apply.stderr).toBe(0);
    expect(
      siteShareLinks(sandbox.store)
        .all()
        .map((l) => l.name),
    ).toContain('partner-preview');
  });

  it('a second share link, then plans that read both links back (the API returns their secret URLs)', async () => {
    const site = join(manifests, 'site.yaml');
    await writeFile(
      site,
      (await readFile(site, 'utf8')).replace(
        '    - name: partner-preview\n',
        '    - name: partner-preview\n    - name: beta-readers\n',
      ),
    );
    expect((await docops('apply second link', ['apply', '-m', manifests])).code).toBe(0);
    expect(shareSecrets().length).toBeGreaterThanOrEqual(4);
    // The secret really is in what the API serves, so docops had the chance to leak it.
    const siteId = siteShareLinks(sandbox.store).all()[0]!.siteId;
    const listed = await fetch(`${sandbox.url}/orgs/org-demo/sites/${siteId}/share-links`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    }).then((r) => r.text());
    expect(shareSecrets().some((s) => listed.includes(s))).toBe(true);
    for (const format of ['text', 'markdown', 'json'])
      expect((await docops(`plan ${format} with links`, ['plan', '-m', manifests, '--format', format])).code).toBe(0);
  });

  it('a prune that deletes a share link and a team writes a journal; undo reads it back; export writes manifests', async () => {
    const before = shareSecrets();
    const site = join(manifests, 'site.yaml');
    await writeFile(site, (await readFile(site, 'utf8')).replace('    - name: beta-readers\n', ''));
    await rm(join(manifests, 'translations.yaml'));
    const journalDir = join(work, 'journal-prune');
    const prune = await docops('apply --prune', [
      'apply',
      '-m',
      manifests,
      '--prune',
      'Site',
      '--prune',
      'Team',
      '--journal-dir',
      journalDir,
      '--force',
    ]);
    expect(prune.code, prune.stdout + prune.stderr).toBe(0);
    expect(
      siteShareLinks(sandbox.store)
        .all()
        .map((l) => l.name),
    ).not.toContain('beta-readers');
    const journals = (await readdir(journalDir)).map((f) => join(journalDir, f));
    expect(journals).toHaveLength(1);
    prune.collector.addPath(journalDir);
    expect(await readFile(journals[0]!, 'utf8')).toContain('beta-readers');

    for (const format of ['text', 'json'])
      expect((await docops(`undo ${format}`, ['undo', journals[0]!, '--format', format])).code).toBe(0);
    const offline = await runCliCollecting(['undo', journals[0]!, '-o', join(work, 'undo')], {}, [TOKEN]);
    offline.collector.addPath(join(work, 'undo'));
    runs.push({ name: 'undo offline', run: offline });
    const exportDir = join(work, 'export');
    const exported = await docops('export', ['export', '--org', 'org-demo', '-o', exportDir]);
    expect(exported.code, exported.stderr).toBe(0);
    exported.collector.addPath(exportDir);
    expect((await readdir(exportDir)).length).toBeGreaterThan(0);
    // Scan everything so far for the deleted link's secret too.
    for (const { name, run } of runs) expect(run.leaks([TOKEN, ...before]), name).toEqual([]);
  });

  it('error paths: a token the API rejects, a token file, retries exhausted', async () => {
    const rejected = await docops('401', ['plan', '-m', manifests], { DOCOPS_TOKEN: `${TOKEN}x` });
    expect(rejected.code).toBe(1);
    const tokenFile = join(work, 'token');
    await writeFile(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    expect((await docops('token file', ['plan', '-m', manifests, '--token-file', tokenFile], {})).code).toBe(0);
    sandbox.setFaults('429=1,retryAfter=0');
    try {
      const exhausted = await docops('429 exhausted', ['plan', '-m', manifests]);
      expect(exhausted.code).toBe(1);
      expect(exhausted.stderr).toMatch(/429/);
    } finally {
      sandbox.setFaults(undefined);
    }
  });

  it('no run printed or wrote the token or any share-link secret', () => {
    const secrets = [TOKEN, ...shareSecrets()];
    expect(runs.length).toBeGreaterThanOrEqual(15);
    // The scan covered real output: plans, debug logs with request lines, the apply report.
    const all = runs.map(({ run }) => run.stdout + run.stderr).join('\n');
    expect(all).toContain('"level":20');
    expect(all).toContain('partner-preview');
    expect(all.length).toBeGreaterThan(20_000);
    const leaks = runs.flatMap(({ name, run }) => run.leaks(secrets).map((l) => ({ run: name, ...l })));
    expect(leaks).toEqual([]);
  });
});

/**
 * Whatever path the token comes from (a symlinked --token-file, DOCOPS_TOKEN, the daemon's tokenFile) and
 * however it gets quoted (a manifest that is a symlink to the token file, validation messages that quote
 * values, an API error body that echoes the Authorization header, an unparseable URL with credentials), it
 * reaches no output: CLI stdout/stderr, debug logs, the daemon's logs and HTTP answers.
 */
describe('the token never reaches any output, whatever path it came from', () => {
  /** Printed by a validation message; /readyz must never carry it, the daemon's log must (the operator's). */
  const MARKER = 'MARKER-manifest-content';
  /** A token with characters that change when URL-encoded, for the echoing API. */
  const ECHO_TOKEN = 'gb_api_R2x/9d+T41c8a7e3b6==05e1';
  /** A password in an API URL, never registered anywhere: only the URL handling can keep it out. */
  const URL_PASSWORD = 'p4ss-URL-credential-7781aa';
  const edgeRuns: {
    name: string;
    run: { stdout: string; stderr: string; leaks(secrets?: readonly string[]): unknown[] };
  }[] = [];
  let tokenLink: string;
  let trap: string;
  let valid: string;
  let echo: { url: string; requests: number; close(): Promise<void> };

  async function cli(name: string, argv: string[], env: Record<string, string>): Promise<CollectedRun> {
    const run = await runCliCollecting([...argv, ...DEBUG], env, [TOKEN]);
    edgeRuns.push({ name, run });
    return run;
  }

  beforeAll(async () => {
    const dir = tempDir('secret-paths');
    await mkdir(join(dir, 'secret'), { mode: 0o700 });
    const tokenFile = join(dir, 'secret', 'token');
    await writeFile(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    tokenLink = join(dir, 'token-link');
    await symlink(tokenFile, tokenLink);
    valid = join(dir, 'valid');
    await cp('config.example/manifests', valid, { recursive: true });
    // A manifests directory that quotes the token: a symlink to the token file, and values the validator quotes.
    trap = join(dir, 'trap');
    await cp('config.example/manifests', trap, { recursive: true });
    await symlink(tokenFile, join(trap, 'token.yaml'));
    await writeFile(
      join(trap, 'quoted.yaml'),
      [
        'apiVersion: docops/v1',
        'kind: Members',
        'metadata: { organization: org-demo }',
        'spec:',
        '  members:',
        `    - email: ${TOKEN}`,
        `      role: ${MARKER}`,
        `  ${TOKEN}: 1`,
        '',
      ].join('\n'),
    );
    echo = await startEchoingApi(ECHO_TOKEN);
  });
  afterAll(async () => {
    await echo.close();
  });

  it('validate and plan with a symlinked --token-file, and with DOCOPS_TOKEN, on manifests that quote the token', async () => {
    for (const [name, argv, env] of [
      ['validate --token-file (symlink)', ['validate', '-m', trap, '--token-file', tokenLink], {}],
      ['plan --token-file (symlink)', ['plan', '-m', trap, '--token-file', tokenLink, '--api-url', sandbox.url], {}],
      ['validate DOCOPS_TOKEN', ['validate', '-m', trap], { DOCOPS_TOKEN: TOKEN }],
      ['plan DOCOPS_TOKEN', ['plan', '-m', trap, '--api-url', sandbox.url], { DOCOPS_TOKEN: TOKEN }],
    ] as const) {
      const run = await cli(name, [...argv], { ...env });
      expect(run.code, name).toBe(1);
      // The messages are there, with the token's place redacted.
      expect(run.stderr, name).toContain('quoted.yaml:6:');
      expect(run.stderr, name).toContain(MARKER);
      expect(run.stderr, name).toContain('[redacted]');
    }
  });

  it('an API whose error body echoes the Authorization header (whole, URL-encoded, a fragment)', async () => {
    const run = await cli('echoing API', ['plan', '-m', valid, '--api-url', echo.url], { DOCOPS_TOKEN: ECHO_TOKEN });
    expect(run.code).toBe(1);
    expect(echo.requests).toBeGreaterThan(0);
    expect(run.stderr).toMatch(/failed with 401: .*\[redacted\]/);
    expect(run.leaks([ECHO_TOKEN])).toEqual([]);
  });

  it('an API URL with credentials, parseable or not, is never echoed with them', async () => {
    for (const url of [
      `http://docops:${URL_PASSWORD}@127.0.0.1:9/v1`,
      `http://docops:${URL_PASSWORD}@not a host/v1`,
      // Without a scheme that reads as one: nothing says which part is the password.
      `//docops:${URL_PASSWORD}@127.0.0.1:9/v1`,
      `http//docops:${URL_PASSWORD}@127.0.0.1:9/v1`,
    ]) {
      const run = await cli(`url ${url}`, ['plan', '-m', valid, '--api-url', url], { DOCOPS_TOKEN: TOKEN });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/API URL/);
      expect(run.leaks([URL_PASSWORD])).toEqual([]);
    }
  });

  it('the daemon with a symlinked tokenFile: logs, /readyz, /healthz, /metrics and POST /reconcile after an invalid manifest', async () => {
    const reconcileSecret = 'reconcile-SECRET-5f0c2e9a71';
    const d = await runDaemon(
      { manifests: trap, apiUrl: sandbox.url, tokenFile: tokenLink, reconcileSecret },
      async (url) => {
        const ready = await fetch(`${url}/readyz`);
        const readyText = await ready.text();
        expect(ready.status).toBe(503);
        const body = JSON.parse(readyText) as {
          manifests: { ok: boolean; problems: number; positions: string[] };
          reason: string;
        };
        expect(body.manifests.ok).toBe(false);
        expect(body.manifests.problems).toBeGreaterThanOrEqual(3);
        expect(body.manifests.positions).toContain('quoted.yaml:7:13');
        expect(body.reason).toMatch(/manifest load failed/);
        // Positions and counts only: nothing a manifest says, not even what is not secret.
        expect(readyText).not.toContain(MARKER);
        expect(readyText).not.toContain('must be');
        const waited = await fetch(`${url}/reconcile?wait=1`, {
          method: 'POST',
          headers: { authorization: `Bearer ${reconcileSecret}` },
        });
        const waitedText = await waited.text();
        expect(waited.status).toBe(422);
        expect(JSON.parse(waitedText)).toMatchObject({
          result: 'invalid_manifests',
          problems: body.manifests.problems,
        });
        expect(waitedText).not.toContain(MARKER);
        return [
          readyText,
          waitedText,
          await (await fetch(`${url}/healthz`)).text(),
          await (await fetch(`${url}/metrics`)).text(),
        ];
      },
    );
    // The operator's log has every message, redacted.
    expect(d.stderr).toContain(MARKER);
    expect(d.stderr).toContain('[redacted]');
    expect(d.leaks([TOKEN, reconcileSecret])).toEqual([]);
  });

  it('the daemon against an API that echoes the token: logs and /readyz', async () => {
    const dir = tempDir('echo-token');
    const tokenFile = join(dir, 'token');
    await writeFile(tokenFile, ECHO_TOKEN, { mode: 0o600 });
    const d = await runDaemon({ manifests: valid, apiUrl: echo.url, tokenFile }, async (url) => {
      const ready = await fetch(`${url}/readyz`);
      const text = await ready.text();
      expect(ready.status).toBe(503);
      expect(JSON.parse(text)).toMatchObject({ api: { ok: false, status: 401 }, manifests: { ok: true } });
      expect(text).not.toContain('invalid credentials');
      return [text, await (await fetch(`${url}/metrics`)).text()];
    });
    expect(d.stderr).toContain('invalid credentials');
    expect(d.leaks([ECHO_TOKEN])).toEqual([]);
  });

  it('no run printed the token, the echoed token or the URL password', () => {
    expect(edgeRuns.length).toBeGreaterThanOrEqual(9);
    const leaks = edgeRuns.flatMap(({ name, run }) =>
      (run.leaks([TOKEN, ECHO_TOKEN, URL_PASSWORD]) as object[]).map((l) => ({ run: name, ...l })),
    );
    expect(leaks).toEqual([]);
  });

  /**
   * `docops daemon -c FILE` in-process with a token file and debug JSON logs; `probe` gets the daemon's URL
   * once its first run is over and returns the HTTP answers it read (scanned with the logs).
   */
  async function runDaemon(
    settings: { manifests: string; apiUrl: string; tokenFile: string; reconcileSecret?: string },
    probe: (url: string) => Promise<string[]>,
  ): Promise<{ stderr: string; leaks(secrets: readonly string[]): unknown[] }> {
    const dir = tempDir('daemon-secrets');
    const config = join(dir, 'docops.yaml');
    await writeFile(
      config,
      [
        `manifests: ${settings.manifests}`,
        `apiUrl: ${settings.apiUrl}`,
        `tokenFile: ${settings.tokenFile}`,
        'listen: 127.0.0.1:0',
        'journalDir: ./journal',
        'retry: { initialMs: 600000, maxMs: 600000 }',
        ...(settings.reconcileSecret ? [`reconcileSecret: ${settings.reconcileSecret}`] : []),
        '',
      ].join('\n'),
    );
    const out = new OutputCollector([TOKEN]);
    const stop = new AbortController();
    let answers: string[] = [];
    let failure: unknown;
    const code = await daemonCommand(['-c', config, '--log-level', 'debug', '--log-format', 'json'], out.io({}), {
      processSignals: false,
      stopSignal: stop.signal,
      deps: { defaultMetrics: false },
      onStarted: (daemon) => {
        void (async () => {
          try {
            await daemon.firstRun;
            answers = await probe(daemon.url);
          } catch (err) {
            failure = err;
          } finally {
            stop.abort();
          }
        })();
      },
    });
    if (failure) throw failure;
    expect(code).toBe(0);
    expect(answers.length).toBeGreaterThan(0);
    const run = {
      stdout: answers.join('\n'),
      stderr: out.stderr,
      leaks: (secrets: readonly string[] = [TOKEN]) => [
        ...out.leaks(secrets),
        ...findLeaks(answers.join('\n'), secrets, 'http'),
      ],
    };
    edgeRuns.push({ name: `daemon ${settings.apiUrl}`, run });
    return run;
  }
});

/** An API that refuses every request with 401 and a message echoing the Authorization header three ways. */
async function startEchoingApi(token: string): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { requests: 0 };
  const server = createServer((req, res) => {
    state.requests++;
    const auth = req.headers.authorization ?? '';
    const message = `invalid credentials: got "${auth}" (token=${encodeURIComponent(token)}; starts with ${token.slice(0, 14)}…)`;
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 401, message } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
