/**
 * `docops plan|apply --config docops.yaml` with organizations: each organization planned and applied with its
 * own token, one section each (the PR comment's sections); one organization's failure leaves the others alone.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fleetDir, orgTeams, startOrgs, startTokenRouter, type TestOrg } from '../daemon/fleet-helpers.js';
import { runCli } from './run-cli.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function setup(): Promise<{
  orgs: TestOrg[];
  config: string;
  root: string;
  env: Record<string, string>;
  unknownTokens: () => number;
}> {
  const orgs = await startOrgs(['org-north', 'org-south']);
  const router = await startTokenRouter(orgs);
  cleanup.push(async () => {
    await router.close();
    for (const o of orgs) await o.sandbox.close();
  });
  const { root, config } = fleetDir(orgs, [`apiUrl: ${router.url}`]);
  return {
    orgs,
    config,
    root,
    env: Object.fromEntries(orgs.map((o) => [o.env, o.token])),
    unknownTokens: router.unknownTokens,
  };
}

describe('plan and apply with organizations', () => {
  it('plan: one markdown section per organization, each planned with its own token', async () => {
    const { config, env, unknownTokens } = await setup();
    const r = await runCli(['plan', '--config', config, '--format', 'markdown', '--detailed-exitcode'], env);
    expect(r.code, r.stderr).toBe(2);
    const sections = r.stdout.split(/^## Organization /m).slice(1);
    expect(sections.map((s) => s.split('\n')[0])).toEqual(['`org-north`', '`org-south`']);
    expect(sections[0]).toContain('Fleet org-north');
    expect(sections[0]).not.toContain('Fleet org-south');
    expect(sections[1]).toContain('Fleet org-south');
    expect(unknownTokens()).toBe(0);
  }, 60_000);

  it('plan: an organization whose token is missing fails in its section; the other is planned; JSON is one document', async () => {
    const { config, env, orgs } = await setup();
    const r = await runCli(['plan', '--config', config, '--format', 'json'], { ...env, [orgs[0]!.env]: undefined });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      organizations: { organization: string; exitCode: number; output: { steps?: unknown[] } | null }[];
    };
    expect(doc.organizations.map((o) => [o.organization, o.exitCode])).toEqual([
      ['org-north', 1],
      ['org-south', 0],
    ]);
    expect(doc.organizations[1]!.output?.steps).toHaveLength(1);
    expect(r.stderr).toMatch(/tokenEnv: the variable it names is not set \(organization org-north\)/);
  }, 60_000);

  it('apply: each organization written with its own token, journals apart', async () => {
    const { config, env, orgs, root } = await setup();
    const r = await runCli(['apply', '--config', config, '--yes'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/=== Organization org-north ===[\s\S]*=== Organization org-south ===/);
    for (const o of orgs) expect(await orgTeams(o)).toContain(`Fleet ${o.id}`);
    expect(existsSync(join(root, 'journal')) ? readdirSync(join(root, 'journal')) : []).toEqual([]); // nothing deleted
    const again = await runCli(['plan', '--config', config, '--detailed-exitcode'], env);
    expect(again.code, again.stdout).toBe(0);
  }, 60_000);
});
