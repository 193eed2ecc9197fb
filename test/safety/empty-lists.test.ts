/**
 * A written empty list is a managed, empty set, and `prune: true` counts on every document — also one that
 * yields no entry. Before, `members: []` with `prune: true` planned nothing at all, and `prune: true` on a
 * second, empty Members document was ignored: intent dropped without a word.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { members as memberTable } from '../../packages/sandbox/src/records.js';
import { DEFAULT_SAFETY } from '../../src/safety/config.js';
import { checkPlan, countDesired } from '../../src/safety/gate.js';
import { loadDesired } from '../helpers/pipeline.js';
import { sandboxPerTest } from '../kinds/sandbox-per-test.js';
import { computePlan } from '../../src/engine/reconcile.js';

const start = sandboxPerTest('empty-lists');

const membersDoc = (lines: string[], prune = false): string =>
  [
    'apiVersion: docops/v1',
    'kind: Members',
    'metadata: { organization: org-demo }',
    ...(prune ? ['prune: true'] : []),
    'spec:',
    ...lines,
  ].join('\n') + '\n';

describe('empty lists and prune on entry-less documents', () => {
  it('members: [] with prune: true plans removing every live member, and the gate refuses it as deleting every member (not as an empty manifest set)', async () => {
    const { sb, client, dir } = await start();
    writeFileSync(join(dir, 'members.yaml'), membersDoc(['  members: []'], true));
    const desired = await loadDesired(dir);
    const { plan, live } = await computePlan(client, KINDS, desired);
    const liveMembers = memberTable(sb.store).where((m) => m.orgId === 'org-demo').length;
    expect(liveMembers).toBeGreaterThan(2);
    expect(plan.steps.filter((s) => s.kind === 'Members' && s.phase === 'prune')).toHaveLength(liveMembers);
    const rules = checkPlan(plan, live, KINDS, {
      config: DEFAULT_SAFETY,
      force: true,
      desiredCount: countDesired(desired),
    }).map((v) => v.rule);
    // The document was loaded and says what it means: not a vanished manifests directory, but every live member.
    expect(rules).toContain('delete-all');
    expect(rules).not.toContain('empty-manifests');
  });

  it('prune: true on a second, empty Members document prunes the members no document lists', async () => {
    const { client, dir } = await start();
    // Without prune, an empty list is a managed, empty set: every live member is listed as unmanaged.
    writeFileSync(join(dir, 'members.yaml'), membersDoc(['  members: []']));
    const { plan: probe } = await computePlan(client, KINDS, await loadDesired(dir));
    expect(probe.steps).toEqual([]);
    const live = probe.unmanaged
      .filter((u) => u.kind === 'Members')
      .map((u) => u.key)
      .sort();
    expect(live.length).toBeGreaterThan(2);
    // Every live member but the last in the first document; the second document only says prune.
    const [gone, ...kept] = [...live].reverse();
    writeFileSync(
      join(dir, 'members.yaml'),
      membersDoc(['  members:', ...kept.map((e) => `    - { email: ${e}, role: admin }`)]),
    );
    writeFileSync(join(dir, 'prune.yaml'), membersDoc(['  members: []'], true));
    const { plan } = await computePlan(client, KINDS, await loadDesired(dir));
    expect(plan.steps.filter((s) => s.phase === 'prune').map((s) => s.key)).toEqual([gone]);
  });
});
