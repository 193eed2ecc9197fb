/**
 * A site that cannot be completed: its POST succeeds, the PATCH of what POST cannot set is refused, so its
 * sections are never created. The apply result (text, markdown, JSON, the error) and the daemon's log say so in
 * a sentence — what was created, what failed, what was left behind — not only as a step id in a failure list.
 */
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/model/api-client.js';
import { ApiError } from '../../src/model/errors.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { runCli } from '../cli/run-cli.js';
import { startTestDaemon, type TestDaemon } from '../daemon/helpers.js';

const SITE_PATCH = /^\/v1\/orgs\/org-demo\/sites\/[^/]+$/;
const REFUSAL = 'basename "help" is already used by another site';

/** Manifests of the example: spaces, and a site with PATCH-only fields and three sections. */
function manifestsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docops-half-'));
  for (const f of ['site.yaml', 'spaces.yaml']) cpSync(join('config.example/manifests', f), join(dir, f));
  return dir;
}

let sandbox: RunningSandbox | undefined;
let proxy: Server | undefined;
let daemon: TestDaemon | undefined;
afterEach(async () => {
  if (proxy?.listening) await new Promise<void>((resolve) => proxy!.close(() => resolve()));
  await sandbox?.close();
  await daemon?.stop();
  sandbox = proxy = daemon = undefined;
});

/** A proxy in front of a fresh demo sandbox that refuses the PATCH of a site itself with a 400. */
async function refusingApi(): Promise<string> {
  const sb = (sandbox = await startSandbox({ seed: 'demo', token: 'half-token' }));
  const server = (proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'PATCH' && SITE_PATCH.test(req.url ?? '')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 400, message: REFUSAL } }));
        return;
      }
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const headers: Record<string, string> = {
        authorization: req.headers.authorization ?? '',
        ...(body ? { 'content-type': 'application/json' } : {}),
      };
      fetch(`${sb.origin}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, ...(body ? { body } : {}) }).then(
        async (r) => {
          const text = await r.text();
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(text);
        },
        () => res.destroy(),
      );
    });
  }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const SENTENCE = new RegExp(
  `Site Acme Help Center was created \\(id (site-[\\w-]+)\\), but its PATCH /orgs/org-demo/sites/\\1 failed with 400: ${REFUSAL}; ` +
    'left behind: the Site without basename, adaptiveContent, agentsContext set; not done because of it: [^.]*3 SiteSection create \\(not attempted\\)[^.]*\\. ' +
    'The next plan completes it, or you can delete it\\.',
);

describe('a create whose follow-up fails', () => {
  it.each(['text', 'markdown'] as const)('is reported with what was left behind (%s)', async (format) => {
    const apiUrl = await refusingApi();
    const r = await runCli(
      ['apply', '-m', manifestsDir(), '--api-url', apiUrl, '--log-level', 'silent', '--format', format],
      { DOCOPS_TOKEN: 'half-token' },
    );
    expect(r.code).toBe(1);
    const unescaped = format === 'markdown' ? r.stdout.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1') : r.stdout;
    expect(unescaped).toMatch(format === 'text' ? /^Left behind:$/m : /^\*\*Left behind\*\*$/m);
    expect(unescaped).toMatch(SENTENCE);
    expect(r.stderr).toMatch(/^left behind:$/m);
    expect(r.stderr).toMatch(SENTENCE);
    // The failed step names where the manifest writes what the API refused (issue 34).
    expect(unescaped).toMatch(
      /Site\/org-demo\/Acme Help Center#create: [^ ]*\/site\.yaml:\d+:\d+: PATCH \/orgs\/org-demo\/sites\/[^ ]+ failed with 400/,
    );
  });

  it('is reported with what was left behind (JSON)', async () => {
    const apiUrl = await refusingApi();
    const r = await runCli(
      ['apply', '-m', manifestsDir(), '--api-url', apiUrl, '--log-level', 'silent', '--format', 'json'],
      { DOCOPS_TOKEN: 'half-token' },
    );
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      result: {
        incomplete: {
          stepId: string;
          kind: string;
          key: string;
          id: string;
          notSet: string[];
          summary: string;
          failedRequest: { request: string };
        }[];
      };
    };
    const [site] = doc.result.incomplete.filter((x) => x.kind === 'Site');
    expect(site).toMatchObject({
      stepId: 'Site/org-demo/Acme Help Center#create',
      key: 'Acme Help Center',
      notSet: ['basename', 'adaptiveContent', 'agentsContext'],
    });
    expect(site!.failedRequest.request).toBe(`PATCH /orgs/org-demo/sites/${site!.id}`);
    expect(site!.summary).toMatch(SENTENCE);
    // The site really exists, with its default settings.
    expect(JSON.stringify(sandbox!.store.snapshot())).toContain(`"${site!.id}"`);
  });

  it('the daemon logs the same sentence', async () => {
    const refuse = (client: ApiClient): ApiClient => ({
      ...client,
      request: async (method, path, options) => {
        if (method === 'PATCH' && SITE_PATCH.test(`/v1${path}`))
          throw new ApiError(method, path, 400, REFUSAL, { effect: 'none' });
        return client.request(method, path, options);
      },
    });
    const files = Object.fromEntries(
      ['site.yaml', 'spaces.yaml'].map((f) => [f, readFileSync(join('config.example/manifests', f), 'utf8')]),
    );
    daemon = await startTestDaemon({
      files,
      deps: { createClient: async (o) => refuse(createClient({ ...o, retry: { maxRetries: 0 } })) },
    });
    const lines = daemon.logs.filter(
      (l) => typeof l['msg'] === 'string' && (l['msg'] as string).startsWith('left behind: '),
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatchObject({
      level: 50,
      step: 'Site/org-demo/Acme Help Center#create',
      kind: 'Site',
      key: 'Acme Help Center',
    });
    expect(lines[0]!['msg']).toMatch(SENTENCE);
    // The failed step says its sentence at error level; its stack only at debug (issue 34).
    const failed = daemon.logs.filter((l) => l['msg'] === 'step failed');
    expect(failed.length).toBeGreaterThan(0);
    for (const l of failed) {
      expect(l).toMatchObject({
        level: 50,
        errorType: 'ApiError',
        source: { file: expect.stringMatching(/site\.yaml$/) },
      });
      expect(String(l['error'])).toContain(REFUSAL);
      expect(JSON.stringify(l)).not.toContain('"stack"');
    }
    expect(daemon.logs.some((l) => l['msg'] === 'step failed (stack)' && l['level'] === 20)).toBe(true);
  });
});
