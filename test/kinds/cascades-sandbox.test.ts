/**
 * Every cascading delete against the real sandbox over loopback HTTP: a world is built through docops itself
 * (nested collections, spaces, two sites with sections, a group, share links and adaptive schemas, the demo
 * teams and members), then a prune plan is applied. The sandbox's objects are snapshotted before and after, and
 * the set of objects that disappeared must equal EXACTLY the plan's delete steps plus their cascades — nothing
 * vanishes that the plan did not list — and the managed objects survive. Deleted spaces are purged 7 days later
 * (by the sandbox's clock): what goes then must equal what the plan listed as going at the purge.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import { applyPlan } from '../../src/engine/apply.js';
import { cascadesOf, objectIdentity } from '../../src/engine/cascades.js';
import type { CascadeObject, Plan } from '../../src/model/plan.js';
import { computePlan, type PlanOptions } from '../../src/engine/reconcile.js';
import type { LiveState } from '../../src/model/state.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import { resolveSafetyConfig } from '../../src/safety/config.js';
import { evaluatePlan } from '../../src/safety/gate.js';
import {
  collections,
  members,
  spaces,
  startSandbox,
  teamMembers,
  teams,
  translations,
  users,
  type RunningSandbox,
  type SandboxStore,
} from '@docops/sandbox';
import {
  siteSections,
  siteSectionGroups,
  siteShareLinks,
  siteSpaces,
  sites,
} from '../../packages/sandbox/src/site-records.js';
import { fastClient, tempDir } from '../helpers/pipeline.js';

const ORG = 'org-demo';
const DAY = 24 * 60 * 60 * 1000;
const SCHEMA = { type: 'object', additionalProperties: false, properties: { beta: { type: 'boolean' } } };

type Doc = { kind: string; spec: Record<string, unknown>; prune?: boolean };
const doc = (kind: string, spec: Record<string, unknown>, prune?: boolean): Doc => ({
  kind,
  spec,
  ...(prune ? { prune } : {}),
});

/**
 * The world on top of the demo seed: collection Archive inside Internal; spaces Playbook and Status in Internal,
 * Old notes in Archive; site Help (guides: Getting Started, Changelog; internal: Runbooks, Status; notes: Old
 * notes; group Team = internal + notes; share link partners; a claim) and site Old site (root: Changelog; share
 * link x; a claim).
 */
const WORLD: Doc[] = [
  doc('Collection', { title: 'Product docs' }),
  doc('Collection', { title: 'Internal' }),
  doc('Collection', { title: 'Archive', parent: 'Internal' }),
  ...['Getting Started', 'API Reference', 'Runbooks', 'Changelog'].map((title) => doc('Space', { title })),
  doc('Space', { title: 'Playbook', parent: 'Internal' }),
  doc('Space', { title: 'Status', parent: 'Internal' }),
  doc('Space', { title: 'Old notes', parent: 'Archive' }),
  doc('Site', {
    title: 'Help',
    sections: [
      { path: 'guides', title: 'Guides', spaces: ['Getting Started', 'Changelog'] },
      { path: 'internal', title: 'Internal', spaces: ['Runbooks', 'Status'] },
      { path: 'notes', title: 'Notes', spaces: ['Old notes'] },
    ],
    sectionGroups: [{ title: 'Team', sections: ['internal', 'notes'] }],
    shareLinks: [{ name: 'partners' }],
    adaptiveSchema: SCHEMA,
  }),
  doc('Site', { title: 'Old site', spaces: ['Changelog'], shareLinks: [{ name: 'x' }], adaptiveSchema: SCHEMA }),
];

interface Run {
  sb: RunningSandbox;
  client: ApiClient;
  dir: string;
  /** Advance the sandbox's clock. */
  advance: (ms: number) => void;
}

const running: Run[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.client.close();
    await r.sb.close();
    rmSync(r.dir, { recursive: true, force: true });
  }
});

