/**
 * A mistyped organization id (issue 34, point 5), end to end against the sandbox: the documents naming it are
 * blocked at their `metadata.organization` (file:line:column) with a hint at `docops orgs`, the documents of the
 * known organization still plan and apply, and plan, apply and the daemon's run fail (exit 1) as for any blocked
 * document. `export --org` and `init --org` naming it say the same instead of the 404 of whichever list came first.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { startTestDaemon } from '../daemon/helpers.js';
import { runCli } from './run-cli.js';

const doc = (kind: string, org: string, spec: string): string =>
  `apiVersion: docops/v1\nkind: ${kind}\nmetadata:\n  organization: ${org}\nspec:\n${spec}`;

const FILES = {
  'good.yaml': doc('Space', 'org-demo', '  title: Onboarding\n'),
  'teams.yaml': doc('Team', 'org-bnech', '  title: Platform\n'),
  'members.yaml': doc(
    'Members',
    'org-bnech',
    '  members:\n    - { email: ada@acme.test }\n    - { email: bob@acme.test }\n',
  ),
};
const UNKNOWN =
  'organization "org-bnech" was not found: the API answers 404 for it (a mistyped id, or an organization the token\'s user is not a member of); `docops orgs` lists the organization ids the token sees';

let dir: string;
let sb: RunningSandbox;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docops-unknown-org-'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  sb = await startSandbox({ seed: 'demo' });
});
afterEach(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (): Record<string, string> => ({ DOCOPS_TOKEN: sb.token });
const cli = (command: string, ...flags: string[]) =>
  runCli([command, '-m', dir, '--api-url', sb.url, '--log-level', 'silent', ...flags], env());
/** Requests for the organization itself (GET /orgs/org-bnech), not its lists. */
const orgGets = (): number => sb.stats().requests.filter((r) => r.path.split('?')[0] === '/v1/orgs/org-bnech').length;

describe('a mistyped organization id in a manifest', () => {
  it('plan blocks each document naming it at metadata.organization, plans the rest, and exits 1', async () => {
    const r = await cli('plan');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('+ Space org-demo/Onboarding');
    expect(r.stdout).toContain(
      `✗ Members org-bnech/ada@acme.test (and 1 more): ${join(dir, 'members.yaml')}:4:17: ${UNKNOWN}`,
    );
    expect(r.stdout).toContain(`✗ Team org-bnech/Platform: ${join(dir, 'teams.yaml')}:4:17: ${UNKNOWN}`);
    expect(r.stderr).toMatch(/2 manifest object\(s\) blocked/);
    expect(r.stderr).not.toContain('failed with 404');
    // Learnt from the lists the kinds read anyway, confirmed by one GET of the organization.
    expect(orgGets()).toBe(1);
  });

  it('apply applies the known organization, writes nothing for the other, and exits 1', async () => {
    const r = await cli('apply');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/1 applied, 0 failed, 0 skipped/);
    expect(r.stderr).toContain(`${join(dir, 'teams.yaml')}:4:17: ${UNKNOWN}`);
    const m = sb.stats().byMethod;
    expect([m['POST'], m['PATCH'] ?? 0, m['PUT'] ?? 0, m['DELETE'] ?? 0]).toEqual([1, 0, 0, 0]);
  });

  it('the daemon applies the known organization and fails its run, naming each blocked document', async () => {
    const t = await startTestDaemon({ files: FILES });
    try {
      expect(t.daemon.runs[0]).toMatchObject({
        result: 'failed',
        applied: 1,
        failed: 0,
        error: '2 manifest object(s) blocked: the plan cannot reach them',
      });
      const blocked = t.logs.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('blocked: '));
      expect(blocked.map((l) => [l.kind, l.key, l.source, l.msg])).toEqual([
        [
          'Members',
          'ada@acme.test (and 1 more)',
          { file: join(t.dir, 'members.yaml'), line: 4, column: 17 },
          `blocked: ${UNKNOWN}`,
        ],
        ['Team', 'Platform', { file: join(t.dir, 'teams.yaml'), line: 4, column: 17 }, `blocked: ${UNKNOWN}`],
      ]);
      expect(t.logs.some((l) => JSON.stringify(l).includes('failed with 404'))).toBe(false);
    } finally {
      await t.stop();
    }
  });
});

describe('--org naming an organization the token does not see', () => {
  it('export and init say so and point at docops orgs, writing nothing', async () => {
    for (const command of ['export', 'init']) {
      const out = join(dir, `${command}-out`);
      const args =
        command === 'export' ? ['export', '--org', 'org-bnech', '-o', out] : ['init', '--org', 'org-bnech', out];
      const r = await runCli([...args, '--api-url', sb.url, '--log-level', 'silent'], env());
      expect(r.code, command).toBe(1);
      expect(r.stderr, command).toBe(`Error: --org org-bnech: ${UNKNOWN}\n`);
      if (command === 'export') expect(existsSync(out)).toBe(false);
    }
  });
});
