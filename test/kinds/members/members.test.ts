import { ref } from '../../../src/model/refs.js';
import { describe, expect, it } from 'vitest';
import type { MembersManifestSpec } from '../../../src/kinds/generated/members.js';
import { membersKind } from '../../../src/kinds/members/kind.js';
import { desiredOf, fakeDiffContext, fakeDoc, plan } from '../helpers.js';
import { member, ORG, seedMembers, seedRoutes } from '../seed.js';

type M = { email: string; role?: string | null; sso?: boolean };

/** The seed's members as a manifest list, with overrides by name. */
function seedList(overrides: Record<string, Partial<M> | null> = {}): M[] {
  const out: M[] = [];
  for (const m of seedMembers()) {
    const email = (m['user'] as { email: string }).email;
    const name = email.split('@')[0]!;
    const o = overrides[name];
    if (o === null) continue;
    out.push({ email, role: m['role'] as string, ...o });
  }
  return out;
}

const desired = (members: M[], extra: Record<string, unknown> = {}) =>
  desiredOf(membersKind, [fakeDoc('Members', ORG, { members, ...extra })]);

describe('Members', () => {
  it('plans nothing when the list matches', async () => {
    const { result } = await plan(membersKind, ORG, desired(seedList()), seedRoutes());
    expect(result).toEqual({ steps: [], unmanaged: [], warnings: [], blocked: [] });
  });

  it('matches e-mails case-insensitively', async () => {
    const list = seedList().map((m) => ({ ...m, email: m.email.toUpperCase() }));
    const { result } = await plan(membersKind, ORG, desired(list), seedRoutes());
    expect(result.steps).toEqual([]);
  });

  it('changes a role with one PATCH', async () => {
    const { result } = await plan(membersKind, ORG, desired(seedList({ frank: { role: 'comment' } })), seedRoutes());
    expect(result.steps).toEqual([
      {
        id: 'Members/org-demo/frank@acme.test#update',
        action: 'update',
        phase: 'update',
        kind: 'Members',
        org: ORG,
        key: 'frank@acme.test',
        wave: 10,
        before: { role: 'read' },
        after: { role: 'comment' },
        dependsOn: [],
        requests: [{ method: 'PATCH', path: '/orgs/org-demo/members/u-frank', body: { role: 'comment' } }],
        source: { file: 'members.yaml', line: 15, column: 3 },
      },
    ]);
  });

  it('marks SSO with a POST; asked to unset it (which the API cannot), the member is blocked, not warned about', async () => {
    const routes = seedRoutes();
    const members = routes[`/orgs/${ORG}/members`] as Record<string, unknown>[];
    members[1] = member('bob', 'edit', true);
    const list = seedList({ bob: { sso: false }, carol: { sso: true, role: 'admin' } });
    const { result } = await plan(membersKind, ORG, desired(list), routes);
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0]).toMatchObject({
      key: 'carol@acme.test',
      before: { role: 'create', sso: false },
      after: { role: 'admin', sso: true },
      requests: [
        { method: 'PATCH', path: '/orgs/org-demo/members/u-carol', body: { role: 'admin' } },
        { method: 'POST', path: '/orgs/org-demo/members/u-carol/sso' },
      ],
    });
    expect(result.warnings).toEqual([]);
    expect(result.blocked).toEqual([
      {
        kind: 'Members',
        org: ORG,
        key: 'bob@acme.test',
        message:
          'is an SSO member and the API cannot unset SSO: write sso: true (or leave sso out), or unset it in the app',
        source: { file: 'members.yaml', line: 11, column: 3 },
      },
    ]);
    // Nothing of a blocked member is planned, not even a role change.
    const both = await plan(membersKind, ORG, desired(seedList({ bob: { sso: false, role: 'admin' } })), routes);
    expect(both.result.steps).toEqual([]);
    expect(both.result.blocked.map((b) => b.key)).toEqual(['bob@acme.test']);
  });

  it('blocks missing members when invites are off (the manifest says they are members; nothing makes them so)', async () => {
    const list = [...seedList(), { email: 'zoe@acme.test', role: 'read' }];
    const { result } = await plan(membersKind, ORG, desired(list), seedRoutes());
    expect(result.steps).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.blocked.map((b) => [b.key, b.message])).toEqual([
      [
        'zoe@acme.test',
        'not a member of the organization: write invite: true (or run with --invite) to invite, or remove the entry',
      ],
    ]);
  });

  it('batches all missing members into one invite request per SSO setting', async () => {
    const list = [
      ...seedList(),
      { email: 'Zoe@acme.test', role: 'read' },
      { email: 'yan@acme.test', role: 'edit' },
      { email: 'xia@acme.test', role: null },
      { email: 'wes@acme.test', role: 'read', sso: true },
    ];
    const ctx = fakeDiffContext();
    const { result } = await plan(membersKind, ORG, desired(list, { invite: true }), seedRoutes(), ctx);
    expect(result.steps.map((s) => s.id)).toEqual([
      'Members/org-demo/invite#create',
      'Members/org-demo/invite-sso#create',
    ]);
    expect(result.steps[0]).toMatchObject({
      action: 'create',
      phase: 'create',
      before: null,
      after: { members: { 'zoe@acme.test': 'read', 'yan@acme.test': 'edit', 'xia@acme.test': null }, sso: false },
      requests: [
        {
          method: 'POST',
          path: '/orgs/org-demo/invites',
          body: {
            emails: [
              { email: 'Zoe@acme.test', role: 'read' },
              { email: 'yan@acme.test', role: 'edit' },
              { email: 'xia@acme.test', role: null },
            ],
            sso: false,
          },
        },
      ],
    });
    expect(result.steps[1]!.requests[0]!.body).toEqual({
      emails: [{ email: 'wes@acme.test', role: 'read' }],
      sso: true,
    });
    expect(result.warnings).toEqual([]);
    // Later kinds learn that zoe exists only after the invite step.
    expect(ctx.resolve('Members', ORG, 'zoe@acme.test')).toBe(ref('Members/org-demo/invite#create', 'users'));
  });

  it("leaves a role not written as it is (export writes a role docops does not know that way); an invite gets the organization's default", async () => {
    const { result } = await plan(membersKind, ORG, desired(seedList({ frank: { role: undefined } })), seedRoutes());
    expect(result.steps).toEqual([]);
    const invited = await plan(
      membersKind,
      ORG,
      desired([...seedList(), { email: 'zoe@acme.test' }], { invite: true }),
      seedRoutes(),
    );
    expect(invited.result.steps[0]).toMatchObject({
      after: { members: { 'zoe@acme.test': "(the organization's default role)" } },
      requests: [{ body: { emails: [{ email: 'zoe@acme.test' }], sso: false } }],
    });
  });

  it('invites when the plan option asks for it even if the document does not', async () => {
    const list = [...seedList(), { email: 'zoe@acme.test', role: 'read' }];
    const { result } = await plan(membersKind, ORG, desired(list), seedRoutes(), fakeDiffContext({ invite: true }));
    expect(result.steps.map((s) => s.id)).toEqual(['Members/org-demo/invite#create']);
  });

  it('lists members no manifest mentions as unmanaged', async () => {
    const { result } = await plan(membersKind, ORG, desired(seedList({ ivan: null, judy: null })), seedRoutes());
    expect(result.steps).toEqual([]);
    expect(result.unmanaged).toEqual([
      { kind: 'Members', org: ORG, key: 'ivan@acme.test', id: 'u-ivan' },
      { kind: 'Members', org: ORG, key: 'judy@acme.test', id: 'u-judy' },
    ]);
  });

  it('removes them under prune, in the prune phase', async () => {
    const ctx = fakeDiffContext({ prune: ['Members'] });
    const { result } = await plan(membersKind, ORG, desired(seedList({ ivan: null })), seedRoutes(), ctx);
    expect(result.unmanaged).toEqual([]);
    expect(result.steps).toEqual([
      {
        id: 'Members/org-demo/ivan@acme.test#delete',
        action: 'delete',
        phase: 'prune',
        kind: 'Members',
        org: ORG,
        key: 'ivan@acme.test',
        wave: 10,
        before: { role: 'read' },
        after: null,
        dependsOn: [],
        requests: [{ method: 'DELETE', path: '/orgs/org-demo/members/u-ivan' }],
        note: 'remove from the organization',
      },
    ]);
  });

  it('exports a sorted list that re-diffs to zero steps', async () => {
    const routes = seedRoutes();
    (routes[`/orgs/${ORG}/members`] as Record<string, unknown>[])[2] = member('carol', 'create', true);
    const { live } = await plan(membersKind, ORG, desired(seedList()), routes);
    const [doc] = membersKind.export!(ORG, live) as { spec: { members: M[] } }[];
    expect(doc!.spec.members[0]).toEqual({ email: 'ada@acme.test', role: 'admin' });
    expect(doc!.spec.members).toContainEqual({ email: 'carol@acme.test', role: 'create', sso: true });
    const again = membersKind.diff(fakeDiffContext({ prune: ['Members'] }), ORG, desired(doc!.spec.members), live);
    expect(again).toEqual({ steps: [], unmanaged: [], warnings: [], blocked: [] });
  });

  it("looks a member's source position up only when it is read, once", () => {
    const doc = fakeDoc<MembersManifestSpec>('Members', ORG, {
      members: [
        { email: 'a@x.test', role: 'read' },
        { email: 'b@x.test', role: 'read' },
      ],
    });
    const asked: (string | number)[][] = [];
    const counting = { ...doc, pos: (path: (string | number)[]) => (asked.push(path), doc.pos(path)) };
    const entries = membersKind.toDesired(counting, () => {});
    expect(asked).toEqual([]);
    expect(entries[1]!.source).toEqual(doc.pos(['spec', 'members', 1]));
    expect(entries[1]!.source).toBe(entries[1]!.source);
    expect(asked).toEqual([['spec', 'members', 1]]);
  });
});