async function start(): Promise<Run> {
  let now = Date.UTC(2025, 0, 1);
  const sb = await startSandbox({ now: () => new Date(now) });
  const r: Run = { sb, client: fastClient(sb), dir: tempDir('cascades'), advance: (ms) => void (now += ms) };
  running.push(r);
  const world = await converge(r, WORLD);
  expect(world.failed).toEqual([]);
  return r;
}

/** Write the documents (only them) and plan; the plan, the live state it came from. */
async function plan(r: Run, docs: Doc[], options: PlanOptions = {}): Promise<{ plan: Plan; live: LiveState }> {
  const dir = join(r.dir, String(Date.now()) + Math.random().toString(36).slice(2));
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

async function converge(r: Run, docs: Doc[]): Promise<{ failed: unknown[]; next: Plan }> {
  const { plan: p } = await plan(r, docs);
  const report = await applyPlan(r.client, p, { concurrency: 8 });
  return { failed: report.failed, next: (await plan(r, docs)).plan };
}

/** Every object the sandbox holds that a delete could take, as `table:id` (spaces only while not deleted). */
function snapshot(store: SandboxStore): Set<string> {
  const out = new Set<string>();
  for (const x of collections(store).all()) out.add(`collection:${x.id}`);
  for (const x of spaces(store).all()) if (x.deletedAt === undefined) out.add(`space:${x.id}`);
  for (const x of teams(store).all()) out.add(`team:${x.id}`);
  for (const x of teamMembers(store).all()) out.add(`membership:${x.teamId}/${x.userId}`);
  for (const x of members(store).all()) out.add(`member:${x.userId}`);
  for (const x of translations(store).all()) out.add(`translation:${x.id}`);
  for (const x of sites(store).all()) {
    out.add(`site:${x.id}`);
    if (Object.keys((x.adaptiveSchema['properties'] as object | undefined) ?? {}).length > 0)
      out.add(`adaptiveSchema:${x.id}`);
  }
  for (const x of siteSections(store).all()) out.add(`section:${x.id}`);
  for (const x of siteSectionGroups(store).all()) out.add(`group:${x.id}`);
  for (const x of siteSpaces(store).all()) out.add(`siteSpace:${x.id}`);
  for (const x of siteShareLinks(store).all()) out.add(`shareLink:${x.id}`);
  return out;
}

const minus = (a: Set<string>, b: Set<string>): string[] => [...a].filter((x) => !b.has(x)).sort();

const PATHS: [RegExp, string][] = [
  [/^\/collections\/([^/]+)$/, 'collection'],
  [/^\/spaces\/([^/]+)$/, 'space'],
  [/^\/orgs\/[^/]+\/teams\/([^/]+)$/, 'team'],
  [/^\/orgs\/[^/]+\/members\/([^/]+)$/, 'member'],
  [/^\/orgs\/[^/]+\/translations\/([^/]+)$/, 'translation'],
  [/^\/orgs\/[^/]+\/sites\/([^/]+)$/, 'site'],
  [/^\/orgs\/[^/]+\/sites\/[^/]+\/sections\/([^/]+)$/, 'section'],
  [/^\/orgs\/[^/]+\/sites\/[^/]+\/section-groups\/([^/]+)$/, 'group'],
  [/^\/orgs\/[^/]+\/sites\/[^/]+\/site-spaces\/([^/]+)$/, 'siteSpace'],
  [/^\/orgs\/[^/]+\/sites\/[^/]+\/share-links\/([^/]+)$/, 'shareLink'],
];
const TABLE: Record<string, string> = {
  Space: 'space',
  Collection: 'collection',
  SiteSection: 'section',
  SiteSectionGroup: 'group',
  SiteSpace: 'siteSpace',
  SiteShareLink: 'shareLink',
};

const atPurge = (c: CascadeObject): boolean => c.note?.includes('purged') === true;

/** The sandbox identity of a cascaded object (memberships and adaptive schemas looked up in the store). */
function cascadeIdentity(store: SandboxStore, c: CascadeObject): string {
  if (c.kind === 'TeamMember') {
    const [title, email] = [c.key.slice(0, c.key.lastIndexOf('/')), c.key.slice(c.key.lastIndexOf('/') + 1)];
    const team = teams(store)
      .all()
      .find((t) => t.title === title)!;
    const user = users(store)
      .all()
      .find((u) => u.email === email)!;
    return `membership:${team.id}/${user.id}`;
  }
  if (c.kind === 'SiteAdaptiveSchema')
    return `adaptiveSchema:${
      sites(store)
        .all()
        .find((s) => s.title === c.key)!.id
    }`;
  const table = TABLE[c.kind];
  if (!table || c.id === undefined) throw new Error(`no sandbox identity for cascade ${JSON.stringify(c)}`);
  return `${table}:${c.id}`;
}

/**
 * What the plan says disappears: its delete steps' objects and their cascades (those at the purge only when
 * `purge`). A site's adaptive schema goes with its site.
 */
function planned(p: Plan, store: SandboxStore, purge: boolean): string[] {
  const out = new Set<string>();
  for (const s of p.steps) {
    if (s.action !== 'delete') continue;
    for (const r of s.requests) {
      if (r.method !== 'DELETE') continue;
      const hit = PATHS.find(([re]) => re.test(r.path));
      if (!hit) throw new Error(`unmapped delete ${r.path}`);
      out.add(`${hit[1]}:${decodeURIComponent(hit[0].exec(r.path)![1]!)}`);
    }
    for (const c of s.cascades ?? []) if (purge || !atPurge(c)) out.add(cascadeIdentity(store, c));
  }
  return [...out].sort();
}

/** Apply a prune plan; what disappeared at once and after the purge, against what the plan listed. */
async function pruneAndCompare(r: Run, docs: Doc[], options: PlanOptions = {}) {
  const { plan: p, live } = await plan(r, docs, options);
  const before = snapshot(r.sb.store);
  const expectedNow = planned(p, r.sb.store, false);
  const expectedAfterPurge = planned(p, r.sb.store, true);
  const report = await applyPlan(r.client, p, { concurrency: 8 });
  expect(report.failed).toEqual([]);
  const now = minus(before, snapshot(r.sb.store));
  r.advance(8 * DAY);
  await r.client.listAll(`/orgs/${ORG}/spaces`); // the sandbox purges expired spaces on its next space read
  const afterPurge = minus(before, snapshot(r.sb.store));
  // Never listed as left alone: an object a cascade takes.
  const cascaded = new Set(cascadesOf(p.steps).map((c) => objectIdentity(c)));
  expect(p.unmanaged.filter((u) => cascaded.has(objectIdentity(u)))).toEqual([]);
  return { plan: p, live, now, afterPurge, expectedNow, expectedAfterPurge };
}

const id = {
  space: (store: SandboxStore, title: string): string =>
    `space:${
      spaces(store)
        .all()
        .find((s) => s.title === title)!.id
    }`,
  collection: (store: SandboxStore, title: string): string =>
    `collection:${
      collections(store)
        .all()
        .find((s) => s.title === title)!.id
    }`,
};

describe('every object a prune plan deletes is in the plan, and nothing else disappears', () => {
  it('collections: nested collections, the spaces inside, their site spaces at the purge; managed spaces are moved out first', async () => {
    const r = await start();
    const store = r.sb.store;
    const managed = [id.space(store, 'Playbook'), id.space(store, 'Status'), id.collection(store, 'Product docs')];
    const taken = [
      id.collection(store, 'Archive'),
      id.collection(store, 'Internal'),
      id.space(store, 'Old notes'),
      id.space(store, 'Runbooks'),
    ].sort();
    const result = await pruneAndCompare(r, [
      doc('Collection', { title: 'Product docs' }, true),
      // Described, no parent written: moved to the top level before Internal goes.
      doc('Space', { title: 'Playbook' }),
      // Help shows Status (not described by a Space manifest): moved out too. Runbooks it no longer shows.
      doc('Site', {
        title: 'Help',
        sections: [
          { path: 'guides', title: 'Guides', spaces: ['Getting Started', 'Changelog'] },
          { path: 'internal', title: 'Internal', spaces: ['Status'] },
        ],
      }),
    ]);
    const { plan: p, now, afterPurge, expectedNow, expectedAfterPurge } = result;
    expect(p.blocked).toEqual([]);
    expect(p.steps.filter((s) => s.id.endsWith('#move')).map((s) => s.id)).toEqual([
      'Space/org-demo/Playbook#move',
      'Space/org-demo/Status#move',
    ]);
    expect(now).toEqual(expectedNow);
    expect(now).toEqual(taken);
    expect(afterPurge).toEqual(expectedAfterPurge);
    // At the purge: Runbooks' and Old notes' site spaces, and the notes section that only showed Old notes.
    expect(afterPurge.length - now.length).toBe(3);
    expect(afterPurge.filter((x) => managed.includes(x))).toEqual([]);
    // The gate counts the spaces as deletes of their kind (2 of 7 live spaces).
    const gate = evaluatePlan(p, result.live, KINDS, {
      config: resolveSafetyConfig({ deletes: { fraction: 0.25, minLive: 7 } }),
      force: false,
      desiredCount: 3,
    });
    expect(gate.blocking.map((v) => `${v.rule}:${v.kind}`)).toEqual(['delete-fraction:Space']);
  });

  it('sites: everything below a deleted site (sections, group, site spaces, share link, adaptive schema)', async () => {
    const r = await start();
    const {
      plan: p,
      now,
      afterPurge,
      expectedNow,
      expectedAfterPurge,
    } = await pruneAndCompare(r, [doc('Site', { title: 'Old site' }, true)]);
    expect(p.steps.map((s) => s.id)).toEqual(['Site/org-demo/Help#delete']);
    expect(now).toEqual(expectedNow);
    expect(now.map((x) => x.split(':')[0]).sort()).toEqual([
      'adaptiveSchema',
      'group',
      'section',
      'section',
      'section',
      'shareLink',
      'site',
      'siteSpace',
      'siteSpace',
      'siteSpace',
      'siteSpace',
      'siteSpace',
    ]);
    expect(afterPurge).toEqual(expectedAfterPurge);
    expect(afterPurge).toEqual(now);
  });

  it('sections: a deleted section takes its site spaces, except one the manifest moves to another section', async () => {
    const r = await start();
    const {
      plan: p,
      now,
      expectedNow,
    } = await pruneAndCompare(r, [
      doc(
        'Site',
        {
          title: 'Help',
          sections: [
            { path: 'guides', title: 'Guides', spaces: ['Getting Started', 'Changelog', 'Runbooks'] },
            { path: 'notes', title: 'Notes', spaces: ['Old notes'] },
          ],
          sectionGroups: [],
        },
        true,
      ),
      doc('Site', { title: 'Old site' }),
    ]);
    const section = p.steps.find((s) => s.id === 'SiteSection/org-demo/Help/internal#delete')!;
    expect(section.cascades?.map((c) => c.key)).toEqual(['Help/internal/Status']);
    expect(section.dependsOn).toEqual(['Site/org-demo/Help#order']);
    expect(now).toEqual(expectedNow);
    expect(now.map((x) => x.split(':')[0]).sort()).toEqual(['group', 'section', 'siteSpace']);
    // Runbooks' site space survived, now in guides.
    const runbooks = siteSpaces(r.sb.store)
      .all()
      .find(
        (x) =>
          x.spaceId ===
          spaces(r.sb.store)
            .all()
            .find((s) => s.title === 'Runbooks')!.id,
      )!;
    expect(siteSections(r.sb.store).get(runbooks.section!)?.path).toBe('guides');
  });

  it('teams: a deleted team takes its memberships', async () => {
    const r = await start();
    const {
      plan: p,
      now,
      expectedNow,
      afterPurge,
    } = await pruneAndCompare(r, [doc('Team', { title: 'Platform' }, true)]);
    expect(p.steps.map((s) => [s.id, s.cascades?.length])).toEqual([
      ['Team/org-demo/Support#delete', 2],
      ['Team/org-demo/Writers#delete', 3],
    ]);
    expect(now).toEqual(expectedNow);
    expect(now.filter((x) => x.startsWith('membership:'))).toHaveLength(5);
    expect(afterPurge).toEqual(now);
  });

  it('members: a removed member leaves their teams (the memberships a team delete takes are listed once)', async () => {
    const r = await start();
    const keep = ['ada', 'bob', 'carol', 'dan', 'erin', 'grace', 'heidi', 'ivan'].map((n) => ({
      email: `${n}@acme.test`,
      role: n === 'ada' || n === 'grace' ? 'admin' : 'read',
    }));
    const {
      plan: p,
      now,
      expectedNow,
    } = await pruneAndCompare(
      r,
      [
        doc('Members', { members: keep }, true),
        doc('Team', { title: 'Platform' }, true),
        doc('Team', { title: 'Writers' }),
      ],
      {},
    );
    // frank leaves Support (deleted: its delete lists frank's membership), judy leaves Writers (kept).
    expect(p.steps.filter((s) => s.phase === 'prune').map((s) => [s.id, (s.cascades ?? []).map((c) => c.key)])).toEqual(
      [
        ['Team/org-demo/Support#delete', ['Support/frank@acme.test', 'Support/ivan@acme.test']],
        ['Members/org-demo/frank@acme.test#delete', []],
        ['Members/org-demo/judy@acme.test#delete', ['Writers/judy@acme.test']],
      ],
    );
    expect(now).toEqual(expectedNow);
    expect(now).toContain('membership:team-writers/u-judy');
  });

  it('spaces: a deleted space leaves its sites when it is purged (and a section it alone filled)', async () => {
    const r = await start();
    const changelog = id.space(r.sb.store, 'Changelog');
    const all = ['Getting Started', 'API Reference', 'Runbooks', 'Playbook', 'Status', 'Old notes'].map((title) =>
      doc('Space', { title }, true),
    );
    const { plan: p, now, afterPurge, expectedNow, expectedAfterPurge } = await pruneAndCompare(r, all);
    expect(p.steps.map((s) => [s.id, (s.cascades ?? []).map((c) => c.key)])).toEqual([
      ['Space/org-demo/Changelog#delete', ['Help/guides/Changelog', 'Old site/Changelog']],
    ]);
    expect(now).toEqual(expectedNow);
    expect(now).toEqual([changelog]);
    expect(afterPurge).toEqual(expectedAfterPurge);
    expect(afterPurge.map((x) => x.split(':')[0]).sort()).toEqual(['siteSpace', 'siteSpace', 'space']);
  });
});

describe('a delete never takes a managed object it cannot move out: it is blocked and nothing is taken', () => {
  it('a Space manifest that puts its space in the collection being pruned, and a space a Site shows under --prune Space', async () => {
    const r = await start();
    const before = snapshot(r.sb.store);
    const taken = [id.collection(r.sb.store, 'Archive'), id.space(r.sb.store, 'Old notes')].sort();
    const { plan: p } = await plan(
      r,
      [
        doc('Collection', { title: 'Product docs' }, true),
        doc('Space', { title: 'Playbook', parent: 'Internal' }),
        ...['Getting Started', 'API Reference', 'Runbooks', 'Status'].map((title) => doc('Space', { title })),
        doc('Site', { title: 'Old site', spaces: ['Changelog'] }),
      ],
      { prune: { Space: true } },
    );
    expect(p.blocked.map((b) => `${b.kind} ${b.key}`)).toEqual(['Collection Internal', 'Space Changelog']);
    expect(p.blocked[0]!.message).toContain('space "Playbook" (');
    const report = await applyPlan(r.client, p, { concurrency: 8 });
    expect(report.failed).toEqual([]);
    const gone = minus(before, snapshot(r.sb.store));
    expect(gone).toEqual(planned(p, r.sb.store, false));
    // Archive (nested, no manifest) and Old notes (pruned, in it) go; Internal, Playbook and Changelog stay.
    expect(gone).toEqual(taken);
  });
});
