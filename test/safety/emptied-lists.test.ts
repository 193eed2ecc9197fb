/**
 * A written list that empties one object's sub-objects (`access: []`, a team's `members: []`), against the sandbox.
 * The gate used to measure a collection's grants against the grants of every object whose list it read (a scoped
 * read), so `access: []` on the only such collection was "deletes all 3 live objects" — refused with no way through
 * but a config meant for emptied manifest directories — while the same list beside a second, untouched one passed,
 * and a team's `members: []` was never counted at all. Now each object's list is its own population: emptying it
 * is `empty-list`, lifted by `allowEmpty: true` in its document or the config's `safety.kinds.<Kind>.allowEmpty`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import { computePlan } from '../../src/engine/reconcile.js';
import type { DesiredState } from '../../src/model/state.js';
import { KINDS } from '../../src/kinds/index.js';
import { resolveSafetyConfig } from '../../src/safety/config.js';
import { countDesired, evaluatePlan } from '../../src/safety/gate.js';
import { teamMembers } from '../../packages/sandbox/src/records.js';
import { grantKey, grants, type GrantTarget } from '../../packages/sandbox/src/permission-records.js';
import type { SandboxStore } from '../../packages/sandbox/src/store.js';
import { loadDesired } from '../helpers/pipeline.js';
import { sandboxPerTest, type SandboxRun } from '../kinds/sandbox-per-test.js';

const ORG = 'org-demo';
const TEAMS = ['team-platform', 'team-writers', 'team-support'];
const start = sandboxPerTest('emptied-lists');

/** Three team grants on a live collection, straight into the sandbox's store. */
function grantAll(store: SandboxStore, targetType: GrantTarget, targetId: string): void {
  for (const team of TEAMS)
    grants(store).put({
      id: grantKey(targetType, targetId, 'team', team),
      orgId: ORG,
      targetType,
      targetId,
      principalType: 'team',
      principalId: team,
      role: 'read',
    });
}

const grantsOn = (store: SandboxStore, targetId: string): number =>
  grants(store).where((g) => g.targetId === targetId).length;

function collectionDoc(title: string, id: string, access: string, head: string[] = []): string {
  return (
    [
      'apiVersion: docops/v1',
      'kind: Collection',
      `metadata: { organization: ${ORG} }`,
      ...head,
      'spec:',
      `  title: ${title}`,
      `  id: ${id}`,
      `  access: ${access}`,
    ].join('\n') + '\n'
  );
}

const KEEP = '[{ team: Platform, role: read }, { team: Writers, role: read }, { team: Support, role: read }]';

async function gate(r: SandboxRun, desired: DesiredState, over: { force?: boolean; safety?: unknown } = {}) {
  const { plan, live } = await computePlan(r.client, KINDS, desired);
  const result = evaluatePlan(plan, live, KINDS, {
    config: resolveSafetyConfig(over.safety ?? {}),
    force: over.force ?? false,
    desiredCount: countDesired(desired),
    desired,
  });
  return { plan, ...result };
}

