import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findManifestFiles } from '../../src/manifests/index.js';
import { manifestsDigest, parseSavedPlan, planChecksum, sha256 } from '../../src/plan-file/index.js';
import { members, teamMembers, teams } from '@docops/sandbox';
import { exampleManifests, liveCli, tempDir } from './safety-cli-helpers.js';

const ORG = 'org-demo';

async function savedPlan() {
  const cli = await liveCli();
  const dir = await exampleManifests();
  const file = path.join(await tempDir(), 'plan.json');
  const r = await cli.run(['plan', '-m', dir, '--out', file]);
  expect(r.code).toBe(0);
  return { cli, dir, file };
}

describe('the manifests checksum', () => {
  it("is the same value as ever (sha256 of each file's `path NUL base64` joined by NUL), for files large and small", async () => {
    const dir = await tempDir('docops-digest-');
    const big = Buffer.alloc(3 * 256 * 1024 * 2 + 7, 'spec: x\n'); // over two hashing slices, not a multiple of 3
    await writeFile(path.join(dir, 'big.yaml'), big);
    await writeFile(path.join(dir, 'a.yaml'), 'apiVersion: docops/v1\n');
    const parts = [
      `a.yaml\u0000${Buffer.from('apiVersion: docops/v1\n').toString('base64')}`,
      `big.yaml\u0000${big.toString('base64')}`,
    ];
    expect((await manifestsDigest(dir)).checksum).toBe(`sha256:${sha256(parts.join('\u0000'))}`);
    expect((await manifestsDigest(await tempDir('docops-digest-empty-'))).checksum).toBe(`sha256:${sha256('')}`);
  });
});

describe('docops plan --out', () => {
  it('writes a saved plan whose checksums can be recomputed from its parts', async () => {
    const { dir, file } = await savedPlan();
    const saved = parseSavedPlan(await readFile(file, 'utf8'), file);
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')) as object)).toEqual([
      'formatVersion',
      'createdAt',
      'options',
      'manifestsChecksum',
      'manifestFiles',
      'dataFiles',
      'variables',
      'liveFingerprint',
      'liveObjects',
      'planChecksum',
      'cost',
      'plan',
    ]);
    expect(saved.formatVersion).toBe(2);
    // The one data file config.example's manifests name (an OpenAPI spec), by the digest of its text; no variable.
    const spec = await readFile(path.join(dir, 'petstore.openapi.yaml'), 'utf8');
    expect(saved.dataFiles).toEqual({ 'petstore.openapi.yaml': `sha256:${sha256(spec)}` });
    expect(saved.variables).toEqual({});
    expect(Number.isNaN(Date.parse(saved.createdAt))).toBe(false);
    expect(saved.plan.steps.length).toBeGreaterThan(0);
    expect(saved.planChecksum).toBe(planChecksum(saved.plan));
    expect(saved.manifestsChecksum).toBe((await manifestsDigest(dir)).checksum);
    expect(Object.keys(saved.manifestFiles)).toEqual(await findManifestFiles(dir));
    expect(Object.keys(saved.manifestFiles)).toContain('members.yaml');
    const members = await readFile(path.join(dir, 'members.yaml'));
    expect(saved.manifestFiles['members.yaml']).toBe(`sha256:${sha256(members)}`);
    // The objects the steps touch: the Writers team, frank, and the Security team that does not exist yet.
    expect(saved.liveObjects['Team org-demo/Writers']).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(saved.liveObjects['Members org-demo/frank@acme.test']).toMatch(/^sha256:/);
    expect(saved.liveObjects['Team org-demo/Security']).toBe('absent');
    expect(saved.liveObjects['Team org-demo/Platform']).toBeUndefined();
    expect(saved.cost.requests).toBe(saved.plan.steps.reduce((n, s) => n + s.requests.length, 0));
  });
});

