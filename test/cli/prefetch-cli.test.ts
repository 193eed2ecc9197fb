/**
 * `plan` starts the organization-wide reads once the manifests are parsed, before they are validated
 * (src/core/prefetch.ts) — and a validation error still ends the command at once, whatever those reads do.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// An API that takes every request and never answers.
const held: ServerResponse[] = [];
const seen: string[] = [];
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  seen.push(`${req.method} ${req.url}`);
  held.push(res);
});
let url = '';
let dir = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  dir = await mkdtemp(join(tmpdir(), 'docops-prefetch-'));
  await writeFile(join(dir, 'members.yaml'), 'apiVersion: docops/v1\nkind: Members\nmetadata:\n  organization: org-1\nspec:\n  members:\n    - email: a@example.com\n      role: admin\n');
  // A schema error: found only when the documents are validated, after they were all parsed.
  await writeFile(join(dir, 'teams.yaml'), 'apiVersion: docops/v1\nkind: Team\nmetadata:\n  organization: org-1\nspec:\n  title: Docs\n  colour: blue\n');
});

afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe('plan with reads started before validation', () => {
  it('reports the validation error and exits without waiting for the reads it started', async () => {
    const r = await runCli(['plan', '-m', dir, '--api-url', url, '--log-level', 'silent'], { DOCOPS_TOKEN: 'test-token' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/teams\.yaml:7:3: .*unknown field "colour"/);
    // Only the organization-wide lists may have gone out (whether they did is up to the event loop): the plan
    // itself never started. Waiting for them would never end: this API answers nothing.
    expect(seen.every((s) => /^GET \/v1\/orgs\/org-1\/(members|teams)\b/.test(s))).toBe(true);
  }, 20_000);
});
