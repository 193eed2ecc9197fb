import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '@docops/sandbox';
import { runCli } from './run-cli.js';

// A proxy in front of the sandbox that serves reads and refuses every write with a 400 (not retried), so
// apply fails deterministically — through the real --api-url / DOCOPS_TOKEN path.
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let proxy: Server;
let proxyUrl: string;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'demo', token: 'test-secret-token' });
  proxy = createServer((req, res) => {
    if (req.method !== 'GET') {
      req.resume();
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 400, message: 'writes refused by the test proxy' } }));
      return;
    }
    fetch(`${sandbox.origin}${req.url ?? '/'}`, { headers: { authorization: req.headers.authorization ?? '' } }).then(
      async (r) => {
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
        res.end(await r.text());
      },
      (err: Error) => {
        res.writeHead(502);
        res.end(err.message);
      },
    );
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => proxy.close((e) => (e ? reject(e) : resolve())));
  await sandbox.close();
});

describe('apply with failing steps', () => {
  it('prints the summary, lists failures, exits 1, and never shows the token', async () => {
    const r = await runCli(
      ['apply', '-m', 'config.example/manifests', '--api-url', proxyUrl, '--log-level', 'silent'],
      {
        DOCOPS_TOKEN: 'test-secret-token',
      },
    );
    expect(r.code).toBe(1);
    const summary = /^Apply finished with errors: (\d+) applied, (\d+) failed, (\d+) skipped\.$/m.exec(r.stdout);
    expect(summary).not.toBeNull();
    expect(Number(summary![1])).toBe(0);
    expect(Number(summary![2])).toBeGreaterThan(0);
    expect(r.stdout).toContain('writes refused by the test proxy');
    expect(r.stderr).toMatch(/^Error: \d+ step\(s\) failed, \d+ skipped/m);
    expect(r.stdout + r.stderr).not.toContain('test-secret-token');
  });

  it('plan reads through the same path and exits 2 with --detailed-exitcode', async () => {
    const r = await runCli(
      ['plan', '-m', 'config.example/manifests', '--api-url', proxyUrl, '--log-level', 'silent', '--detailed-exitcode'],
      {
        DOCOPS_TOKEN: 'test-secret-token',
      },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
  });

  it('a wrong token is an API error, exit 1', async () => {
    const r = await runCli(['plan', '-m', 'config.example/manifests', '--api-url', proxyUrl, '--log-level', 'silent'], {
      DOCOPS_TOKEN: 'wrong-token',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error: GET \S+ failed with 401/m);
    // Where to look next (issue 34 §9).
    expect(r.stderr).toContain('the API refused the token: `docops whoami` says whose it is and what it may do');
  });
});
