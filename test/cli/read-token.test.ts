/**
 * The pull-request setup docs/pr-checks.md recommends, end to end against a sandbox with both tokens: `plan` with
 * the read-only token, `apply` only with the write token. A read-only apply fails on its writes with a clear 403
 * (never retried) and changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/model/errors.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { runCli } from './run-cli.js';

const ADMIN = 'admin-secret-token';
const READ = 'read-secret-token';
const MANIFESTS = 'config.example/manifests';

let sb: RunningSandbox;
let dir: string;

beforeEach(async () => {
  sb = await startSandbox({ token: ADMIN, readToken: READ });
  dir = mkdtempSync(join(tmpdir(), 'docops-read-token-cli-'));
});

afterEach(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (command: 'plan' | 'apply', token: string, ...extra: string[]) =>
  runCli(
    [
      command,
      '-m',
      MANIFESTS,
      '--api-url',
      sb.url,
      '--log-level',
      'silent',
      ...(command === 'apply' ? ['--journal-dir', join(dir, 'journal')] : []),
      ...extra,
    ],
    {
      DOCOPS_TOKEN: token,
    },
  );

/** The sandbox's state, without the empty tables a read creates lazily (they hold nothing). */
function state(): unknown {
  const s = sb.store.snapshot();
  return { ...s, tables: Object.fromEntries(Object.entries(s.tables).filter(([, rows]) => rows.length > 0)) };
}

/** The write requests the sandbox saw since the last resetStats. */
const writes = () => sb.stats().requests.filter((r) => r.method !== 'GET');

describe('plan with the read-only token, apply with the write token', () => {
  it("plan with the read token succeeds, sends only GETs, and equals the admin token's plan", async () => {
    sb.resetStats();
    const read = await run('plan', READ, '--format', 'json');
    expect(read.stderr).toBe('');
    expect(read.code).toBe(EXIT.ok);
    expect(writes()).toEqual([]);
    expect(sb.stats().total).toBeGreaterThan(0);
    const admin = await run('plan', ADMIN, '--format', 'json');
    expect(admin.code).toBe(EXIT.ok);
    // The same plan; only who-changed-it differs: the read token may not read the audit events (admins only).
    const { attribution: readAttribution, ...readPlan } = JSON.parse(read.stdout) as {
      attribution: { changes: unknown[]; unavailable?: string };
    };
    const { attribution: adminAttribution, ...adminPlan } = JSON.parse(admin.stdout) as {
      attribution: { changes: unknown[]; unavailable?: string };
    };
    expect(readPlan).toEqual(adminPlan);
    expect(readAttribution).toEqual({ changes: [], unavailable: expect.stringMatching(/HTTP 403/) });
    expect(adminAttribution.unavailable).toBeUndefined();
    expect((JSON.parse(read.stdout) as { steps: unknown[] }).steps.length).toBeGreaterThan(0);
  });

  it('apply with the read token: one refused write per kind, the scope it needs named, each refusal said once; nothing changed', async () => {
    const before = state();
    sb.resetStats();
    const r = await run('apply', READ);
    expect(r.code).toBe(EXIT.error);
    const sent = writes();
    expect(sent.length).toBeGreaterThan(0);
    // Every write was refused, each sent exactly once (a 403 is never retried), and after a kind's first refusal
    // no other write of that kind was sent.
    expect(sent.every((w) => w.status === 403)).toBe(true);
    expect(new Set(sent.map((w) => `${w.method} ${w.path}`)).size).toBe(sent.length);
    const json = await run('plan', READ, '--format', 'json');
    const kinds = new Set(
      (JSON.parse(json.stdout) as { steps: { kind: string; dependsOn: string[] }[] }).steps
        .filter((s) => s.dependsOn.length === 0)
        .map((s) => s.kind),
    );
    expect(sent.length).toBe(kinds.size);
    expect(state()).toEqual(before);
    // The report on stdout says why, once per refused step, naming the scope; the other steps of a kind are not attempted.
    const first = sent[0]!;
    const route = first.path.replace(/^\/v1/, '');
    expect(r.stdout).toMatch(
      new RegExp(
        `✗ \\S+#\\S+: \\S+\\.yaml:\\d+:\\d+: ${first.method} ${route.replace(/[/.]/g, '\\$&')} failed with 403: .*read-only.*it needs the scope [a-z:]+.*apply usually needs a token with admin rights`,
        'm',
      ),
    );
    expect(r.stdout).toMatch(
      /○ Team\/org-demo\/Writers#members \(not attempted: the token may not write Team \(PUT \/orgs\/org-demo\/teams was refused with 403; it needs the scope organization:members:write\)\)/,
    );
    for (const w of sent)
      expect(
        (r.stdout + r.stderr).split(`${w.method} ${w.path.replace(/^\/v1/, '')} failed with 403`).length - 1,
        w.path,
      ).toBe(1);
    // stderr names the failed steps and points at the report.
    const failed = /^Error: (\d+) step\(s\) failed.*\(why: the apply report above\)/m.exec(r.stderr);
    expect(Number(failed?.[1])).toBe(sent.length);
    expect(r.stdout + r.stderr).not.toContain(READ);

    const applied = await run('apply', ADMIN);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(EXIT.ok);
    expect((await run('plan', READ, '--detailed-exitcode')).code).toBe(EXIT.ok);
  });

  it('a plan saved with the read token is refused to the read token and applied exactly with the write token', async () => {
    const planFile = join(dir, 'plan.json');
    expect((await run('plan', READ, '--out', planFile)).code).toBe(EXIT.ok);
    const before = state();
    sb.resetStats();
    const refused = await run('apply', READ, '--plan', planFile);
    expect(refused.code).toBe(EXIT.error);
    expect(refused.stdout).toContain('failed with 403');
    expect(writes().every((w) => w.status === 403)).toBe(true);
    expect(state()).toEqual(before);
    const applied = await run('apply', ADMIN, '--plan', planFile);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(EXIT.ok);
  });
});
