/**
 * Secrets never leave docops: the API token and every site share-link secret (the `share=` part of a share
 * link's urls.published) appear in no stdout, stderr, plan file, journal, undo output or export, across the
 * representative commands, at debug log level, and on error paths (401, retries exhausted).
 */
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteShareLinks } from '../../src/sandbox/site-records.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { runCliCollecting, type CollectedRun } from '../helpers/output-collector.js';
import { tempDir } from '../helpers/pipeline.js';

const TOKEN = 'tok-SECRET-9d2f41c8a7e3b605e1';
const DEBUG = ['--log-level', 'debug', '--log-format', 'json'];

let sandbox: RunningSandbox;
let work: string;
let manifests: string;
const runs: { name: string; run: CollectedRun }[] = [];

/** Run docops against the sandbox with the token in DOCOPS_TOKEN, keeping the output for the final scan. */
async function docops(name: string, argv: string[], env: Record<string, string> = { DOCOPS_TOKEN: TOKEN }): Promise<CollectedRun> {
  const run = await runCliCollecting([...argv, '--api-url', sandbox.url, ...DEBUG], env, [TOKEN]);
  runs.push({ name, run });
  return run;
}

function shareSecrets(): string[] {
  return siteShareLinks(sandbox.store)
    .all()
    .flatMap((l) => [l.secret, encodeURIComponent(l.secret)]);
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'demo', token: TOKEN });
  work = tempDir('secrets');
  manifests = join(work, 'manifests');
  await cp('config.example/manifests', manifests, { recursive: true });
});
afterAll(async () => {
  await sandbox.close();
});

describe('the token and share-link secrets never appear in any output', () => {
  it('validate, plan in three formats, plan --out, apply of the saved plan (creates a share link)', async () => {
    runs.push({ name: 'validate', run: await runCliCollecting(['validate', '-m', manifests, ...DEBUG], {}, [TOKEN]) });
    for (const format of ['text', 'markdown', 'json']) expect((await docops(`plan ${format}`, ['plan', '-m', manifests, '--format', format])).code).toBe(0);
    const planFile = join(work, 'plan.json');
    const saved = await docops('plan --out', ['plan', '-m', manifests, '--out', planFile]);
    expect(saved.code).toBe(0);
    saved.collector.addPath(planFile);
    const apply = await docops('apply --plan', ['apply', '-m', manifests, '--plan', planFile, '--journal-dir', join(work, 'journal')]);
    expect(apply.code, apply.stderr).toBe(0);
    expect(siteShareLinks(sandbox.store).all().map((l) => l.name)).toContain('partner-preview');
  });

  it('a second share link, then plans that read both links back (the API returns their secret URLs)', async () => {
    const site = join(manifests, 'site.yaml');
    await writeFile(site, (await readFile(site, 'utf8')).replace('    - name: partner-preview\n', '    - name: partner-preview\n    - name: beta-readers\n'));
    expect((await docops('apply second link', ['apply', '-m', manifests])).code).toBe(0);
    expect(shareSecrets().length).toBeGreaterThanOrEqual(4);
    // The secret really is in what the API serves, so docops had the chance to leak it.
    const siteId = siteShareLinks(sandbox.store).all()[0]!.siteId;
    const listed = await fetch(`${sandbox.url}/orgs/org-demo/sites/${siteId}/share-links`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.text());
    expect(shareSecrets().some((s) => listed.includes(s))).toBe(true);
    for (const format of ['text', 'markdown', 'json']) expect((await docops(`plan ${format} with links`, ['plan', '-m', manifests, '--format', format])).code).toBe(0);
  });

  it('a prune that deletes a share link and a team writes a journal; undo reads it back; export writes manifests', async () => {
    const before = shareSecrets();
    const site = join(manifests, 'site.yaml');
    await writeFile(site, (await readFile(site, 'utf8')).replace('    - name: beta-readers\n', ''));
    await rm(join(manifests, 'translations.yaml'));
    const journalDir = join(work, 'journal-prune');
    const prune = await docops('apply --prune', ['apply', '-m', manifests, '--prune', 'Site', '--prune', 'Team', '--journal-dir', journalDir, '--force']);
    expect(prune.code, prune.stdout + prune.stderr).toBe(0);
    expect(siteShareLinks(sandbox.store).all().map((l) => l.name)).not.toContain('beta-readers');
    const journals = (await readdir(journalDir)).map((f) => join(journalDir, f));
    expect(journals).toHaveLength(1);
    prune.collector.addPath(journalDir);
    expect(await readFile(journals[0]!, 'utf8')).toContain('beta-readers');

    runs.push({ name: 'undo', run: await runCliCollecting(['undo', journals[0]!], {}, [TOKEN]) });
    const exportDir = join(work, 'export');
    const exported = await docops('export', ['export', '--org', 'org-demo', '-o', exportDir]);
    expect(exported.code, exported.stderr).toBe(0);
    exported.collector.addPath(exportDir);
    expect((await readdir(exportDir)).length).toBeGreaterThan(0);
    // Scan everything so far for the deleted link's secret too.
    for (const { name, run } of runs) expect(run.leaks([TOKEN, ...before]), name).toEqual([]);
  });

  it('error paths: a token the API rejects, a token file, retries exhausted', async () => {
    const rejected = await docops('401', ['plan', '-m', manifests], { DOCOPS_TOKEN: `${TOKEN}x` });
    expect(rejected.code).toBe(1);
    const tokenFile = join(work, 'token');
    await writeFile(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    expect((await docops('token file', ['plan', '-m', manifests, '--token-file', tokenFile], {})).code).toBe(0);
    sandbox.setFaults('429=1,retryAfter=0');
    try {
      const exhausted = await docops('429 exhausted', ['plan', '-m', manifests]);
      expect(exhausted.code).toBe(1);
      expect(exhausted.stderr).toMatch(/429/);
    } finally {
      sandbox.setFaults(undefined);
    }
  });

  it('no run printed or wrote the token or any share-link secret', () => {
    const secrets = [TOKEN, ...shareSecrets()];
    expect(runs.length).toBeGreaterThanOrEqual(15);
    // The scan covered real output: plans, debug logs with request lines, the apply report.
    const all = runs.map(({ run }) => run.stdout + run.stderr).join('\n');
    expect(all).toContain('"level":20');
    expect(all).toContain('partner-preview');
    expect(all.length).toBeGreaterThan(20_000);
    const leaks = runs.flatMap(({ name, run }) => run.leaks(secrets).map((l) => ({ run: name, ...l })));
    expect(leaks).toEqual([]);
  });
});
