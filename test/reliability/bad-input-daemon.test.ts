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
    ['only the daemon config', { 'docops.yaml': 'manifests: ./manifests\n' }, /this is a docops daemon config, not a manifest/],
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
