import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderJson } from '../../src/render/json.js';
import { parsePlanJson } from '../../src/plan-file/read-plan.js';
import { runCli } from './run-cli.js';

const M = ['-m', 'config.example/manifests', '--log-level', 'silent'];
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docops-cli-e2e-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('plan and apply against the in-process sandbox', () => {
  it('plan --detailed-exitcode exits 2 on the demo seed and prints a text plan', async () => {
    const r = await runCli(['plan', '--sandbox', ...M, '--detailed-exitcode']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^Plan: \d+ to add, \d+ to change, \d+ to delete\.$/m);
  });

  it('plan without --detailed-exitcode exits 0 even with changes', async () => {
    expect((await runCli(['plan', '--sandbox', ...M])).code).toBe(0);
  });

  it('--format json puts a parseable plan (and only that) on stdout; --out writes the same plan', async () => {
    const out = join(dir, 'plan.json');
    const r = await runCli(['plan', '--sandbox', ...M, '--format', 'json', '--out', out]);
    expect(r.code).toBe(0);
    const plan = parsePlanJson(r.stdout);
    expect(plan.steps.length).toBeGreaterThan(0);
    // The same plan: printed, masked body fields (an OpenAPI spec's text) show their stand-in; the file keeps them as sent.
    const saved = parsePlanJson(await readFile(out, 'utf8'));
    expect(renderJson(saved)).toBe(renderJson(plan));
    // Printed, the plan also names the token scopes it needs (derived, so not in the saved plan).
    expect(Object.keys(JSON.parse(r.stdout) as object).at(-1)).toBe('scopes');
    expect(saved.steps.map((s) => s.id)).toEqual(plan.steps.map((s) => s.id));
  });

  it('--format markdown prints the PR comment form', async () => {
    const r = await runCli(['plan', '--sandbox', ...M, '--format', 'markdown']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('| Kind | Add | Change | Delete |');
  });

  it('logs go to stderr as JSON lines, never to stdout', async () => {
    const r = await runCli([
      'plan',
      '--sandbox',
      '-m',
      'config.example/manifests',
      '--format',
      'json',
      '--log-level',
      'info',
    ]);
    expect(r.code).toBe(0);
    parsePlanJson(r.stdout);
    const lines = r.stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(JSON.parse(l)).toHaveProperty('level');
    expect(r.stderr).not.toContain('sandbox-token');
  });

  it('apply converges: exit 0 with a summary, then the next plan has no changes', async () => {
    const state = join(dir, 'state.json');
    const a = await runCli(['apply', '--sandbox-state', state, ...M]);
    expect(a.stderr).toBe('');
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/^Apply complete: \d+ applied, 0 failed, 0 skipped\.$/m);
    const again = await runCli(['plan', '--sandbox-state', state, ...M, '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes. Live state matches the manifests.');
    expect(again.code).toBe(0);
  });

  it('apply --format json prints one document with the plan and the result', async () => {
    const r = await runCli(['apply', '--sandbox', ...M, '--format', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      plan: unknown;
      result: { applied: string[]; failed: unknown[]; skipped: unknown[] };
    };
    const plan = parsePlanJson(JSON.stringify(doc.plan));
    expect(doc.result.failed).toEqual([]);
    expect(doc.result.applied.sort()).toEqual(plan.steps.map((s) => s.id).sort());
  });

  it('--prune with an unknown kind is a usage error', async () => {
    const r = await runCli(['plan', '--sandbox', ...M, '--prune', 'Tema']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--prune: unknown kind Tema \(known: .*Team/);
  });
});
