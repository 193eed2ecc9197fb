/**
 * Dry-run never writes: `docops plan` in every format, with --out, --prune of every kind that can be pruned, --invite and
 * --detailed-exitcode, against a sandbox where the plan is large (every prune on, manifests that differ),
 * sends only GETs; the live state is byte-for-byte what it was.
 */
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { runCliCollecting } from '../helpers/output-collector.js';
import { tempDir } from '../helpers/pipeline.js';

/** The store's content; tables a read merely touched (created empty) do not count as a change. */
function state(sb: RunningSandbox): string {
  const snap = sb.store.snapshot();
  return JSON.stringify({
    ...snap,
    tables: Object.fromEntries(Object.entries(snap.tables).filter(([, rows]) => rows.length > 0)),
  });
}

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('docops plan is read-only', () => {
  it('sends no write in any format or option, and leaves the state unchanged', async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    const dir = join(tempDir('dry-run'), 'manifests');
    await cp('config.example/manifests', dir, { recursive: true });
    // One team and one translation left: under --prune the other live teams and translations become deletes.
    await writeFile(
      join(dir, 'teams.yaml'),
      'apiVersion: docops/v1\nkind: Team\nmetadata:\n  organization: org-demo\nspec:\n  title: Platform\n',
    );
    await writeFile(
      join(dir, 'translations.yaml'),
      'apiVersion: docops/v1\nkind: Translation\nmetadata:\n  organization: org-demo\nspec:\n  title: Italian docs\n',
    );
    const before = state(sandbox);
    const prune = KINDS.filter((k) => k.prunable !== false).flatMap((k) => ['--prune', k.kind]);
    const env = { DOCOPS_TOKEN: sandbox.token };
    const common = ['-m', dir, '--api-url', sandbox.url, '--log-level', 'silent'];
    let steps: { action: string }[] = [];
    for (const format of ['text', 'markdown', 'json']) {
      const run = await runCliCollecting(
        ['plan', ...common, '--format', format, ...prune, '--invite', '--detailed-exitcode'],
        env,
        [],
      );
      expect(run.code, run.stderr).toBe(2);
      if (format === 'json') steps = (JSON.parse(run.stdout) as { steps: { action: string }[] }).steps;
    }
    const out = await runCliCollecting(['plan', ...common, '--out', join(dir, '..', 'plan.json'), ...prune], env, []);
    expect(out.code, out.stderr).toBe(0);

    expect(steps.length).toBeGreaterThan(10);
    expect(steps.filter((s) => s.action === 'delete').length).toBeGreaterThanOrEqual(3);
    const stats = sandbox.stats();
    expect(stats.total).toBeGreaterThan(0);
    expect(Object.keys(stats.byMethod)).toEqual(['GET']);
    expect(state(sandbox)).toBe(before);
  });
});
