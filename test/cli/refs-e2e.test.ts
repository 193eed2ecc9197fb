/**
 * End to end through the CLI (and the daemon) against the sandbox: a manifests directory with a good document
 * and a typo'd reference. The blocked document (and what names it) is listed with file:line:column, nothing is
 * written for it, the good document is applied, and every run fails (exit 1).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { startTestDaemon } from '../daemon/helpers.js';
import { runCli } from './run-cli.js';

const doc = (kind: string, spec: string): string =>
  `apiVersion: docops/v1\nkind: ${kind}\nmetadata:\n  organization: org-demo\nspec:\n${spec}`;

/** good.yaml creates a space; site.yaml names it and a typo; org.yaml's default content names that site. */
const FILES = {
  'good.yaml': doc('Space', '  title: Onboarding\n'),
  'site.yaml': doc('Site', '  title: Help\n  spaces:\n    - Onboarding\n    - Getting Startd\n'),
  'org.yaml': doc('Organization', '  title: Acme Docs\n  defaultContent: { type: site, site: Help }\n'),
};
const SITE_BLOCKED = 'space "Getting Startd" is neither a Space manifest nor a live space (by title or id)';
const ORG_BLOCKED = 'defaultContent.site "Help" is neither a Site manifest nor a live site (by title or id)';

let dir: string;
let sb: RunningSandbox;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docops-refs-e2e-'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  sb = await startSandbox({ seed: 'demo' });
});
afterEach(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (command: string, ...flags: string[]) =>
  runCli([command, '-m', dir, '--api-url', sb.url, '--log-level', 'silent', ...flags], { DOCOPS_TOKEN: sb.token });

async function get<T>(path: string): Promise<T> {
  const res = await fetch(sb.url + path, { headers: { authorization: `Bearer ${sb.token}` } });
  return (await res.json()) as T;
}
const titles = async (path: string): Promise<string[]> =>
  (await get<{ items: { title: string }[] }>(`${path}?limit=1000`)).items.map((x) => x.title);

describe('a typo in a reference, end to end', () => {
  it('plan lists the blocked site and the organization naming it, with file:line:column, and exits 1 (also with --detailed-exitcode)', async () => {
    for (const flags of [[], ['--detailed-exitcode']]) {
      const r = await cli('plan', ...flags);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('Space org-demo/Onboarding');
      expect(r.stdout).not.toContain('No changes');
      expect(r.stdout).toContain(`Site org-demo/Help: ${join(dir, 'site.yaml')}:9:7: ${SITE_BLOCKED}`);
      expect(r.stdout).toContain(`Organization org-demo/org-demo: ${join(dir, 'org.yaml')}:7:39: ${ORG_BLOCKED}`);
      expect(r.stderr).toMatch(/2 manifest object\(s\) blocked/);
    }
    expect(sb.stats().byMethod['POST'] ?? 0).toBe(0);
  });

  it('apply creates the good document, writes nothing for the blocked ones, and exits 1', async () => {
    const r = await cli('apply');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/1 applied, 0 failed, 0 skipped/);
    expect(r.stderr).toContain(`${join(dir, 'site.yaml')}:9:7: ${SITE_BLOCKED}`);
    expect(await titles('/orgs/org-demo/spaces')).toContain('Onboarding');
    expect(await titles('/orgs/org-demo/sites')).toEqual([]);
    expect((await get<Record<string, unknown>>('/orgs/org-demo'))['defaultContent']).toBeUndefined();
    const m = sb.stats().byMethod;
    expect([m['POST'], m['PATCH'] ?? 0, m['PUT'] ?? 0, m['DELETE'] ?? 0]).toEqual([1, 0, 0, 0]);
  });

  it('validate reports the typo offline as a warning (must exist live) and exits 0', async () => {
    const r = await runCli(['validate', '-m', dir, '--log-level', 'silent']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('3 documents, 3 objects valid\n');
    expect(r.stderr).toBe(
      `warning: ${join(dir, 'site.yaml')}:9:7: space "Getting Startd" names no Space manifest of organization org-demo: it must exist live (title or id), else plan blocks this document\n`,
    );
  });
});

describe('a typo in a reference, in the daemon', () => {
  it('the run applies the good document and its result is failed, naming the blocked objects', async () => {
    const t = await startTestDaemon({ files: FILES });
    try {
      const run = t.daemon.runs[0]!;
      expect(run).toMatchObject({
        result: 'failed',
        applied: 1,
        failed: 0,
        error: '2 manifest object(s) blocked: the plan cannot reach them',
      });
      const blocked = t.logs.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('blocked: '));
      expect(blocked.map((l) => [l.kind, l.key])).toEqual([
        ['Site', 'Help'],
        ['Organization', 'org-demo'],
      ]);
      const res = await fetch(`${t.sandbox.url}/orgs/org-demo/sites`, {
        headers: { authorization: `Bearer ${t.sandbox.token}` },
      });
      expect(((await res.json()) as { items: unknown[] }).items).toEqual([]);
    } finally {
      await t.stop();
    }
  });
});
