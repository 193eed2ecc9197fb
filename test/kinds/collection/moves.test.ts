/**
 * Swapping nesting: a collection moves under one that is still inside it. The move that lifts the new parent out
 * must run first; before, both moves shared a wave and, depending on the order they ran in, the API refused one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import { collections } from '../../../packages/sandbox/src/records.js';
import { loadDesired, planOnce } from '../../helpers/pipeline.js';
import { sandboxPerTest } from '../sandbox-per-test.js';

const start = sandboxPerTest('collection-moves');

const doc = (title: string, parent: string | null): string =>
  [
    'apiVersion: docops/v1',
    'kind: Collection',
    'metadata: { organization: org-demo }',
    'spec:',
    `  title: ${title}`,
    `  parent: ${parent ?? 'null'}`,
  ].join('\n') + '\n';

describe('collection moves that swap nesting', () => {
  // Both title orders: the step order inside a wave follows the keys, which is what made the old plan flaky.
  it.each([
    ['Zed', 'Internal'],
    ['Aaa', 'Internal'],
  ])('moves %s out of %s before moving Internal under it, in one apply', async (child) => {
    const { sb, client, dir } = await start();
    collections(sb.store).put({
      id: 'col-child',
      orgId: 'org-demo',
      title: child,
      parent: 'col-internal',
      defaultLevel: null,
    });
    writeFileSync(join(dir, 'collections.yaml'), [doc('Internal', child), doc(child, null)].join('---\n'));
    const desired = await loadDesired(dir);
    const plan = await planOnce(client, desired);
    const lift = plan.steps.find((s) => s.id === `Collection/org-demo/${child}#move`)!;
    const nest = plan.steps.find((s) => s.id === 'Collection/org-demo/Internal#move')!;
    expect(nest.dependsOn).toContain(lift.id);
    expect(nest.wave).toBeGreaterThan(lift.wave);
    const report = await applyPlan(client, plan);
    expect(report.failed).toEqual([]);
    expect(collections(sb.store).get('col-internal')!.parent).toBe('col-child');
    expect(collections(sb.store).get('col-child')!.parent).toBeUndefined();
    expect((await planOnce(client, desired)).steps).toEqual([]);
  });

  it('chains: A > B > C live, manifests put A under C: C and B move first', async () => {
    const { sb, client, dir } = await start();
    collections(sb.store).put({ id: 'col-a', orgId: 'org-demo', title: 'A', defaultLevel: null });
    collections(sb.store).put({ id: 'col-b', orgId: 'org-demo', title: 'B', parent: 'col-a', defaultLevel: null });
    collections(sb.store).put({ id: 'col-c', orgId: 'org-demo', title: 'C', parent: 'col-b', defaultLevel: null });
    writeFileSync(join(dir, 'collections.yaml'), [doc('A', 'C'), doc('B', null), doc('C', null)].join('---\n'));
    const desired = await loadDesired(dir);
    const plan = await planOnce(client, desired);
    expect(plan.steps.find((s) => s.id === 'Collection/org-demo/A#move')!.dependsOn).toEqual([
      'Collection/org-demo/B#move',
      'Collection/org-demo/C#move',
    ]);
    expect((await applyPlan(client, plan)).failed).toEqual([]);
    expect(collections(sb.store).get('col-a')!.parent).toBe('col-c');
    expect((await planOnce(client, desired)).steps).toEqual([]);
  });
});