describe('an emptied access list', () => {
  it('is refused as emptying that collection’s list, with or without --force, naming allowEmpty and the config key', async () => {
    const r = await start();
    grantAll(r.sb.store, 'collection', 'col-product');
    writeFileSync(join(r.dir, 'col.yaml'), collectionDoc('Product docs', 'col-product', '[]'));
    const desired = await loadDesired(r.dir);
    for (const force of [false, true]) {
      const { plan, blocking } = await gate(r, desired, { force });
      expect(plan.steps.map((s) => [s.kind, s.action])).toEqual(Array(3).fill(['CollectionAccess', 'delete']));
      expect(blocking.map((v) => [v.rule, v.kind, v.overridable])).toEqual([['empty-list', 'CollectionAccess', false]]);
      expect(blocking[0]!.message).toContain(
        'CollectionAccess of Collection "Product docs" in org-demo: plan deletes all 3 of its live objects',
      );
      expect(blocking[0]!.message).toContain(
        `write allowEmpty: true in the Collection document (${join(r.dir, 'col.yaml')}:1:1)`,
      );
      expect(blocking[0]!.message).toContain('safety.kinds.CollectionAccess.allowEmpty: true');
    }
  });

  it('passes with allowEmpty: true in the document (shown on the plan’s steps), and apply empties the list', async () => {
    const r = await start();
    grantAll(r.sb.store, 'collection', 'col-product');
    writeFileSync(join(r.dir, 'col.yaml'), collectionDoc('Product docs', 'col-product', '[]', ['allowEmpty: true']));
    const desired = await loadDesired(r.dir);
    const { plan, blocking } = await gate(r, desired);
    expect(blocking).toEqual([]);
    expect(plan.steps.map((s) => s.note)).toEqual(
      Array(3).fill(
        expect.stringContaining(
          'deletes all 3 entries of the access list of collection "Product docs" (allowEmpty: true)',
        ),
      ),
    );
    expect((await applyPlan(r.client, plan)).failed).toEqual([]);
    expect(grantsOn(r.sb.store, 'col-product')).toBe(0);
  });

  it('without allowEmpty the plan says apply refuses it', async () => {
    const r = await start();
    grantAll(r.sb.store, 'collection', 'col-product');
    writeFileSync(join(r.dir, 'col.yaml'), collectionDoc('Product docs', 'col-product', '[]'));
    const { plan } = await gate(r, await loadDesired(r.dir));
    expect(plan.steps[0]!.note).toContain(
      'apply refuses this unless the document says allowEmpty: true (or the config safety.kinds.CollectionAccess.allowEmpty: true)',
    );
  });

  it('passes with safety.kinds.CollectionAccess.allowEmpty (or allowPruneAll) in the config', async () => {
    const r = await start();
    grantAll(r.sb.store, 'collection', 'col-product');
    writeFileSync(join(r.dir, 'col.yaml'), collectionDoc('Product docs', 'col-product', '[]'));
    const desired = await loadDesired(r.dir);
    expect(
      (await gate(r, desired, { safety: { kinds: { CollectionAccess: { allowEmpty: true } } } })).blocking,
    ).toEqual([]);
    expect(
      (await gate(r, desired, { safety: { kinds: { CollectionAccess: { allowPruneAll: true } } } })).blocking,
    ).toEqual([]);
    // Another sub-kind's setting does not lift it.
    expect(
      (await gate(r, desired, { safety: { kinds: { SpaceAccess: { allowEmpty: true } } } })).blocking.map(
        (v) => v.rule,
      ),
    ).toEqual(['empty-list']);
  });

  it('is refused whatever other lists were read: one collection emptied beside one kept', async () => {
    const r = await start();
    grantAll(r.sb.store, 'collection', 'col-product');
    grantAll(r.sb.store, 'collection', 'col-internal');
    writeFileSync(
      join(r.dir, 'col.yaml'),
      collectionDoc('Product docs', 'col-product', '[]') + '---\n' + collectionDoc('Internal', 'col-internal', KEEP),
    );
    const { plan, blocking } = await gate(r, await loadDesired(r.dir));
    expect(plan.steps).toHaveLength(3);
    expect(blocking.map((v) => [v.rule, v.kind])).toEqual([['empty-list', 'CollectionAccess']]);
    expect(blocking[0]!.message).toContain('Collection "Product docs"');
  });

  it('removing some of a list’s grants is no emptying, and a list of one may go', async () => {
    const r = await start();
    grantAll(r.sb.store, 'collection', 'col-product');
    writeFileSync(
      join(r.dir, 'col.yaml'),
      collectionDoc('Product docs', 'col-product', '[{ team: Platform, role: read }]'),
    );
    const some = await gate(r, await loadDesired(r.dir));
    expect(some.plan.steps).toHaveLength(2);
    expect(some.blocking).toEqual([]);
    expect((await applyPlan(r.client, some.plan)).failed).toEqual([]);
    writeFileSync(join(r.dir, 'col.yaml'), collectionDoc('Product docs', 'col-product', '[]'));
    const last = await gate(r, await loadDesired(r.dir));
    expect(last.plan.steps).toHaveLength(1);
    expect(last.blocking).toEqual([]);
  });
});

describe('an emptied team member list', () => {
  const teamDoc = (members: string, head: string[] = []): string =>
    [
      'apiVersion: docops/v1',
      'kind: Team',
      `metadata: { organization: ${ORG} }`,
      ...head,
      'spec:',
      '  title: Platform',
      '  id: team-platform',
      `  members: ${members}`,
    ].join('\n') + '\n';
  const platform = (store: SandboxStore): number =>
    teamMembers(store).where((m) => m.teamId === 'team-platform').length;

  it('counts each removed membership against that team’s members, and refuses emptying it unless allowEmpty', async () => {
    const r = await start();
    expect(platform(r.sb.store)).toBe(3);
    writeFileSync(join(r.dir, 'team.yaml'), teamDoc('[]'));
    const { plan, blocking } = await gate(r, await loadDesired(r.dir), { force: true });
    expect(plan.steps.map((s) => s.id)).toEqual(['Team/org-demo/Platform#members']);
    expect(plan.steps[0]!.cascades?.map((c) => c.key)).toEqual([
      'Platform/ada@acme.test',
      'Platform/bob@acme.test',
      'Platform/carol@acme.test',
    ]);
    expect(blocking.map((v) => [v.rule, v.kind])).toEqual([['empty-list', 'TeamMember']]);
    expect(blocking[0]!.message).toContain(
      'TeamMember of Team "Platform" in org-demo: plan deletes all 3 of its live objects',
    );
    expect(blocking[0]!.message).toContain('allowEmpty: true in the Team document');

    writeFileSync(join(r.dir, 'team.yaml'), teamDoc('[]', ['allowEmpty: true']));
    const allowed = await gate(r, await loadDesired(r.dir));
    expect(allowed.blocking).toEqual([]);
    expect(allowed.plan.steps[0]!.note).toContain(
      'deletes all 3 entries of the member list of team "Platform" (allowEmpty: true)',
    );
    expect((await applyPlan(r.client, allowed.plan)).failed).toEqual([]);
    expect(platform(r.sb.store)).toBe(0);
  });

  it('a member removed from a managed team counts as a TeamMember delete of that team', async () => {
    const r = await start();
    writeFileSync(
      join(r.dir, 'team.yaml'),
      teamDoc('[{ email: ada@acme.test, role: owner }, { email: bob@acme.test }]'),
    );
    const { plan, blocking } = await gate(r, await loadDesired(r.dir), {
      safety: { kinds: { TeamMember: { deletes: { max: 0 } } } },
    });
    expect(plan.steps[0]!.cascades?.map((c) => c.key)).toEqual(['Platform/carol@acme.test']);
    expect(blocking.map((v) => [v.rule, v.kind])).toEqual([['delete-cap', 'TeamMember']]);
  });
});
