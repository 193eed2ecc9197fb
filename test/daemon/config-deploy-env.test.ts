/**
 * What a deployment sets on top of the repository's docops.yaml (issue 34: the kit runs the file `docops init`
 * wrote, from git): the pod's own settings as DOCOPS_* variables. DOCOPS_JOURNAL_DIR is relative to the working
 * directory (not to a file in a read-only checkout), DOCOPS_HA_MODE turns the election on and keeps the file's other
 * `ha` fields, DOCOPS_GITHUB_API_URL is GitHub's API where the file names none — and the file's wins where it does.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/model/errors.js';
import { loadConfig } from '../../src/config/load.js';

function configFile(text: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'docops-deploy-env-'));
  const file = join(dir, 'docops.yaml');
  writeFileSync(file, text);
  return { dir, file };
}

const GITHUB = [
  'policy:',
  '  approvers: { githubTeam: acme/docs }',
  '  rules: [{ name: all, when: "true", outcome: require-approval, message: approve }]',
  '  approvals:',
  '    github: { repository: acme/docs-org }',
  'kinds: { Team: { drift: propose } }',
  'proposals: { github: { repository: acme/docs-org } }',
].join('\n');

describe('the DOCOPS_* a deployment sets over the repository docops.yaml', () => {
  it('DOCOPS_JOURNAL_DIR: relative to the working directory, over the file’s journalDir', async () => {
    const { dir, file } = configFile('manifests: ./m\njournalDir: ./.docops/journal\n');
    const cwd = mkdtempSync(join(tmpdir(), 'docops-cwd-'));
    expect((await loadConfig(file, { env: {}, cwd })).journalDir).toBe(join(dir, '.docops/journal'));
    const config = await loadConfig(file, { env: { DOCOPS_JOURNAL_DIR: 'journal' }, cwd });
    expect(config.journalDir).toBe(join(cwd, 'journal'));
    expect((await loadConfig(file, { env: { DOCOPS_JOURNAL_DIR: '/var/lib/docops/journal' } })).journalDir).toBe(
      '/var/lib/docops/journal',
    );
  });

  it('DOCOPS_HA_MODE: the election on, with the file’s lease and timings kept; a wrong value is refused', async () => {
    const plain = configFile('manifests: ./m\n');
    expect((await loadConfig(plain.file, { env: {} })).ha).toBeUndefined();
    expect((await loadConfig(plain.file, { env: { DOCOPS_HA_MODE: 'kubernetes' } })).ha).toEqual({
      mode: 'kubernetes',
      leaseName: 'docops',
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    });
    const leased = configFile('manifests: ./m\nha: { leaseName: docops-shard-1, retryPeriodMs: 1000 }\n');
    expect((await loadConfig(leased.file, { env: { DOCOPS_HA_MODE: 'kubernetes' } })).ha).toMatchObject({
      mode: 'kubernetes',
      leaseName: 'docops-shard-1',
      retryPeriodMs: 1000,
    });
    await expect(loadConfig(plain.file, { env: { DOCOPS_HA_MODE: 'etcd' } })).rejects.toThrow(/DOCOPS_HA_MODE=etcd/);
  });

  it('DOCOPS_GITHUB_API_URL: GitHub’s API of approvals and proposals where the file names none', async () => {
    const { file } = configFile(`manifests: ./m\n${GITHUB}\n`);
    const before = await loadConfig(file, { env: {} });
    expect(before.approvals?.github?.apiUrl).toBe('https://api.github.com');
    expect(before.proposals?.github.apiUrl).toBe('https://api.github.com');
    const env = { DOCOPS_GITHUB_API_URL: 'https://github.acme.test/api/v3' };
    const after = await loadConfig(file, { env });
    expect(after.approvals?.github?.apiUrl).toBe(env.DOCOPS_GITHUB_API_URL);
    expect(after.proposals?.github.apiUrl).toBe(env.DOCOPS_GITHUB_API_URL);
    const named = configFile(
      `manifests: ./m\n${GITHUB.replace('github: { repository: acme/docs-org }', 'github: { repository: acme/docs-org, apiUrl: "https://ghe.test/api/v3" }')}\n`,
    );
    expect((await loadConfig(named.file, { env })).approvals?.github?.apiUrl).toBe('https://ghe.test/api/v3');
    await expect(loadConfig(file, { env: { DOCOPS_GITHUB_API_URL: 'ghe.test' } })).rejects.toThrow(UsageError);
  });
});
