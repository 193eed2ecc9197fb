/**
 * A site with root site spaces gets its first sections (against the sandbox): the server moves the root site
 * spaces into the first section created, so the plan warns, takes over the root site spaces the manifest lists
 * (same ids, no duplicates) and moves them to their sections; one apply converges and the next plan is empty.
 * Offline (fixed live data): the plan shape when a new section lists only root spaces (the replace step).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/model/api-client.js';
import { applyPlan } from '../../../src/engine/apply.js';
import { orderSteps } from '../../../src/engine/order.js';
import type { Step } from '../../../src/model/plan.js';
import { computePlan } from '../../../src/engine/reconcile.js';
import { KINDS } from '../../../src/kinds/index.js';
import { siteKind } from '../../../src/kinds/site/kind.js';
import { loadManifests } from '../../../src/manifests/index.js';
import { resolveSafetyConfig } from '../../../src/safety/config.js';
import { countDesired, evaluatePlan } from '../../../src/safety/gate.js';
import { fakeDiffContext, plan as planKind } from '../helpers.js';
import { sandboxPerTest, type SandboxRun } from '../sandbox-per-test.js';
import { BASE, SITE, SPACES, liveSite, liveSpec, siteDesired, siteSpace } from './fixtures.js';
import { ORG } from '../seed.js';

const start = sandboxPerTest('site-roots');

interface SiteSpaceItem {
  id: string;
  section?: string;
  space: { title: string };
}

async function load(r: SandboxRun, spec: object, prune = false) {
  writeFileSync(
    join(r.dir, 'site.yaml'),
    `apiVersion: docops/v1\nkind: Site\nmetadata: { organization: org-demo }\n${prune ? 'prune: true\n' : ''}spec: ${JSON.stringify(spec)}\n`,
  );
  return (await loadManifests(r.dir, KINDS, { env: {} })).desired;
}

/** A site with three root site spaces; returns the site id and the root site-space ids by space title. */
async function siteWithRoots(r: SandboxRun) {
  const desired = await load(r, { title: 'Docs', spaces: ['Getting Started', 'Changelog', 'API Reference'] });
  expect((await applyPlan(r.client, (await computePlan(r.client, KINDS, desired)).plan)).failed).toEqual([]);
  const site = (await r.client.listAll<{ id: string; title: string }>('/orgs/org-demo/sites')).find(
    (s) => s.title === 'Docs',
  )!;
  const roots = await r.client.listAll<SiteSpaceItem>(`/orgs/org-demo/sites/${site.id}/site-spaces`);
  return { site: site.id, rootIds: new Map(roots.map((x) => [x.space.title, x.id])) };
}

const SECTIONS = {
  title: 'Docs',
  sections: [
    { path: 'guides', title: 'Guides', spaces: ['Getting Started', 'Runbooks'] },
    { path: 'api', title: 'API', spaces: ['Runbooks', 'API Reference'] },
  ],
};

/** Section path → space titles in navigation order. */
async function layout(
  client: ApiClient,
  site: string,
): Promise<{ bySection: Record<string, string[]>; items: SiteSpaceItem[] }> {
  const sections = await client.listAll<{ id: string; path: string }>(`/orgs/org-demo/sites/${site}/sections`);
  const items = await client.listAll<SiteSpaceItem>(`/orgs/org-demo/sites/${site}/site-spaces`);
  const bySection: Record<string, string[]> = {};
  for (const s of sections) bySection[s.path] = items.filter((x) => x.section === s.id).map((x) => x.space.title);
  return { bySection, items };
}

