/**
 * Access lists against the real sandbox over loopback HTTP: spaces, collections and a site (new ones and live
 * ones, a team created in the same plan) get their grants in one apply and the next plan is empty; removing one
 * team from a space's list removes exactly that grant (asserted on the sandbox's stored grants); a document that
 * writes no `access:` sends no permission request at all; export round-trips; the safety gate counts grant
 * deletes per kind.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import { type Plan } from '../../../src/model/plan.js';
import { placeholder } from '../../../src/model/refs.js';
import { computePlan, type PlanOptions } from '../../../src/engine/reconcile.js';
import { type LiveState } from '../../../src/model/state.js';
import { readForExport } from '../../../src/export/read-live.js';
import { KINDS } from '../../../src/kinds/index.js';
import { loadManifests } from '../../../src/manifests/index.js';
import { resolveSafetyConfig } from '../../../src/safety/config.js';
import { evaluatePlan } from '../../../src/safety/gate.js';
import { collections, spaces, teams } from '@docops/sandbox';
import { grants } from '../../../packages/sandbox/src/permission-records.js';
import { sites } from '../../../packages/sandbox/src/site-records.js';
import type { SandboxStore } from '../../../packages/sandbox/src/store.js';
import { sandboxPerTest, type SandboxRun } from '../sandbox-per-test.js';

const ORG = 'org-demo';
const start = sandboxPerTest('access');

type Doc = { kind: string; spec: Record<string, unknown>; prune?: boolean };
const doc = (kind: string, spec: Record<string, unknown>, prune?: boolean): Doc => ({
  kind,
  spec,
  ...(prune ? { prune } : {}),
});

let dirs = 0;
async function plan(
  r: SandboxRun,
  docs: readonly Doc[],
  options: PlanOptions = {},
): Promise<{ plan: Plan; live: LiveState }> {
  const dir = join(r.dir, String(dirs++));
  mkdirSync(dir);
  docs.forEach((d, i) => {
    const yaml = [
      'apiVersion: docops/v1',
      `kind: ${d.kind}`,
      `metadata: { organization: ${ORG} }`,
      ...(d.prune ? ['prune: true'] : []),
      `spec: ${JSON.stringify(d.spec)}`,
      '',
    ];
    writeFileSync(join(dir, `${i}.yaml`), yaml.join('\n'));
  });
  const { desired } = await loadManifests(dir, KINDS, { env: {} });
  return computePlan(r.client, KINDS, desired, options);
}

async function apply(r: SandboxRun, p: Plan): Promise<void> {
  const report = await applyPlan(r.client, p, { concurrency: 8 });
  expect(report.failed).toEqual([]);
}

/** The sandbox's stored grants as `<object title>/<team title | user id>=<role>`, sorted. */
function stored(store: SandboxStore): string[] {
  const title = (type: string, id: string): string =>
    (type === 'space'
      ? spaces(store).get(id)?.title
      : type === 'collection'
        ? collections(store).get(id)?.title
        : sites(store).get(id)?.title) ?? id;
  return grants(store)
    .all()
    .map(
      (g) =>
        `${g.targetType}:${title(g.targetType, g.targetId)}/${g.principalType === 'team' ? (teams(store).get(g.principalId)?.title ?? g.principalId) : g.principalId}=${g.role}`,
    )
    .sort();
}

/** The id of the space titled Onboarding in the sandbox. */
const onboarding = (r: SandboxRun): string =>
  spaces(r.sb.store)
    .all()
    .find((s) => s.title === 'Onboarding')!.id;

/** Steps as `id METHOD path body` lines. */
const lines = (p: Plan): string[] =>
  p.steps.flatMap((s) =>
    s.requests.map((q) => `${s.id} ${q.method} ${q.path}${q.body === undefined ? '' : ' ' + JSON.stringify(q.body)}`),
  );

