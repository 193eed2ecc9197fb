/**
 * Issue 12 at the command line, against a sandbox state file: two sections swapping their only site spaces used
 * to plan "No changes" with exit 0 (a warning, no step); now `plan --detailed-exitcode` exits 2, one apply reaches
 * it and the next plan is "No changes" (0). A state the API cannot reach plans as blocked and exits 1, never as
 * "No changes".
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli.js';
import { siteYaml, TITLE } from './swap-harness.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A manifest directory and a sandbox state file; `args(cmd)` runs against both. */
function workspace(): { args: (cmd: string) => string[]; write: (spec: Record<string, unknown>) => void } {
  const dir = mkdtempSync(join(tmpdir(), 'docops-site-swaps-cli-'));
  dirs.push(dir);
  const manifests = join(dir, 'manifests');
  mkdirSync(manifests);
  return {
    args: (cmd) => [cmd, '--sandbox-state', join(dir, 'state.json'), '-m', manifests, '--log-level', 'silent'],
    write: (spec) => writeFileSync(join(manifests, 'site.yaml'), siteYaml(spec)),
  };
}

const spec = (guides: unknown[], api: unknown[]) => ({
  title: TITLE,
  defaultSection: 'guides',
  sections: [
    { path: 'guides', title: 'Guides', spaces: guides },
    { path: 'api', title: 'API', spaces: api },
  ],
});

describe('docops plan/apply on swapped site spaces', () => {
  it('a swap plans changes (exit 2), applies (exit 0), then plans "No changes" (exit 0)', async () => {
    const w = workspace();
    const { args } = w;
    w.write(spec(['Getting Started'], ['Changelog']));
    expect((await runCli(args('apply'))).code).toBe(0);
    w.write(spec(['Changelog'], ['Getting Started']));
    const planned = await runCli([...args('plan'), '--detailed-exitcode']);
    expect(planned.stdout).not.toContain('No changes');
    expect(planned.code).toBe(2);
    expect((await runCli(args('apply'))).code).toBe(0);
    const after = await runCli([...args('plan'), '--detailed-exitcode']);
    expect(after.stdout).toContain('No changes. Live state matches the manifests.');
    expect(after.code).toBe(0);
  });

  it('an unreachable state is blocked: exit 1 with file:line:column, never "No changes"', async () => {
    const w = workspace();
    const { args } = w;
    w.write(
      spec(
        [
          { space: 'Getting Started', path: 'p' },
          { space: 'Changelog', path: 'q' },
        ],
        ['Runbooks'],
      ),
    );
    expect((await runCli(args('apply'))).code).toBe(0);
    w.write(spec([{ space: 'Getting Started', path: 'q' }], ['Runbooks']));
    const planned = await runCli([...args('plan'), '--detailed-exitcode']);
    expect(planned.code).toBe(1);
    expect(planned.stdout).not.toContain('No changes');
    expect(planned.stdout).toMatch(
      /site\.yaml:4:\d+: path "q" of guides\/Getting Started is used by site space ss-\d+ \("Changelog" in section "guides"\)/,
    );
    expect((await runCli(args('apply'))).code).toBe(1);
  });
});