describe('Site: first sections of a site with root site spaces (sandbox)', () => {
  it('warns, keeps the listed root site spaces (no duplicates), leaves the unlisted one unmanaged, and converges', async () => {
    const r = await start();
    const { site, rootIds } = await siteWithRoots(r);
    const desired = await load(r, SECTIONS);
    const { plan } = await computePlan(r.client, KINDS, desired);
    expect(plan.warnings.map((w) => w.message)).toEqual([
      'the site has root site spaces ("Getting Started", "Changelog", "API Reference"): the first section this plan creates receives them (API rule), then each is moved to the section that lists it; not listed in any section: "Changelog" (left in that section, unmanaged)',
    ]);
    // Each section is created with a space that is not a root one; no site space is created for a root one.
    expect(plan.steps.filter((s) => s.action === 'create').map((s) => [s.id, s.requests[0]!.body])).toEqual([
      ['SiteSection/org-demo/Docs/api#create', { spaceId: 'sp-runbooks', title: 'API' }],
      ['SiteSection/org-demo/Docs/guides#create', { spaceId: 'sp-runbooks', title: 'Guides' }],
    ]);
    expect((await applyPlan(r.client, plan)).failed).toEqual([]);

    const after = await layout(r.client, site);
    // Changelog stays in whichever section the server created first; the listed spaces are in manifest order.
    const listed = (path: string) => after.bySection[path]!.filter((t) => t !== 'Changelog');
    expect(listed('guides')).toEqual(['Getting Started', 'Runbooks']);
    expect(listed('api')).toEqual(['Runbooks', 'API Reference']);
    expect([...after.bySection['guides']!, ...after.bySection['api']!].filter((t) => t === 'Changelog')).toHaveLength(
      1,
    );
    const idOf = (title: string, section: string) =>
      after.items.find((x) => x.space.title === title && x.section === section)?.id;
    const sections = await r.client.listAll<{ id: string; path: string }>(`/orgs/org-demo/sites/${site}/sections`);
    const sid = (path: string) => sections.find((s) => s.path === path)!.id;
    expect(idOf('Getting Started', sid('guides'))).toBe(rootIds.get('Getting Started'));
    expect(idOf('API Reference', sid('api'))).toBe(rootIds.get('API Reference'));

    const next = (await computePlan(r.client, KINDS, desired)).plan;
    expect(next.steps).toEqual([]);
    expect(next.warnings).toEqual([]);
    expect(next.unmanaged.map((u) => [u.kind, u.id])).toEqual([['SiteSpace', rootIds.get('Changelog')]]);
  });

  it('under prune deletes the unlisted root site space after it moved; the next plan is empty', async () => {
    const r = await start();
    const { site } = await siteWithRoots(r);
    const desired = await load(r, SECTIONS, true);
    const { plan } = await computePlan(r.client, KINDS, desired);
    expect(plan.warnings.map((w) => w.message)[0]).toMatch(/not listed in any section: "Changelog" \(deleted\)$/);
    expect(plan.steps.filter((s) => s.phase === 'prune').map((s) => s.id)).toEqual([
      'SiteSpace/org-demo/Docs/Changelog#delete',
    ]);
    expect((await applyPlan(r.client, plan)).failed).toEqual([]);
    expect((await layout(r.client, site)).bySection).toEqual({
      guides: ['Getting Started', 'Runbooks'],
      api: ['Runbooks', 'API Reference'],
    });
    const next = (await computePlan(r.client, KINDS, desired)).plan;
    expect(next.steps).toEqual([]);
    expect(next.unmanaged).toEqual([]);
  });

  it('every root site space into a section of its own: the replace steps are updates, which the safety gate lets through', async () => {
    const r = await start();
    const { site, rootIds } = await siteWithRoots(r);
    const spec = {
      title: 'Docs',
      sections: ['Getting Started', 'Changelog', 'API Reference'].map((t, i) => ({
        path: `s${i}`,
        title: `S${i}`,
        spaces: [t],
      })),
    };
    const desired = await load(r, spec);
    const { plan, live } = await computePlan(r.client, KINDS, desired);
    const replaces = plan.steps.filter((s) => s.id.endsWith('#replace'));
    expect(replaces.map((s) => [s.action, s.phase, s.after?.['section']])).toEqual([
      ['update', 'delete', 's2'],
      ['update', 'delete', 's1'],
      ['update', 'delete', 's0'],
    ]);
    // Without --force: every root site space is deleted, yet each space stays in the site, so no delete-all or threshold rule fires.
    const gate = evaluatePlan(plan, live, KINDS, {
      config: resolveSafetyConfig({}),
      force: false,
      desiredCount: countDesired(desired),
    });
    expect(gate.blocking).toEqual([]);
    expect((await applyPlan(r.client, plan)).failed).toEqual([]);
    const after = await layout(r.client, site);
    expect(after.bySection).toEqual({ s0: ['Getting Started'], s1: ['Changelog'], s2: ['API Reference'] });
    expect(after.items.filter((x) => [...rootIds.values()].includes(x.id))).toEqual([]);
    expect((await computePlan(r.client, KINDS, desired)).plan.steps).toEqual([]);
  });

  it('one new section listing every root space: nothing is created twice', async () => {
    const r = await start();
    const { site, rootIds } = await siteWithRoots(r);
    const desired = await load(r, {
      title: 'Docs',
      sections: [
        { path: 'docs', title: 'Docs', spaces: ['Runbooks', 'API Reference', 'Getting Started', 'Changelog'] },
      ],
    });
    const { plan } = await computePlan(r.client, KINDS, desired);
    expect(plan.steps.filter((s) => s.kind === 'SiteSpace')).toEqual([]);
    expect((await applyPlan(r.client, plan)).failed).toEqual([]);
    const after = await layout(r.client, site);
    expect(after.bySection).toEqual({ docs: ['Runbooks', 'API Reference', 'Getting Started', 'Changelog'] });
    expect(
      after.items
        .filter((x) => x.space.title !== 'Runbooks')
        .map((x) => x.id)
        .sort(),
    ).toEqual([...rootIds.values()].sort());
    expect((await computePlan(r.client, KINDS, desired)).plan.steps).toEqual([]);
  });
});