/** A world from nothing: a new team, a new collection holding a new space, a live space, and a new site. */
const WORLD: Doc[] = [
  doc('Team', { title: 'Docs', members: [{ email: 'bob@acme.test' }] }),
  doc('Collection', {
    title: 'Handbook',
    access: [
      { team: 'Docs', role: 'admin' },
      { email: 'carol@acme.test', role: 'read' },
    ],
  }),
  doc('Space', {
    title: 'Onboarding',
    parent: 'Handbook',
    access: [
      { team: 'Docs', role: 'edit' },
      { team: 'Writers', role: 'edit' },
      { email: 'dan@acme.test', role: 'comment' },
    ],
  }),
  doc('Space', {
    title: 'API Reference',
    access: [
      { team: 'Platform', role: 'admin' },
      { team: 'team-writers', role: 'read' },
      { team: 'Support', role: 'read' },
    ],
  }),
  doc('Site', {
    title: 'Help Center',
    spaces: ['Onboarding'],
    access: [
      { team: 'Support', role: 'read' },
      { email: 'erin@acme.test', role: null },
    ],
  }),
];

describe('access lists against the sandbox', () => {
  it('grants on new and live spaces, a new collection and a new site in one apply, batched per (object, role); the next plan is empty', async () => {
    const r = await start();
    const first = await plan(r, WORLD);
    expect(first.plan.blocked).toEqual([]);
    const grantSteps = lines(first.plan).filter((l) => /Access\//.test(l));
    expect(grantSteps).toEqual([
      `CollectionAccess/org-demo/Handbook#grant-admin POST /collections/${placeholder('Collection/org-demo/Handbook#create', 'id')}/permissions {"role":"admin","teams":["${placeholder('Team/org-demo/Docs#create', 'id')}"]}`,
      `CollectionAccess/org-demo/Handbook#grant-read POST /collections/${placeholder('Collection/org-demo/Handbook#create', 'id')}/permissions {"role":"read","users":["u-carol"]}`,
      'SpaceAccess/org-demo/API Reference#grant-admin POST /spaces/sp-api/permissions {"role":"admin","teams":["team-platform"]}',
      'SpaceAccess/org-demo/API Reference#grant-read POST /spaces/sp-api/permissions {"role":"read","teams":["team-writers","team-support"]}',
      `SpaceAccess/org-demo/Onboarding#grant-comment POST /spaces/${placeholder('Space/org-demo/Onboarding#create', 'id')}/permissions {"role":"comment","users":["u-dan"]}`,
      `SpaceAccess/org-demo/Onboarding#grant-edit POST /spaces/${placeholder('Space/org-demo/Onboarding#create', 'id')}/permissions {"role":"edit","teams":["${placeholder('Team/org-demo/Docs#create', 'id')}","team-writers"]}`,
      `SiteAccess/org-demo/Help Center#grant-none POST /orgs/org-demo/sites/${placeholder('Site/org-demo/Help Center#create', 'id')}/permissions {"role":null,"users":["u-erin"]}`,
      `SiteAccess/org-demo/Help Center#grant-read POST /orgs/org-demo/sites/${placeholder('Site/org-demo/Help Center#create', 'id')}/permissions {"role":"read","teams":["team-support"]}`,
    ]);
    const byId = new Map(first.plan.steps.map((s) => [s.id, s]));
    expect(byId.get('SpaceAccess/org-demo/Onboarding#grant-edit')!.dependsOn).toEqual([
      'Space/org-demo/Onboarding#create',
      'Team/org-demo/Docs#create',
    ]);
    expect(byId.get('SpaceAccess/org-demo/API Reference#grant-read')!.dependsOn).toEqual([]);
    await apply(r, first.plan);
    expect(stored(r.sb.store)).toEqual([
      'collection:Handbook/Docs=admin',
      'collection:Handbook/u-carol=read',
      'site:Help Center/Support=read',
      'site:Help Center/u-erin=null',
      'space:API Reference/Platform=admin',
      'space:API Reference/Support=read',
      'space:API Reference/Writers=read',
      'space:Onboarding/Docs=edit',
      'space:Onboarding/Writers=edit',
      'space:Onboarding/u-dan=comment',
    ]);
    const next = await plan(r, WORLD);
    expect(next.plan.steps).toEqual([]);
    expect(next.plan.blocked).toEqual([]);
  });

  it('removing one team from a space list removes exactly that grant (one DELETE), nothing else', async () => {
    const r = await start();
    await apply(r, (await plan(r, WORLD)).plan);
    const before = stored(r.sb.store);
    const edited = WORLD.map((d) =>
      d.spec['title'] === 'API Reference'
        ? doc('Space', {
            title: 'API Reference',
            access: [
              { team: 'Platform', role: 'admin' },
              { team: 'team-writers', role: 'read' },
            ],
          })
        : d,
    );
    const p = await plan(r, edited);
    expect(
      p.plan.steps.map((s) => [
        s.id,
        s.phase,
        s.action,
        s.requests.map((q) => `${q.method} ${q.path} ${JSON.stringify(q.body ?? null)}`),
      ]),
    ).toEqual([
      [
        'SpaceAccess/org-demo/API Reference/team:Support#delete',
        'delete',
        'delete',
        ['DELETE /spaces/sp-api/permissions/teams/team-support null'],
      ],
    ]);
    r.sb.resetStats();
    await apply(r, p.plan);
    expect(
      r.sb
        .stats()
        .requests.filter((q) => q.method !== 'GET')
        .map((q) => `${q.method} ${q.path} ${q.status}`),
    ).toEqual(['DELETE /v1/spaces/sp-api/permissions/teams/team-support 205']);
    const after = stored(r.sb.store);
    expect(before.filter((g) => !after.includes(g))).toEqual(['space:API Reference/Support=read']);
    expect(after.filter((g) => !before.includes(g))).toEqual([]);
    // The team itself, and its grants elsewhere, are untouched.
    expect(teams(r.sb.store).get('team-support')).toBeDefined();
    expect(after).toContain('site:Help Center/Support=read');
    expect((await plan(r, edited)).plan.steps).toEqual([]);
  });

  it('a different role is one PATCH of that grant', async () => {
    const r = await start();
    await apply(r, (await plan(r, WORLD)).plan);
    const before = stored(r.sb.store);
    const edited = WORLD.map((d) =>
      d.spec['title'] === 'Onboarding'
        ? doc('Space', {
            ...d.spec,
            access: [
              { team: 'Docs', role: 'edit' },
              { team: 'Writers', role: 'review' },
              { email: 'DAN@acme.test', role: 'comment' },
            ],
          })
        : d,
    );
    const p = await plan(r, edited);
    expect(lines(p.plan)).toEqual([
      'SpaceAccess/org-demo/Onboarding/team:Writers#update PATCH /spaces/' +
        onboarding(r) +
        '/permissions/teams/team-writers {"role":"review"}',
    ]);
    await apply(r, p.plan);
    const after = stored(r.sb.store);
    expect(before.filter((g) => !after.includes(g))).toEqual(['space:Onboarding/Writers=edit']);
    expect(after.filter((g) => !before.includes(g))).toEqual(['space:Onboarding/Writers=review']);
    expect((await plan(r, edited)).plan.steps).toEqual([]);
  });

  it('a document without access: sends no permission request, in plan or apply, and leaves every grant as it is', async () => {
    const r = await start();
    await apply(r, (await plan(r, WORLD)).plan);
    const before = stored(r.sb.store);
    r.sb.resetStats();
    const unmanaged = WORLD.map((d) => {
      const { access: _access, ...spec } = d.spec;
      return doc(d.kind, d.spec['title'] === 'API Reference' ? { ...spec, emoji: '📗' } : spec);
    });
    const p = await plan(r, unmanaged);
    expect(p.plan.steps.map((s) => s.id)).toEqual(['Space/org-demo/API Reference#update']);
    await apply(r, p.plan);
    expect(r.sb.stats().requests.filter((q) => q.path.includes('/permissions'))).toEqual([]);
    expect(stored(r.sb.store)).toEqual(before);
  });

  it('export writes access lists (teams by title, members by e-mail) and plans no changes', async () => {
    const r = await start();
    await apply(r, (await plan(r, WORLD)).plan);
    const exported = await readForExport(r.client, KINDS, ORG);
    const docs: Doc[] = exported.flatMap((k) => k.documents.map((d) => d as Doc));
    const space = docs.find((d) => d.kind === 'Space' && d.spec['title'] === 'API Reference')!;
    expect(space.spec['access']).toEqual([
      { team: 'Platform', role: 'admin' },
      { team: 'Support', role: 'read' },
      { team: 'Writers', role: 'read' },
    ]);
    expect(docs.find((d) => d.kind === 'Site')!.spec['access']).toEqual([
      { team: 'Support', role: 'read' },
      { email: 'erin@acme.test', role: null },
    ]);
    expect(docs.find((d) => d.kind === 'Space' && d.spec['title'] === 'Changelog')!.spec['access']).toEqual([]);
    const again = await plan(r, docs);
    expect(again.plan.steps).toEqual([]);
    expect(again.plan.blocked).toEqual([]);
  });

  it('a member the plan removes takes their grants: the removal lists them as cascades, the access diff sends no DELETE', async () => {
    const r = await start();
    await apply(r, (await plan(r, WORLD)).plan);
    const everyoneBut = (who: string) =>
      ['ada', 'bob', 'carol', 'dan', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy']
        .filter((n) => n !== who)
        .map((n) => ({ email: `${n}@acme.test`, role: n === 'ada' || n === 'grace' ? 'admin' : 'read' }));
    const docs = [
      doc('Members', { members: everyoneBut('carol') }, true),
      ...WORLD.map((d) =>
        d.spec['title'] === 'Handbook'
          ? doc('Collection', { title: 'Handbook', access: [{ team: 'Docs', role: 'admin' }] })
          : d,
      ),
    ];
    const p = await plan(r, docs);
    expect(p.plan.blocked).toEqual([]);
    const removal = p.plan.steps.find((s) => s.id === 'Members/org-demo/carol@acme.test#delete')!;
    expect(removal.cascades).toEqual([
      { kind: 'TeamMember', org: ORG, key: 'Platform/carol@acme.test' },
      { kind: 'CollectionAccess', org: ORG, key: 'Handbook/user:carol@acme.test' },
    ]);
    expect(p.plan.steps.filter((s) => s.kind.endsWith('Access'))).toEqual([]);
    const before = stored(r.sb.store);
    await apply(r, p.plan);
    expect(before.filter((g) => !stored(r.sb.store).includes(g))).toEqual(['collection:Handbook/u-carol=read']);
  });

  it('a team an access list names is never pruned (--prune Team): its delete is blocked, naming the list', async () => {
    const r = await start();
    await apply(r, (await plan(r, WORLD)).plan);
    const { plan: p } = await plan(r, WORLD, { prune: { Team: true } });
    expect(p.steps.filter((s) => s.kind === 'Team')).toEqual([]);
    expect(
      p.blocked.filter((b) => b.kind === 'Team').map((b) => [b.key, b.message.replace(/\(\/.*?\)/, '(…)')]),
    ).toEqual(
      ['Platform', 'Writers', 'Support'].map((t) => [
        t,
        'not deleted (prune): an access list grants it a role (…), and the grant would go with the team; describe the team in a Team manifest, or take it out of that access list',
      ]),
    );
    // Where the list names it (Writers by id in API Reference's list).
    expect(p.blocked.find((b) => b.key === 'Writers')!.source).toMatchObject({ line: 4, column: 85 });
    expect(p.blocked.find((b) => b.key === 'Writers')!.source!.file).toMatch(/3\.yaml$/);
  });

  it('the safety gate measures grant deletes against each space’s list, and caps them per kind (SpaceAccess)', async () => {
    const r = await start();
    await apply(r, (await plan(r, WORLD)).plan);
    const emptied = WORLD.map((d) => (d.kind === 'Space' ? doc('Space', { ...d.spec, access: [] }) : d));
    const { plan: p, live } = await plan(r, emptied);
    expect(p.steps.filter((s) => s.kind === 'SpaceAccess').map((s) => s.action)).toEqual(Array(6).fill('delete'));
    const config = resolveSafetyConfig({ kinds: { SpaceAccess: { deletes: { max: 5 } } } });
    const { blocking } = evaluatePlan(p, live, KINDS, { config, force: false, desiredCount: 5 });
    // Each space's list of 3 is emptied (one refusal each, naming the space); the 6 deletes together pass the cap of 5.
    expect(blocking.map((v) => [v.rule, v.kind, v.message.slice(0, v.message.indexOf(':'))])).toEqual([
      ['empty-list', 'SpaceAccess', 'SpaceAccess of Space "API Reference" in org-demo'],
      ['empty-list', 'SpaceAccess', 'SpaceAccess of Space "Onboarding" in org-demo'],
      ['delete-cap', 'SpaceAccess', 'SpaceAccess in org-demo'],
    ]);
  });
});