describe('docops apply --plan', () => {
  // Every field of the head is checked before the saved plan is used as one (the announced rate limit was not).
  it.each([
    ['cost', { requests: 1, estimatedMs: 1, concurrency: 8, latencyMs: 20, rateLimit: 'lots' }, 'cost: expected'],
    ['options', { prune: [], invite: 'no' }, 'options: expected {prune: string[], invite: boolean}'],
    ['options', { prune: [], invite: false, modes: { Team: 'mine' } }, 'options.modes: expected an object of'],
    ['liveObjects', { 'Team org/x': 1 }, 'liveObjects: expected an object of strings'],
    ['planChecksum', 7, 'planChecksum: expected a string'],
  ])('refuses a saved plan whose %s is %j', async (field, bad, message) => {
    const { file } = await savedPlan();
    const edited = { ...(JSON.parse(await readFile(file, 'utf8')) as object), [field]: bad };
    expect(() => parseSavedPlan(JSON.stringify(edited), file)).toThrow(message);
  });

  it('refuses a plan of format 1, which pins no data file nor variable', async () => {
    const { file } = await savedPlan();
    const old = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    delete old['dataFiles'];
    delete old['variables'];
    expect(() => parseSavedPlan(JSON.stringify({ ...old, formatVersion: 1 }), file)).toThrow(
      'saved-plan format 1 is not supported (expected 2); make the plan again with this docops',
    );
  });

  it('applies exactly the saved steps, not a recomputed plan', async () => {
    const { cli, dir, file } = await savedPlan();
    const saved = parseSavedPlan(await readFile(file, 'utf8'));
    // A change to an object the plan does not touch: a fresh plan would now also update carol.
    members(cli.sb.store).put({ ...members(cli.sb.store).get(`${ORG}/u-carol`)!, role: 'read' });
    const r = await cli.run(['apply', '-m', dir, '--plan', file, '--format', 'json', '--journal-dir', await tempDir()]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { result: { applied: string[] } };
    expect(out.result.applied.sort()).toEqual(saved.plan.steps.map((s) => s.id).sort());
    expect(members(cli.sb.store).get(`${ORG}/u-carol`)!.role).toBe('read');
    expect(members(cli.sb.store).get(`${ORG}/u-frank`)!.role).toBe('comment');
  });

  it('refuses when a manifest file changed, naming the file', async () => {
    const { cli, dir, file } = await savedPlan();
    await appendFile(path.join(dir, 'members.yaml'), '# edited after planning\n');
    cli.sb.resetStats();
    const r = await cli.run(['apply', '-m', dir, '--plan', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('manifests changed since the plan was made (files: members.yaml)');
    expect(cli.sb.stats().total).toBe(0);
  });

  it('refuses when a manifest file was added', async () => {
    const { cli, dir, file } = await savedPlan();
    await writeFile(path.join(dir, 'extra.yaml'), '');
    const r = await cli.run(['apply', '-m', dir, '--plan', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('(files: extra.yaml)');
  });

  it('refuses when a live object the plan touches changed, naming it', async () => {
    const { cli, dir, file } = await savedPlan();
    teamMembers(cli.sb.store).put({
      id: 'team-writers/u-ivan',
      orgId: ORG,
      teamId: 'team-writers',
      userId: 'u-ivan',
      role: 'member',
    });
    cli.sb.resetStats();
    const r = await cli.run(['apply', '-m', dir, '--plan', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('live state changed for Team org-demo/Writers');
    expect(cli.writes()).toBe(0);
  });

  it('refuses when an object the plan creates appeared meanwhile', async () => {
    const { cli, dir, file } = await savedPlan();
    teams(cli.sb.store).put({ id: 'team-sec', orgId: ORG, title: 'Security', createdAt: '2024-01-01T00:00:00.000Z' });
    const r = await cli.run(['apply', '-m', dir, '--plan', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('live state changed for Team org-demo/Security');
  });

  it('refuses an edited plan file: checksum mismatch', async () => {
    const { cli, dir, file } = await savedPlan();
    const text = await readFile(file, 'utf8');
    const edited = text.replace('"role": "comment"', '"role": "admin"');
    expect(edited).not.toBe(text);
    await writeFile(file, edited);
    cli.sb.resetStats();
    const r = await cli.run(['apply', '-m', dir, '--plan', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('plan file was edited: checksum mismatch');
    expect(cli.sb.stats().total).toBe(0);
    expect(members(cli.sb.store).get(`${ORG}/u-frank`)!.role).toBe('read');
  });

  it('rejects --prune that differs from the saved plan', async () => {
    const { cli, dir, file } = await savedPlan();
    const r = await cli.run(['apply', '-m', dir, '--plan', file, '--prune', 'Team']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--prune and --invite are fixed when the plan is made');
  });
});
