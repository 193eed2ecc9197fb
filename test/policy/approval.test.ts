/**
 * The approval checksum: one SHA-256 over the steps, the manifests' digest and the live objects the steps touch.
 * Equal for the same plan made in CI (a relative -m) and in the daemon (an absolute directory); different when any
 * of the three differs.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LiveObject } from '../../src/model/kind.js';
import type { LiveState } from '../../src/model/state.js';
import { approvalChecksum } from '../../src/policy/approval.js';
import { change, planOf } from './helpers.js';

const live = (role: string): LiveState =>
  new Map([
    [
      'Members',
      {
        objects: [{ kind: 'Members', org: 'org-demo', key: 'bob@acme.test', id: 'u1', fields: { role } } as LiveObject],
        aux: undefined,
      },
    ],
  ]) as unknown as LiveState;
const manifests = { checksum: 'sha256:' + '1'.repeat(64), files: {} };
const step = (file: string, role = 'admin') => ({
  ...change('Members', 'bob@acme.test', 'update', { before: { role: 'read' }, after: { role } }),
  source: { file, line: 3, column: 7 },
});

describe('approvalChecksum', () => {
  it('is the same for the same plan whether the manifests directory is named relatively or absolutely', () => {
    const rel = approvalChecksum({
      plan: planOf(step('manifests/members.yaml')),
      live: live('read'),
      manifests,
      manifestsDir: 'manifests',
    });
    const abs = approvalChecksum({
      plan: planOf(step(path.resolve('manifests/members.yaml'))),
      live: live('read'),
      manifests,
      manifestsDir: path.resolve('manifests'),
    });
    expect(rel).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(abs).toBe(rel);
  });

  it('changes with the steps, the manifests and the live objects the steps touch', () => {
    const base = { plan: planOf(step('m/members.yaml')), live: live('read'), manifests, manifestsDir: 'm' };
    const sum = approvalChecksum(base);
    expect(approvalChecksum({ ...base, plan: planOf(step('m/members.yaml', 'edit')) })).not.toBe(sum);
    expect(approvalChecksum({ ...base, manifests: { ...manifests, checksum: 'sha256:' + '2'.repeat(64) } })).not.toBe(
      sum,
    );
    expect(approvalChecksum({ ...base, live: live('comment') })).not.toBe(sum);
    expect(approvalChecksum({ ...base })).toBe(sum);
  });
});
