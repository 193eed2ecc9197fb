/**
 * Docs health in a PR check (issue 29): `docops plan --fail-on broken-links` reads each managed space's broken
 * links (one list request per space), lists them after the plan, and fails on the ones a baseline (written by
 * `--broken-links-out` on the main branch) does not hold; without these flags plan reads no link.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { putPageLink, spaceHost } from '../../packages/sandbox/src/content-records.js';
import { doc, liveCli, manifestsOf, tempDir } from './safety-cli-helpers.js';

const SPACES = [doc('Space', '  title: API Reference\n'), doc('Space', '  title: Runbooks\n')].join('---\n');
const linkReads = (cli: Awaited<ReturnType<typeof liveCli>>): string[] =>
  cli.sb
    .stats()
    .requests.filter((r) => r.method === 'GET' && r.path.endsWith('/links'))
    .map((r) => r.path);

describe('docops plan --fail-on broken-links', () => {
  it('without a baseline every broken link is new: exit 1, naming the space; one request per managed space', async () => {
    const cli = await liveCli();
    const dir = await manifestsOf({ 'spaces.yaml': SPACES });
    cli.sb.resetStats();
    const r = await cli.run(['plan', '-m', dir, '--fail-on', 'broken-links']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Broken links in 2 managed space(s): 1, 1 new');
    expect(r.stdout).toContain('org-demo/API Reference: 1 broken, 1 new');
    expect(r.stdout).toContain('    - new: page pg-api-limits (in page pg-api-auth)');
    expect(r.stderr).toContain(
      '--fail-on broken-links: 1 new broken link(s) in org-demo/API Reference (no baseline given: every broken link counts)',
    );
    expect(linkReads(cli).sort()).toEqual(['/v1/spaces/sp-api/links', '/v1/spaces/sp-runbooks/links']);
  });

  it('a baseline from the main branch holds the known ones: exit 0; a link added since fails, and only it is new', async () => {
    const cli = await liveCli();
    const dir = await manifestsOf({ 'spaces.yaml': SPACES });
    const baseline = path.join(await tempDir(), 'links.json');
    const main = await cli.run(['plan', '-m', dir, '--broken-links-out', baseline]);
    expect(main.code).toBe(0);
    expect(JSON.parse(await readFile(baseline, 'utf8'))).toMatchObject({
      version: 1,
      spaces: { 'sp-api': [expect.stringContaining('pg-api-limits')], 'sp-runbooks': [] },
    });
    expect(
      (await cli.run(['plan', '-m', dir, '--fail-on', 'broken-links', '--broken-links-baseline', baseline])).code,
    ).toBe(0);

    putPageLink(cli.sb.store, spaceHost('sp-runbooks'), 'page-deploy', { file: 'file-missing-7' });
    const pr = await cli.run([
      'plan',
      '-m',
      dir,
      '--fail-on',
      'broken-links',
      '--broken-links-baseline',
      baseline,
      '--format',
      'markdown',
    ]);
    expect(pr.code).toBe(1);
    expect(pr.stdout).toContain('### Broken links in 2 managed space(s): 2, 1 new');
    expect(pr.stdout).toContain('- **org-demo/Runbooks**: 1 broken, 1 new');
    expect(pr.stdout).toContain('  - new: file file-missing-7 (in page page-deploy)');
    expect(pr.stdout).not.toContain('pg-api-limits');
    expect(pr.stderr).toContain('1 new broken link(s) in org-demo/Runbooks (not in the baseline)');
  });

  it('without the flags no link is read; a bad value or a baseline alone is a usage error before any request', async () => {
    const cli = await liveCli();
    const dir = await manifestsOf({ 'spaces.yaml': SPACES });
    cli.sb.resetStats();
    const plain = await cli.run(['plan', '-m', dir]);
    expect([plain.code, plain.stderr]).toEqual([0, '']);
    expect(linkReads(cli)).toEqual([]);
    cli.sb.resetStats();
    const bad = await cli.run(['plan', '-m', dir, '--fail-on', 'typos']);
    expect([bad.code, bad.stderr]).toEqual([
      1,
      expect.stringContaining('--fail-on must be one of broken-links, got "typos"'),
    ]);
    const alone = await cli.run(['plan', '-m', dir, '--broken-links-baseline', 'x.json']);
    expect([alone.code, alone.stderr]).toEqual([
      1,
      expect.stringContaining('--broken-links-baseline needs --fail-on broken-links'),
    ]);
    expect(cli.sb.stats().total).toBe(0);
  });
});
