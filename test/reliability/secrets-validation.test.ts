/**
 * A secret is a secret before it is known to be valid. Values of the fields the schemas mark `x-secret` (a
 * webhook or Slack URL, a signing key, the reconcile secret, an API URL's credentials, a SAML certificate) are
 * registered before validation and never quoted by a validation message, so no message of any path shows them:
 * daemon config errors (schema, `${VAR}`, environment overrides, `--config`), manifest errors, plans in every
 * format, debug logs, an API error that echoes a request, the daemon's logs, status page, JSON and
 * notifications, journals. A certificate is kept only where it must be sent again: a saved plan's request body,
 * a delete journal (undo), undo's files.
 *
 * Each run starts with an empty secret registry, so a run is redacted by what it registered itself.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonCommand } from '../../src/cli/commands/daemon.js';
import { samlProviders } from '../../packages/sandbox/src/sso-records.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { clearSecretsForTests } from '../../src/secrets.js';
import { startReceiver, type Receiver } from '../daemon/notify/receiver.js';
import { findLeaks, OutputCollector, runCliCollecting, scanPath } from '../helpers/output-collector.js';
import { tempDir } from '../helpers/pipeline.js';

/** A Slack URL without its scheme: it fails the config schema. */
const SLACK = 'hooks.slack.com/services/T0DOCOPS/B0SECRET/f3Kq9ZLx2wVb7RtY';
/** A secret YAML reads as a number once interpolated into a plain scalar. */
const DIGITS = '73920184657392';
const HMAC = 'hmac-SECRET-6c1f0e93a4b2d758';
const SHORT_HMAC = 'hmac-SHORT-9f';
const RECONCILE = 'reconcile-SECRET-0a9b8c7d6e';
const SHORT_RECONCILE = 'rec-SHORT-42ab';
const API_PASSWORD = 'api-PASSWORD-71c3e9f2';
const HOOK_PATH = 'T0DOCOPS-hook-SECRET-55e1a9c3';
/** An organization's token written where its variable's name belongs: it fails the name's pattern … */
const FLEET_TOKEN = 'gb_api_F1eet/9d+T41c8a7e3b6==77a1';
/** … and one that even reads as a name, naming a variable that is not set. */
const NAMELIKE_TOKEN = 'gb_api_F1eetNameLike7e3b605e1Zq';
/** A certificate no other test uses: 18 lines of base64 of a deterministic byte sequence (a DER SEQUENCE). */
const CERT = pem(Buffer.from(Array.from({ length: 900 }, (_, i) => (i === 0 ? 0x30 : (i * 7919 + 104729) % 251))));
/** What the daemon and the CLI runs must never show anywhere. */
const CREDENTIALS = [
  SLACK,
  `https://${SLACK}`,
  DIGITS,
  HMAC,
  SHORT_HMAC,
  RECONCILE,
  SHORT_RECONCILE,
  API_PASSWORD,
  HOOK_PATH,
  FLEET_TOKEN,
  NAMELIKE_TOKEN,
];
const SECRETS = [...CREDENTIALS, CERT];
const DEBUG = ['--log-level', 'debug', '--log-format', 'json'];

function pem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g)!;
  return ['-----BEGIN CERTIFICATE-----', ...lines, '-----END CERTIFICATE-----'].join('\n');
}

interface Run {
  name: string;
  stdout: string;
  stderr: string;
  /** Files and directories the run wrote, scanned with its output. */
  paths: string[];
}
const runs: Run[] = [];

let work: string;
let sandbox: RunningSandbox;
let proxy: { url: string; echoed: number; close(): Promise<void> };

/** docops in-process with an empty secret registry; output kept for the final scan. */
async function docops(name: string, argv: string[], env: Record<string, string> = {}, paths: string[] = []) {
  clearSecretsForTests();
  const run = await runCliCollecting([...argv, ...DEBUG], env, SECRETS);
  runs.push({ name, stdout: run.stdout, stderr: run.stderr, paths });
  return run;
}

const SAML = (spec: string[], label = 'Okta'): string =>
  [
    'apiVersion: docops/v1',
    'kind: SamlProvider',
    'metadata: { organization: org-demo }',
    'spec:',
    `  label: ${label}`,
    '  entityID: http://www.okta.com/exk1',
    ...spec.map((l) => `  ${l}`),
    '',
  ].join('\n');

async function manifests(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(work, name);
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(join(dir, rel, '..'), { recursive: true });
    await writeFile(join(dir, rel), text);
  }
  return dir;
}

