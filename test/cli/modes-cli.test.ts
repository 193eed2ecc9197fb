/**
 * Ownership modes through the command line: plan and apply read the kinds' modes from --config (docops.yaml's
 * `kinds:`), a saved plan keeps them, and apply --plan refuses a --config that says otherwise.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSavedPlan } from '../../src/plan-file/index.js';
import { exampleManifests, liveCli, tempDir } from './safety-cli-helpers.js';

async function config(text: string): Promise<string> {
  const file = path.join(await tempDir('docops-config-'), 'docops.yaml');
  await writeFile(file, `manifests: ./manifests\n${text}`, 'utf8');
  return file;
}

describe('--config kinds: modes', () => {
  it('plan reports what observed kinds would change; apply writes only the rest', async () => {
    const cli = await liveCli();
    const dir = await exampleManifests();
    const observe = await config('kinds:\n  Members: { mode: observe }\n  Team: { mode: observe }\n');
    const plan = await cli.run(['plan', '-m', dir, '--config', observe, '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    // frank's role (Members) and the teams' changes are only reported; the example's other kinds still change.
    expect(plan.stdout).toMatch(/Reported, not applied: \d+ changes the ownership modes leave alone:/);
    expect(plan.stdout).toMatch(/~ Members org-demo\/frank@acme\.test \(observe: report only, never writes\)/);
    const [actions] = plan.stdout.split('Reported, not applied');
    expect(actions).toMatch(/^ {2}\+ Site org-demo\/Acme Help Center$/m);
    expect(actions).not.toMatch(/^ {2}[+~-] (Team|Members) /m);
    expect(plan.code).toBe(2);

    cli.sb.resetStats();
    const apply = await cli.run(['apply', '-m', dir, '--config', observe, '--yes', '--format', 'json']);
    expect(apply.code).toBe(0);
    const sent = cli.sb
      .stats()
      .requests.filter((r) => r.method !== 'GET')
      .map((r) => r.path);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((p) => /\/(teams|members)(\/|$)/.test(p))).toEqual([]);
  });

  it('--prune of a kind the config observes is a usage error, not a silent no-op', async () => {
    const cli = await liveCli();
    const dir = await exampleManifests();
    const r = await cli.run([
      'plan',
      '-m',
      dir,
      '--config',
      await config('kinds:\n  Team: { mode: additive }\n'),
      '--prune',
      'Team',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /--prune Team: the config's mode for Team is additive, which never deletes what no manifest writes/,
    );
  });

  it('a saved plan keeps the modes it was made with; apply --plan refuses a --config that says otherwise', async () => {
    const cli = await liveCli();
    const dir = await exampleManifests();
    const file = path.join(await tempDir(), 'plan.json');
    const observe = await config('kinds:\n  Members: { mode: observe }\n');
    expect((await cli.run(['plan', '-m', dir, '--config', observe, '--out', file])).code).toBe(0);
    const saved = parseSavedPlan(await readFile(file, 'utf8'), file);
    expect(saved.options.modes).toEqual({ Members: 'observe' });
    expect(saved.plan.reported?.map((r) => r.kind)).toEqual(['Members']);

    cli.sb.resetStats();
    const refused = await cli.run(['apply', '-m', dir, '--plan', file, '--config', await config('')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /the kinds' modes are fixed when the plan is made \(this plan: Members: observe; --config says \(every kind authoritative\)\)/,
    );
    expect(cli.writes()).toBe(0);

    const applied = await cli.run(['apply', '-m', dir, '--plan', file, '--config', observe]);
    expect(applied.code).toBe(0);
    expect(cli.sb.stats().requests.filter((r) => r.method !== 'GET' && r.path.includes('/members/'))).toEqual([]);
  });
});
