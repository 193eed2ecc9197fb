/**
 * The daemon and manifests that hold nothing: an empty manifests directory (or one whose only YAML is the
 * daemon's own config) fails the run as invalid manifests, leaves the daemon not ready, and never reaches the API.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../daemon/helpers.js';

let t: TestDaemon | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe('the daemon with no manifest', () => {
  it.each([
    ['an empty directory', {}, /no manifests in .*: it holds no \.yaml or \.yml file/],
    ['only non-YAML files', { 'README.md': '# moved\n' }, /no manifests in /],
    [
      'only the daemon config',
      { 'docops.yaml': 'manifests: ./manifests\n' },
      /this is a docops daemon config, not a manifest/,
    ],
  ])('%s: invalid manifests, not ready, zero requests', async (_name, files, message) => {
    t = await startTestDaemon({ files });
    const run = t.daemon.runs[0]!;
    expect(run.result).toBe('invalid_manifests');
    expect(run.error).toMatch(message);
    expect(t.sandbox.stats().total).toBe(0);
    const ready = await t.get('/readyz');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toMatchObject({ ready: false, manifests: { ok: false } });
  });
});

describe('the daemon reads only the variables its config allows', () => {
  const TEAM = (title: string) =>
    `apiVersion: docops/v1\nkind: Team\nmetadata:\n  organization: org-demo\nspec:\n  title: "${title}"\n`;

  it('allowEnv lets a manifest read TEAM_*; without it the run is invalid and nothing is sent', async () => {
    t = await startTestDaemon({
      files: { 'team.yaml': TEAM('Squad ${TEAM_SUFFIX}') },
      config: { allowEnv: ['TEAM_*'] },
      deps: { env: { TEAM_SUFFIX: 'blue' } },
    });
    expect(t.daemon.runs[0]!.result).toBe('success');
    await t.stop();
    t = await startTestDaemon({
      files: { 'team.yaml': TEAM('Squad ${TEAM_SUFFIX}') },
      deps: { env: { TEAM_SUFFIX: 'blue-secret-value' } },
    });
    const run = t.daemon.runs[0]!;
    expect(run.result).toBe('invalid_manifests');
    expect(run.error).toContain('environment variable "TEAM_SUFFIX" is not allowed in manifests');
    expect(JSON.stringify([run, t.logs])).not.toContain('blue-secret-value');
    expect(t.sandbox.stats().total).toBe(0);
  });

  it('never the token, even when a variable holding it is allowed', async () => {
    t = await startTestDaemon({
      files: { 'team.yaml': TEAM('Squad ${COPY}') },
      config: { allowEnv: ['COPY', 'DOCOPS_*'] },
    });
    const token = t.sandbox.token;
    await t.stop();
    t = await startTestDaemon({
      files: { 'team.yaml': TEAM('Squad ${COPY}') },
      config: { allowEnv: ['COPY'] },
      deps: { env: { COPY: token } },
    });
    const run = t.daemon.runs[0]!;
    expect(run.result).toBe('invalid_manifests');
    expect(run.error).toContain('environment variable "COPY" holds the API token');
    expect(JSON.stringify([run, t.logs])).not.toContain(token);
  });
});

describe('allowEnv in the daemon config', () => {
  it('is read from the file, DOCOPS_ALLOW_ENV (comma-separated) overrides it, and a bad entry is refused', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { loadConfig } = await import('../../src/config/load.js');
    const file = join(mkdtempSync(join(tmpdir(), 'docops-allow-')), 'docops.yaml');
    writeFileSync(file, 'manifests: ./m\nallowEnv: [ORG_ID, TEAM_*]\n');
    expect((await loadConfig(file, { env: {} })).allowEnv).toEqual(['ORG_ID', 'TEAM_*']);
    expect((await loadConfig(file, { env: { DOCOPS_ALLOW_ENV: 'SITE_*, X' } })).allowEnv).toEqual(['SITE_*', 'X']);
    await expect(loadConfig(file, { env: { DOCOPS_ALLOW_ENV: 'A,B-C' } })).rejects.toThrow(
      /DOCOPS_ALLOW_ENV=A,B-C: allowEnv\[1\]: must match the pattern/,
    );
    writeFileSync(file, 'manifests: ./m\n');
    expect((await loadConfig(file, { env: {} })).allowEnv).toBeUndefined();
  });
});