beforeAll(async () => {
  work = tempDir('secrets-validation');
  await mkdir(join(work, 'm'));
  await writeFile(
    join(work, 'm', 'team.yaml'),
    'apiVersion: docops/v1\nkind: Team\nmetadata: { organization: org-demo }\nspec: { title: Platform }\n',
  );
  sandbox = await startSandbox({ seed: 'demo' });
  proxy = await startEchoingSamlApi(sandbox);
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});

describe('daemon config: secrets of fields that fail validation are never shown', () => {
  const cases: { name: string; lines: string[]; env: Record<string, string>; says: RegExp }[] = [
    {
      name: 'a Slack URL from ${VAR} without https',
      lines: ['notify:', '  - { type: slack, url: "${SLACK_URL}" }'],
      env: { SLACK_URL: SLACK },
      says: /config-0\.yaml:4:\d+: notify\[0\]\.url: must match the pattern \^https\?:\/\/ \(got a value not shown: the field holds a secret\)/,
    },
    {
      name: 'a URL YAML reads as a number',
      lines: ['notify:', '  - type: slack', '    url: ${SLACK_URL}'],
      env: { SLACK_URL: DIGITS },
      says: /notify\[0\]\.url: must be string \(got integer, not shown: the field holds a secret\)/,
    },
    {
      name: 'the URL aliased into a field that is not secret',
      lines: ['notify:', '  - type: slack', '    url: &u "https://${SLACK_URL}"', '    events: [*u]'],
      env: { SLACK_URL: SLACK },
      says: /notify\[0\]\.events\[0\]: must be one of drift, .* \(got "\[redacted\]/,
    },
    {
      name: 'notify written as the URL itself',
      lines: ['notify: "https://${SLACK_URL}"'],
      env: { SLACK_URL: SLACK },
      says: /notify: must be array \(got string, not shown: the field holds a secret\)/,
    },
    {
      name: 'a target written as the URL itself',
      lines: ['notify:', '  - "https://${SLACK_URL}"'],
      env: { SLACK_URL: SLACK },
      says: /notify\[0\]: must be object \(got string, not shown: the field holds a secret\)/,
    },
    {
      name: 'a URL with a bad reference, and one to an unset variable',
      lines: [
        'notify:',
        '  - { type: slack, url: "https://${SLACK_URL}${MISSING}" }',
        '  - { type: slack, url: "https://${SLACK_URL:-${NOT A NAME}}" }',
      ],
      env: { SLACK_URL: SLACK },
      says: /environment variable "MISSING" is not set[\s\S]*invalid variable reference/,
    },
    {
      name: 'a signing key on a Slack target, and one too short',
      lines: [
        'notify:',
        '  - { type: slack, url: "https://${SLACK_URL}", secretEnv: HOOK_KEY }',
        '  - { type: webhook, url: "https://${SLACK_URL}", secretEnv: SHORT_KEY }',
      ],
      env: { SLACK_URL: SLACK, HOOK_KEY: HMAC, SHORT_KEY: SHORT_HMAC },
      says: /notify\[0\]\.secretEnv: only a webhook target signs[\s\S]*notify\[1\]\.secretEnv: the variable it names must hold the signing secret/,
    },
    {
      name: 'a reconcile secret too short',
      lines: ['reconcileSecret: "${REC}"'],
      env: { REC: SHORT_RECONCILE },
      says: /reconcileSecret: must be at least 16 characters \(got 14\)/,
    },
    {
      name: 'a reconcile secret YAML reads as a number',
      lines: ['reconcileSecret: ${REC}'],
      env: { REC: DIGITS },
      says: /reconcileSecret: must be string \(got integer, not shown: the field holds a secret\)/,
    },
    {
      name: 'DOCOPS_RECONCILE_SECRET too short',
      lines: [],
      env: { DOCOPS_RECONCILE_SECRET: SHORT_RECONCILE },
      says: /DOCOPS_RECONCILE_SECRET: reconcileSecret: must be at least 16 characters/,
    },
    {
      name: 'an API URL with credentials that is not http, in the file and in DOCOPS_API_URL',
      lines: ['apiUrl: "ftp://docops:${API_PASSWORD}@api.test/v1"'],
      env: { API_PASSWORD, DOCOPS_API_URL: `ftp://docops:${API_PASSWORD}@api.test/v1` },
      says: /DOCOPS_API_URL=ftp:\/\/\[redacted\]@api\.test\/v1: apiUrl: must match the pattern \^https\?:\/\/ \(got "ftp:\/\/\[redacted\]@api\.test\/v1"\)/,
    },
  ];

  it.each(cases)(
    '$name: `docops daemon` exits 1 naming the field, not the value',
    async ({ name, lines, env, says }) => {
      const config = join(work, `config-${cases.findIndex((c) => c.name === name)}.yaml`);
      await writeFile(config, ['manifests: ./m', 'listen: 127.0.0.1:0', ...lines, ''].join('\n'));
      const run = await docops(`daemon: ${name}`, ['daemon', '-c', config], env);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toMatch(says);
      expect(run.leaks()).toEqual([]);
    },
  );

  it('organizations: a token written as tokenEnv is never shown, whatever it looks like', async () => {
    await mkdir(join(work, 'org-a'), { recursive: true });
    const config = join(work, 'config-fleet.yaml');
    const fleet = (tokenEnv: string): string =>
      [
        'listen: 127.0.0.1:0',
        'organizations:',
        `  - { id: org-a, manifests: ./org-a, tokenEnv: "${tokenEnv}" }`,
        '',
      ].join('\n');
    await writeFile(config, fleet(FLEET_TOKEN));
    const refused = await docops('daemon: tokenEnv holding the token', ['daemon', '-c', config]);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(
      /config-fleet\.yaml:3:\d+: organizations\[0\]\.tokenEnv: must match the pattern .* \(got a value not shown: the field holds a secret\)/,
    );
    expect(refused.leaks()).toEqual([]);
    // A token of letters, digits and _ passes the pattern: the variable it "names" is not set.
    await writeFile(config, fleet(NAMELIKE_TOKEN));
    for (const argv of [
      ['daemon', '-c', config],
      ['plan', '--config', config, '--api-url', sandbox.url],
    ]) {
      const unset = await docops(`${argv[0]}: tokenEnv naming an unset variable`, argv);
      expect(unset.code, unset.stderr).toBe(1);
      expect(unset.stderr).toMatch(
        /organizations\[0\]\.tokenEnv: the variable it names is not set \(organization org-a\)/,
      );
      expect(unset.leaks()).toEqual([]);
    }
  });

  it('apply --config reads the same file with the same care', async () => {
    const config = join(work, 'config-apply.yaml');
    await writeFile(config, ['notify:', '  - { type: slack, url: "${SLACK_URL}" }', ''].join('\n'));
    const run = await docops(
      'apply --config',
      ['apply', '-m', join(work, 'm'), '--config', config, '--api-url', sandbox.url],
      { SLACK_URL: SLACK, DOCOPS_TOKEN: sandbox.token },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/notify\[0\]\.url: must match the pattern/);
    expect(run.leaks()).toEqual([]);
  });
});

describe('manifests: a certificate that fails validation is never shown', () => {
  const ALLOW = ['--allow-env', 'IDP_CERT'];

  it('a certificate YAML reads as a number, one aliased into a field that is not secret, one written as the spec', async () => {
    const dir = await manifests('bad-cert', {
      'number.yaml': SAML(['certificate: ${IDP_CERT}']),
      'alias.yaml': SAML(['certificate: &c "${IDP_CERT_PEM}"', 'defaultRole: *c'], 'Azure'),
      'spec.yaml':
        'apiVersion: docops/v1\nkind: SamlProvider\nmetadata: { organization: org-demo }\nspec: "${IDP_CERT_PEM}"\n',
    });
    for (const cmd of ['validate', 'plan']) {
      const run = await docops(
        `${cmd} bad certificates`,
        [cmd, '-m', dir, '--allow-env', 'IDP_CERT,IDP_CERT_PEM', ...(cmd === 'plan' ? ['--api-url', sandbox.url] : [])],
        {
          IDP_CERT: DIGITS,
          IDP_CERT_PEM: CERT,
          DOCOPS_TOKEN: sandbox.token,
        },
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /number\.yaml:\d+:\d+: spec\.certificate: must be string \(got integer, not shown: the field holds a secret\)/,
      );
      expect(run.stderr).toMatch(/alias\.yaml:\d+:\d+: spec\.defaultRole: must be one of .* \(got "\[redacted\]/);
      expect(run.stderr).toMatch(
        /spec\.yaml:4:7: spec: must be object \(got string, not shown: the field holds a secret\)/,
      );
      expect(run.leaks()).toEqual([]);
    }
  });

  it('a certificate file over the limit', async () => {
    const dir = await manifests('big-cert', {
      'okta.yaml': SAML(['certificate: { file: certs/okta.pem }']),
      'certs/okta.pem': `${CERT}\n`.repeat(9),
    });
    const run = await docops('validate big certificate file', ['validate', '-m', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/certificate file "certs\/okta\.pem" holds \d+ characters; the API takes at most 10000/);
    expect(run.leaks()).toEqual([]);
  });

  it('plans in every format show a fingerprint; the saved plan holds the certificate only in the request that sends it, and applies', async () => {
    const dir = await manifests('cert', { 'okta.yaml': SAML(['certificate: "${IDP_CERT}"']) });
    const env = { IDP_CERT: CERT, DOCOPS_TOKEN: sandbox.token };
    for (const format of ['text', 'markdown', 'json']) {
      const run = await docops(
        `plan ${format}`,
        ['plan', '-m', dir, ...ALLOW, '--api-url', sandbox.url, '--format', format],
        env,
      );
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/sha256:[0-9a-f]{64}/);
      expect(run.leaks()).toEqual([]);
    }
    const planFile = join(work, 'cert-plan.json');
    const saved = await docops(
      'plan --out',
      ['plan', '-m', dir, ...ALLOW, '--api-url', sandbox.url, '--out', planFile],
      env,
    );
    expect(saved.code).toBe(0);
    const text = await readFile(planFile, 'utf8');
    // Once: the POST body apply sends; before/after and the printed body show the fingerprint.
    expect(text.split(JSON.stringify(CERT).slice(1, -1)).length - 1).toBe(1);
    expect(findLeaks(text, CREDENTIALS, planFile)).toEqual([]);
    const apply = await docops(
      'apply --plan',
      ['apply', '-m', dir, ...ALLOW, '--api-url', sandbox.url, '--plan', planFile],
      env,
    );
    expect(apply.code, apply.stderr).toBe(0);
    expect(
      samlProviders(sandbox.store)
        .all()
        .find((p) => p.label === 'Okta')?.certificate,
    ).toBe(CERT);
  });

  it('an API error that echoes the certificate it was sent', async () => {
    const dir = await manifests('cert-echo', { 'azure.yaml': SAML(['certificate: "${IDP_CERT}"'], 'Azure') });
    const run = await docops('apply, API echoes', ['apply', '-m', dir, ...ALLOW, '--api-url', proxy.url], {
      IDP_CERT: CERT,
      DOCOPS_TOKEN: sandbox.token,
    });
    expect(run.code).toBe(1);
    expect(proxy.echoed).toBeGreaterThan(0);
    expect(run.stderr + run.stdout).toMatch(/400: invalid certificate: \[redacted\]/);
    expect(run.leaks()).toEqual([]);
  });

  it('a pruned provider: the journal keeps its certificate for undo, and undo writes it back', async () => {
    // Okta (created above) is renamed without a pinned id: a create and a prune of the old one.
    const dir = await manifests('cert-rename', { 'okta.yaml': SAML(['certificate: "${IDP_CERT}"'], 'Okta SSO') });
    const journalDir = join(work, 'journal');
    const env = { IDP_CERT: CERT, DOCOPS_TOKEN: sandbox.token };
    const apply = await docops(
      'apply --prune SamlProvider',
      [
        'apply',
        '-m',
        dir,
        ...ALLOW,
        '--api-url',
        sandbox.url,
        '--prune',
        'SamlProvider',
        '--force',
        '--journal-dir',
        journalDir,
      ],
      env,
    );
    expect(apply.code, apply.stderr).toBe(0);
    const [journal] = await readdir(journalDir);
    const text = await readFile(join(journalDir, journal!), 'utf8');
    expect(text).toContain(JSON.stringify(CERT).slice(1, -1));
    expect(findLeaks(text, CREDENTIALS, 'journal')).toEqual([]);
    const out = join(work, 'undo');
    const undo = await docops('undo -o', ['undo', join(journalDir, journal!), '-o', out]);
    expect(undo.code, undo.stderr).toBe(0);
    // Undo writes the certificate into the recreated provider's document.
    const written = await Promise.all(
      (await readdir(out, { recursive: true, withFileTypes: true }))
        .filter((f) => f.isFile())
        .map((f) => readFile(join(f.parentPath, f.name), 'utf8')),
    );
    expect(written.join('\n')).toContain(CERT.split('\n')[3]);
    expect(undo.leaks()).toEqual([]);
    expect(scanPath(out, CREDENTIALS)).toEqual([]);
  });
});

describe('the daemon: logs, status page, JSON, notifications and journal', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('an invalid manifest quoting the certificate, then an apply whose API echoes it', async () => {
    clearSecretsForTests();
    const dir = await manifests('daemon', {
      'azure.yaml': SAML(['certificate: &c "${IDP_CERT}"', 'defaultRole: *c'], 'Azure'),
    });
    const tokenFile = join(work, 'token');
    await writeFile(tokenFile, sandbox.token);
    const config = join(work, 'daemon.yaml');
    await writeFile(
      config,
      [
        `manifests: ${dir}`,
        `apiUrl: ${proxy.url}`,
        `tokenFile: ${tokenFile}`,
        'listen: 127.0.0.1:0',
        `journalDir: ${join(work, 'daemon-journal')}`,
        'retry: { initialMs: 600000, maxMs: 600000 }',
        'allowEnv: [IDP_CERT]',
        'reconcileSecret: ${REC}',
        'notify:',
        '  - { type: webhook, url: "${HOOK_URL}", secretEnv: HOOK_KEY }',
        '',
      ].join('\n'),
    );
    const env = { IDP_CERT: CERT, REC: RECONCILE, HOOK_URL: `${receiver.url}/${HOOK_PATH}`, HOOK_KEY: HMAC };
    const out = new OutputCollector(SECRETS);
    const answers: string[] = [];
    const stop = new AbortController();
    let failure: unknown;
    const probe = async (url: string): Promise<void> => {
      for (const path of ['/', '/api/status', '/api/runs/1', '/readyz', '/metrics'])
        answers.push(await (await fetch(url + path)).text());
      expect(answers[1]).toMatch(/spec\.defaultRole: must be one of .*\[redacted\]/);
      await writeFile(join(dir, 'azure.yaml'), SAML(['certificate: "${IDP_CERT}"'], 'Azure'));
      const waited = await fetch(`${url}/reconcile?wait=1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${RECONCILE}` },
      });
      answers.push(await waited.text());
      expect(JSON.parse(answers.at(-1)!)).toMatchObject({ result: 'failed' });
      for (const path of ['/', '/api/status', '/api/runs/2']) answers.push(await (await fetch(url + path)).text());
      expect(answers.at(-1)).toMatch(/invalid certificate: \[redacted\]/);
      await receiver.count(2);
    };
    const code = await daemonCommand(['-c', config, '--log-level', 'debug', '--log-format', 'json'], out.io(env), {
      processSignals: false,
      stopSignal: stop.signal,
      deps: { defaultMetrics: false },
      onStarted: (daemon) => {
        void (async () => {
          try {
            await daemon.firstRun;
            await probe(daemon.url);
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
    expect(proxy.echoed).toBeGreaterThan(1);
    const notifications = receiver.received.map((r) => `${JSON.stringify(r.headers)}\n${r.body}`).join('\n');
    expect(receiver.received.map((r) => r.json.event)).toEqual(['manifests_invalid', 'apply_failed']);
    expect(out.stderr).toContain('invalid certificate: [redacted]');
    runs.push({
      name: 'daemon',
      stdout: [...answers, notifications].join('\n'),
      stderr: out.stderr,
      paths: [join(work, 'daemon-journal')],
    });
  });
});

describe('the scan', () => {
  it('no run printed or wrote any of the secrets (certificates only where they are sent again)', () => {
    expect(runs.length).toBeGreaterThanOrEqual(20);
    const leaks = runs.flatMap((r) => [
      ...findLeaks(r.stdout, SECRETS, `${r.name}: stdout`),
      ...findLeaks(r.stderr, SECRETS, `${r.name}: stderr`),
      ...r.paths.flatMap((p) => scanPath(p, SECRETS)),
    ]);
    expect(leaks).toEqual([]);
    // The scan read real output: debug logs and messages with the redacted places.
    const all = runs.map((r) => r.stdout + r.stderr).join('\n');
    expect(all).toContain('"level":20');
    expect(all.split('[redacted]').length).toBeGreaterThan(10);
  });
});

/**
 * The sandbox behind a proxy that refuses every SAML provider write with a 400 quoting the certificate it was
 * sent, as an API validating it might; every other request goes through.
 */
async function startEchoingSamlApi(
  target: RunningSandbox,
): Promise<{ url: string; echoed: number; close(): Promise<void> }> {
  const origin = new URL(target.url).origin;
  const state = { echoed: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.method !== 'GET' && /\/saml(\/|$)/.test(req.url ?? '')) {
        state.echoed++;
        const sent = (JSON.parse(body || '{}') as { certificate?: string }).certificate ?? '';
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 400, message: `invalid certificate: ${sent}` } }));
        return;
      }
      const headers: Record<string, string> = {};
      for (const h of ['authorization', 'content-type'])
        if (typeof req.headers[h] === 'string') headers[h] = req.headers[h];
      void fetch(origin + req.url, { method: req.method, headers, ...(body !== '' ? { body } : {}) }).then(
        async (r) => {
          res
            .writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' })
            .end(await r.text());
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get echoed() {
      return state.echoed;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
