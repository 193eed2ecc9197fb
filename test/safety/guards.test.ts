import { describe, expect, it } from 'vitest';
import type { KindDefinition, LiveKindState } from '../../src/model/kind.js';
import { emptyPlan, type Plan } from '../../src/model/plan.js';
import { diffAll } from '../../src/engine/reconcile.js';
import { liveKey, type LiveState } from '../../src/model/state.js';
import type { MembersManifestSpec } from '../../src/kinds/generated/members.js';
import { membersKind } from '../../src/kinds/index.js';
import { checkPlan } from '../../src/safety/gate.js';
import { memberGuards } from '../../src/kinds/members/guard.js';
import type { MembersState } from '../../src/kinds/members/model.js';
import { changeStep, fakeKind, gateOpts, manifest, obj } from './helpers.js';

describe('kind guards in the gate', () => {
  it('calls each guard once per org the kind has live state for, and surfaces messages as non-overridable', () => {
    const calls: { org: string; n: number; whoami: unknown }[] = [];
    const guarded = fakeKind('Thing', {
      guard: (_plan, live, org, whoami) => {
        calls.push({ org, n: live.objects.length, whoami });
        return org === 'o2' ? ['never does the bad thing'] : [];
      },
    });
    const live: LiveState = new Map<string, LiveKindState>([
      [liveKey('Thing', 'o1'), { objects: [obj('Thing', 'o1', 'a')] }],
      [liveKey('Thing', 'o2'), { objects: [obj('Thing', 'o2', 'a'), obj('Thing', 'o2', 'b')] }],
      [liveKey('Other', 'o3'), { objects: [] }],
    ]);
    const whoami = { id: 'u1', email: 'me@x.io' };
    for (const force of [false, true]) {
      calls.length = 0;
      const vs = checkPlan(emptyPlan(), live, [guarded, fakeKind('Other')], gateOpts({ force, whoami }));
      expect(vs).toEqual([
        {
          rule: 'guard',
          kind: 'Thing',
          org: 'o2',
          overridable: false,
          message: 'Thing in o2: never does the bad thing',
        },
      ]);
      expect(calls).toEqual([
        { org: 'o1', n: 1, whoami },
        { org: 'o2', n: 2, whoami },
      ]);
    }
  });
});

const member = (email: string, role: string | null, id = `u-${email.split('@')[0]}`) =>
  obj('Members', 'o1', email, { email, role, sso: false }, id);
const membersLive = (...ms: ReturnType<typeof member>[]): MembersState => ({ objects: ms });
const planOf = (...steps: Plan['steps']): Plan => ({ ...emptyPlan(), steps });
const remove = (email: string) => changeStep('Members', 'o1', email, 'prune', { before: { role: 'admin' } });
const setRole = (email: string, from: string | null, to: string | null) =>
  changeStep('Members', 'o1', email, 'update', { before: { role: from }, after: { role: to } });

