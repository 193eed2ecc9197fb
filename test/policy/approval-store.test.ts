/**
 * The approvals file (src/policy/approval-store.ts): what it keeps reads back as written; a file that cannot be
 * trusted — edited, copied from another directory, written with another token, of another version, not JSON, a
 * symbolic link — is refused whole; a write is atomic and never goes through a link.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APPROVALS_FILE, ApprovalStore, type ApprovalState } from '../../src/policy/approval-store.js';
import { tempDir } from './helpers.js';

const tmp = tempDir('docops-approval-store-');
afterAll(() => tmp.remove());
let n = 0;
const fresh = (): string => {
  const dir = join(tmp.dir, `d${++n}`);
  mkdirSync(dir);
  return dir;
};

const A = `sha256:${'a'.repeat(64)}`;
const B = `sha256:${'b'.repeat(64)}`;
const TOKEN = 'approver-token-0123456789';
const STATE: ApprovalState = {
  waiting: {
    checksum: A,
    since: '2030-01-02T03:04:05.000Z',
    run: 3,
    rules: [{ rule: 'auditors', message: 'needs approval', objects: ['Team org-demo/Auditors'] }],
    approvers: { githubTeam: 'acme/security' },
  },
  given: [{ checksum: A, by: 'token:ada', at: '2030-01-02T03:05:00.000Z' }],
  applied: { checksum: B, by: 'github:alice', at: '2030-01-01T00:00:00.000Z', url: 'https://github.test/c/1' },
};

describe('the approvals file', () => {
  it('reads back what was written; no file yet is an empty book; no temporary file is left', async () => {
    const dir = fresh();
    const store = new ApprovalStore(dir, [TOKEN]);
    expect(await store.read()).toEqual({ state: { given: [] } });
    await store.write(STATE);
    expect(await store.read()).toEqual({ state: STATE });
    expect(readdirSync(dir)).toEqual([APPROVALS_FILE]);
    // Another process (a restarted daemon, the next leader) with the same secrets reads it too.
    expect(await new ApprovalStore(dir, [TOKEN]).read()).toEqual({ state: STATE });
  });

  it.each([
    [
      'an approval edited by hand',
      (f: string) => writeFileSync(f, readFileSync(f, 'utf8').replace('token:ada', 'token:mallory')),
      'its MAC does not verify',
    ],
    [
      'an approval of another plan added by hand',
      (f: string) =>
        writeFileSync(
          f,
          readFileSync(f, 'utf8').replace('"given": [', `"given": [{"checksum": "${B}", "by": "token", "at": "x"}, `),
        ),
      'its MAC does not verify',
    ],
    [
      'another version',
      (f: string) => writeFileSync(f, readFileSync(f, 'utf8').replace('"version": 1', '"version": 2')),
      'its version is not 1',
    ],
    ['not JSON', (f: string) => writeFileSync(f, '{"format": "docops-approvals", '), 'it is not JSON'],
    ['not an approvals file', (f: string) => writeFileSync(f, '{"given": []}'), 'it is not a docops approvals file'],
  ])('refuses %s', async (_, tamper, why) => {
    const dir = fresh();
    const store = new ApprovalStore(dir, [TOKEN]);
    await store.write(STATE);
    tamper(join(dir, APPROVALS_FILE));
    expect(await store.read()).toEqual({ refused: expect.stringContaining(why) });
  });

  it('refuses a file written with another token, or for another directory', async () => {
    const dir = fresh();
    await new ApprovalStore(dir, [TOKEN]).write(STATE);
    expect(await new ApprovalStore(dir, ['another-token-0123456789']).read()).toEqual({
      refused: expect.stringContaining('its MAC does not verify'),
    });
    const other = fresh();
    writeFileSync(join(other, APPROVALS_FILE), readFileSync(join(dir, APPROVALS_FILE)));
    expect(await new ApprovalStore(other, [TOKEN]).read()).toEqual({
      refused: expect.stringContaining('its MAC does not verify'),
    });
  });

  it('refuses a symbolic link, and a write replaces the link instead of writing through it', async () => {
    const dir = fresh();
    const elsewhere = join(fresh(), 'target.json');
    writeFileSync(elsewhere, 'not yours\n');
    symlinkSync(elsewhere, join(dir, APPROVALS_FILE));
    const store = new ApprovalStore(dir, [TOKEN]);
    expect(await store.read()).toEqual({ refused: 'it is a symbolic link' });
    await store.write(STATE);
    expect(readFileSync(elsewhere, 'utf8')).toBe('not yours\n');
    expect(await store.read()).toEqual({ state: STATE });
    expect(existsSync(elsewhere)).toBe(true);
  });
});