/** Offline: a live site whose root site spaces are Getting Started (default), API Reference (path "ref", a condition) and Changelog. */
function rootSite(): Record<string, unknown> {
  const roots = [
    siteSpace('ss-gs', 'sp-getting-started', null, 'getting-started', true),
    siteSpace('ss-api', 'sp-api', null, 'ref', false, { condition: 'visitor.claims.beta === true' }),
    siteSpace('ss-cl', 'sp-changelog', null, 'changelog'),
  ];
  return {
    [`${BASE}/sites`]: [
      {
        object: 'site',
        id: 'site-help',
        title: 'Acme Help Center',
        visibility: 'public',
        published: false,
        agentsContext: 'excluded',
        adaptiveContent: { enabled: false },
      },
    ],
    [`${BASE}/spaces`]: SPACES,
    [`${SITE}/sections`]: [],
    [`${SITE}/section-groups`]: [],
    [`${SITE}/site-spaces`]: roots,
  };
}

const DOCS = '<<ref:SiteSection/org-demo/Acme Help Center/docs#create';
const lines = (steps: Step[]) =>
  orderSteps(steps).map((s) => [
    s.id,
    s.phase,
    s.wave,
    s.dependsOn,
    s.requests.map((q) => `${q.method} ${q.path}${q.body === undefined ? '' : ` ${JSON.stringify(q.body)}`}`),
  ]);