describe('member guards', () => {
  const live = membersLive(member('ann@x.io', 'admin'), member('bob@x.io', 'admin'), member('cy@x.io', 'edit'));

  it('allows removing or demoting one of two admins', () => {
    expect(memberGuards(planOf(remove('ann@x.io')), live, 'o1', undefined)).toEqual([]);
    expect(memberGuards(planOf(setRole('bob@x.io', 'admin', 'read')), live, 'o1', undefined)).toEqual([]);
  });

  it('never removes or demotes the last admin', () => {
    const msgs = memberGuards(planOf(remove('ann@x.io'), setRole('bob@x.io', 'admin', 'edit')), live, 'o1', undefined);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toContain('never removes or demotes the last admin');
    expect(msgs[0]).toContain('removes ann@x.io, demotes bob@x.io to edit');
  });

  it('counts a member promoted to admin in the same plan', () => {
    const plan = planOf(remove('ann@x.io'), setRole('bob@x.io', 'admin', 'edit'), setRole('cy@x.io', 'edit', 'admin'));
    expect(memberGuards(plan, live, 'o1', undefined)).toEqual([]);
  });

  it('ignores steps of other orgs and kinds', () => {
    const other = { ...remove('ann@x.io'), org: 'o2' };
    const team = { ...remove('bob@x.io'), kind: 'Team' };
    expect(memberGuards(planOf(other, team, remove('ann@x.io')), live, 'o1', undefined)).toEqual([]);
  });

  it("never removes the token's own user, found by id or by e-mail", () => {
    const byId = memberGuards(planOf(changeStep('Members', 'o1', 'cy@x.io', 'prune')), live, 'o1', { id: 'u-cy' });
    expect(byId).toEqual([
      "never removes the token's own user (cy@x.io): docops would lock itself out of the organization; keep them in the Members manifest, or apply with another admin's token",
    ]);
    const byEmail = memberGuards(planOf(changeStep('Members', 'o1', 'cy@x.io', 'prune')), live, 'o1', {
      id: 'not-listed',
      email: 'CY@x.io',
    });
    expect(byEmail).toHaveLength(1);
    expect(memberGuards(planOf(changeStep('Members', 'o1', 'cy@x.io', 'prune')), live, 'o1', { id: 'u-ann' })).toEqual(
      [],
    );
  });

  it("never demotes the token's own user, but may promote it", () => {
    expect(memberGuards(planOf(setRole('cy@x.io', 'edit', 'read')), live, 'o1', { id: 'u-cy' })).toEqual([
      "never demotes the token's own user (cy@x.io) from edit to read: docops would lose the rights it runs with; keep their role in the Members manifest, or apply with another admin's token",
    ]);
    expect(memberGuards(planOf(setRole('cy@x.io', 'edit', null)), live, 'o1', { id: 'u-cy' })[0]).toContain(
      'from edit to no role',
    );
    expect(memberGuards(planOf(setRole('cy@x.io', 'edit', 'admin')), live, 'o1', { id: 'u-cy' })).toEqual([]);
  });

  it("never changes the token's own user from a role docops does not know: it cannot tell a demotion", () => {
    const newer = membersLive(member('ann@x.io', 'admin'), member('cy@x.io', 'owner'));
    expect(memberGuards(planOf(setRole('cy@x.io', 'owner', 'admin')), newer, 'o1', { id: 'u-cy' })).toEqual([
      "never changes the token's own user (cy@x.io) from a role docops does not know (owner) to admin: it may take rights docops runs with; change it in the app, or apply with another admin's token",
    ]);
    // Another member's is a change like any other.
    expect(memberGuards(planOf(setRole('cy@x.io', 'owner', 'admin')), newer, 'o1', { id: 'u-ann' })).toEqual([]);
  });

  it('reads the steps the real Members diff produces', () => {
    const guardedMembers: KindDefinition = { ...membersKind, guard: memberGuards };
    const orgLive = membersLive(
      member('ann@x.io', 'admin', 'u1'),
      member('bob@x.io', 'edit', 'u2'),
      member('cy@x.io', 'read', 'u3'),
    );
    const live: LiveState = new Map([[liveKey('Members', 'o1'), orgLive]]);
    // The manifest demotes the only admin and drops bob (the token's user) under prune.
    const doc = manifest<MembersManifestSpec>(
      'Members',
      'o1',
      {
        members: [
          { email: 'Ann@x.io', role: 'edit' },
          { email: 'cy@x.io', role: 'read' },
        ],
      },
      true,
    );
    const desired = new Map([['Members', membersKind.toDesired(doc, () => {})]]);
    const plan = diffAll([guardedMembers], desired, live);
    expect(plan.steps.map((s) => s.id).sort()).toEqual(['Members/o1/ann@x.io#update', 'Members/o1/bob@x.io#delete']);
    for (const force of [false, true]) {
      const vs = checkPlan(plan, live, [guardedMembers], gateOpts({ force, whoami: { id: 'u2' } }));
      expect(vs.map((v) => `${v.rule}:${v.overridable}`)).toEqual(['guard:false', 'guard:false']);
      expect(vs[0]!.message).toContain('Members in o1: never removes or demotes the last admin');
      expect(vs[1]!.message).toContain("never removes the token's own user (bob@x.io)");
    }
  });
});