describe('Site: a new section whose spaces are all root site spaces (plan shape)', () => {
  it('POSTs the section with its first space, replaces that root site space (delete phase), takes over the others', async () => {
    const spec = {
      title: 'Acme Help Center',
      sections: [{ path: 'docs', title: 'Docs', spaces: ['API Reference', 'Getting Started'] }],
    };
    const { result } = await planKind(siteKind, ORG, siteDesired(spec), rootSite());
    expect(lines(result.steps)).toEqual([
      [
        'SiteSection/org-demo/Acme Help Center/docs#create',
        'create',
        31,
        [],
        // The root one's condition (not written in the manifest) is kept from the start.
        [
          `POST ${SITE}/sections {"spaceId":"sp-api","title":"Docs"}`,
          `PATCH ${SITE}/site-spaces/${DOCS}.firstSiteSpace>> {"condition":"visitor.claims.beta === true"}`,
        ],
      ],
      // No move: the only new section receives the root site spaces after its own, Getting Started first.
      // After the root one is gone, the section's one takes its path (it could not while both were in the section).
      [
        'SiteSpace/org-demo/Acme Help Center/API Reference#replace',
        'delete',
        39,
        ['SiteSection/org-demo/Acme Help Center/docs#create'],
        [`DELETE ${SITE}/site-spaces/ss-api`, `PATCH ${SITE}/site-spaces/${DOCS}.firstSiteSpace>> {"path":"ref"}`],
      ],
    ]);
    expect(result.warnings.map((w) => w.message)).toEqual([
      'the site has root site spaces ("Getting Started", "API Reference", "Changelog"): the first section this plan creates receives them (API rule), then each is moved to the section that lists it; replaced by the site space their new section is created with (a section is created with a space): "API Reference"; not listed in any section: "Changelog" (left in that section, unmanaged)',
    ]);
    expect(result.unmanaged.map((u) => u.id)).toEqual(['ss-cl']);
  });

  it('under prune the unlisted root site space is pruned; a written path and condition win, and no PATCH is sent for the derived path', async () => {
    const spec = {
      title: 'Acme Help Center',
      sections: [
        {
          path: 'docs',
          title: 'Docs',
          spaces: [{ space: 'API Reference', path: 'api-reference', condition: null }, 'Getting Started'],
        },
      ],
    };
    const { result } = await planKind(
      siteKind,
      ORG,
      siteDesired(spec),
      rootSite(),
      fakeDiffContext({ prune: ['Site'] }),
    );
    expect(
      lines(result.steps).map(([id, phase, wave, , requests]) => [`${phase} ${wave} ${id as string}`, requests]),
    ).toEqual([
      [
        'create 31 SiteSection/org-demo/Acme Help Center/docs#create',
        [`POST ${SITE}/sections {"spaceId":"sp-api","title":"Docs"}`],
      ],
      ['delete 39 SiteSpace/org-demo/Acme Help Center/API Reference#replace', [`DELETE ${SITE}/site-spaces/ss-api`]],
      ['prune 39 SiteSpace/org-demo/Acme Help Center/Changelog#delete', [`DELETE ${SITE}/site-spaces/ss-cl`]],
    ]);
  });

  it('root site spaces of two same-titled spaces get distinct keys (and step ids), replaced or pruned', async () => {
    const twin = (id: string) => ({ object: 'space', id, title: 'Twin', emoji: '' });
    const root = (id: string, spaceId: string, path: string, isDefault = false) => ({
      object: 'site-space',
      id,
      path,
      space: twin(spaceId),
      title: 'Twin',
      default: isDefault,
      urls: { published: `https://docs.test/${path}` },
    });
    const routes = {
      ...rootSite(),
      [`${BASE}/spaces`]: [...SPACES, twin('sp-t1'), twin('sp-t2'), twin('sp-t3')],
      [`${SITE}/site-spaces`]: [
        root('ss-t1', 'sp-t1', 'twin', true),
        root('ss-t2', 'sp-t2', 'twin-2'),
        root('ss-t3', 'sp-t3', 'twin-3'),
        root('ss-t4', 'sp-t3', 'twin-4'),
      ],
    };
    const spec = {
      title: 'Acme Help Center',
      sections: [
        { path: 'a', title: 'A', spaces: ['sp-t1'] },
        { path: 'b', title: 'B', spaces: ['sp-t2'] },
      ],
    };
    const { result } = await planKind(siteKind, ORG, siteDesired(spec), routes, fakeDiffContext({ prune: ['Site'] }));
    const ids = result.steps.map((s) => s.id).filter((id) => id.startsWith('SiteSpace/'));
    expect(ids.sort()).toEqual([
      'SiteSpace/org-demo/Acme Help Center/Twin (ss-t1)#replace',
      'SiteSpace/org-demo/Acme Help Center/Twin (ss-t2)#replace',
      'SiteSpace/org-demo/Acme Help Center/Twin (ss-t3)#delete',
      'SiteSpace/org-demo/Acme Help Center/Twin (ss-t4)#delete',
    ]);
    expect(() => orderSteps(result.steps)).not.toThrow();
  });

  it('a space listed once but held twice by its section (e.g. an apply stopped before the replace) is a warning with prune off, a delete under prune', async () => {
    const routes = liveSite();
    const dup = siteSpace('ss-cl-2', 'sp-changelog', 'sec-guides', 'changelog-2');
    const sections = routes[`${SITE}/sections`] as { id: string; siteSpaces: unknown[] }[];
    sections.find((x) => x.id === 'sec-guides')!.siteSpaces.push(dup);
    (routes[`${SITE}/site-spaces`] as unknown[]).push(dup);
    const off = await planKind(siteKind, ORG, siteDesired(liveSpec()), routes);
    expect(off.result.steps).toEqual([]);
    expect(off.result.unmanaged.map((u) => u.id)).toEqual(['ss-cl-2']);
    expect(off.result.warnings.map((w) => w.message)).toEqual([
      'space "Changelog" is in section "guides" twice; the manifest lists it once: site space ss-cl-2 is left (unmanaged) — delete it, or turn prune on',
    ]);
    const on = await planKind(siteKind, ORG, siteDesired(liveSpec()), routes, fakeDiffContext({ prune: ['Site'] }));
    expect(on.result.steps.map((st) => `${st.action} ${st.requests[0]!.method} ${st.requests[0]!.path}`)).toEqual([
      `delete DELETE ${SITE}/site-spaces/ss-cl-2`,
    ]);
    expect(on.result.warnings).toEqual([]);
  });

  it('orders the taken-over root site spaces with the fewest moves, knowing where the server puts them', async () => {
    const spec = {
      title: 'Acme Help Center',
      sections: [{ path: 'docs', title: 'Docs', spaces: ['Changelog', 'API Reference', 'Getting Started'] }],
    };
    const { result } = await planKind(siteKind, ORG, siteDesired(spec), rootSite());
    // Predicted: Changelog (new), Getting Started, API Reference, Changelog (root, replaced): one move.
    expect(result.steps.find((s) => s.id.endsWith('#order'))!.requests.map((q) => [q.path, q.body])).toEqual([
      [
        `${SITE}/structure/sort`,
        {
          item: { type: 'site-space', id: 'ss-api' },
          position: { after: { type: 'site-space', id: `${DOCS}.firstSiteSpace>>` } },
        },
      ],
    ]);
    expect(result.steps.find((s) => s.id.endsWith('#replace'))!.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      `DELETE ${SITE}/site-spaces/ss-cl`,
    ]);
  });

  it('a section with a space that is not a root one is POSTed with it and replaces nothing', async () => {
    const spec = {
      title: 'Acme Help Center',
      sections: [
        { path: 'docs', title: 'Docs', spaces: ['API Reference', 'Runbooks', 'Getting Started', 'Changelog'] },
      ],
    };
    const { result } = await planKind(
      siteKind,
      ORG,
      siteDesired(spec),
      rootSite(),
      fakeDiffContext({ prune: ['Site'] }),
    );
    expect(result.steps.find((s) => s.id.endsWith('docs#create'))!.requests.map((q) => q.body)).toEqual([
      { spaceId: 'sp-runbooks', title: 'Docs' },
    ]);
    expect(result.steps.filter((s) => s.action === 'delete')).toEqual([]);
  });
});
