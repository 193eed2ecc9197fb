/**
 * The Site kind against the real sandbox over loopback HTTP: a whole site from nothing converges in one apply,
 * then renaming, moving a space to another section, reordering, changing the default and deleting the default
 * section each converge in one apply, with the write requests the sandbox saw in the right order, and the
 * next plan is empty.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/model/api-client.js';
import { applyPlan } from '../../../src/engine/apply.js';
import { computePlan } from '../../../src/engine/reconcile.js';
import { KINDS } from '../../../src/kinds/index.js';
import { loadManifests } from '../../../src/manifests/index.js';
import { sandboxPerTest, type SandboxRun } from '../sandbox-per-test.js';

const start = sandboxPerTest('site');

interface Site {
  prune?: boolean;
  spec: Record<string, unknown>;
}

const yaml = (site: Site): string =>
  [
    'apiVersion: docops/v1',
    'kind: Site',
    'metadata: { organization: org-demo }',
    ...(site.prune ? ['prune: true'] : []),
    `spec: ${JSON.stringify(site.spec)}`,
    '',
  ].join('\n');

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { beta: { type: 'boolean', description: 'Beta tester' } },
};

/** The whole site: guides (default) and api (in group Developers), four site spaces, two share links. */
function fullSite(): Record<string, unknown> {
  return {
    title: 'Acme Help Center',
    visibility: 'share-link',
    agentsContext: 'included',
    adaptiveContent: { enabled: true },
    defaultSection: 'guides',
    defaultSiteSpace: { section: 'guides', space: 'Getting Started' },
    sections: [
      {
        path: 'guides',
        title: 'Guides',
        icon: 'book',
        spaces: ['Getting Started', { space: 'Changelog', path: 'whats-new' }],
      },
      {
        path: 'api',
        title: 'API',
        description: 'For developers',
        spaces: ['API Reference', { space: 'sp-runbooks', condition: 'visitor.claims.beta === true' }],
      },
    ],
    sectionGroups: [{ title: 'Developers', icon: 'code', sections: ['api'] }],
    shareLinks: [{ name: 'partners' }, { name: 'auditors', active: false }],
    adaptiveSchema: SCHEMA,
  };
}

/** Write the manifest, plan, apply; return the plan, the write requests seen, and the next plan. */
async function converge(r: SandboxRun, site: Site) {
  writeFileSync(join(r.dir, 'site.yaml'), yaml(site));
  const { desired } = await loadManifests(r.dir, KINDS, { env: {} });
  const { plan } = await computePlan(r.client, KINDS, desired);
  r.sb.resetStats();
  const report = await applyPlan(r.client, plan);
  expect(report.failed).toEqual([]);
  const writes = r.sb
    .stats()
    .requests.filter((q) => q.method !== 'GET')
    .map((q) => `${q.method} ${q.route.replace('/v1/orgs/:organizationId/sites/:siteId', '~')} ${q.status}`);
  const next = (await computePlan(r.client, KINDS, desired)).plan;
  return { plan, writes, next };
}

const sitePath = async (client: ApiClient): Promise<string> => {
  const sites = await client.listAll<{ id: string; title: string }>('/orgs/org-demo/sites');
  return `/orgs/org-demo/sites/${sites.find((s) => s.title === 'Acme Help Center')!.id}`;
};

async function navigation(client: ApiClient) {
  const base = await sitePath(client);
  const sections = await client.listAll<{
    path: string;
    title: string;
    default?: boolean;
    sectionGroup?: string;
    siteSpaces: { path: string; space: { title: string } }[];
  }>(`${base}/sections`);
  const groups = await client.listAll<{ title: string; sections: { path: string }[] }>(`${base}/section-groups`);
  return {
    sections: sections.map(
      (s) =>
        `${s.path}${s.default ? '*' : ''}${s.sectionGroup ? '@g' : ''}: ${s.siteSpaces.map((x) => x.path).join(',')}`,
    ),
    groups: groups.map((g) => `${g.title}: ${g.sections.map((s) => s.path).join(',')}`),
  };
}

describe('Site against the sandbox', () => {
  it('creates the whole site in one apply, after which the plan is empty', async () => {
    const r = await start();
    const { plan, writes, next } = await converge(r, { spec: fullSite() });
    expect(plan.steps.map((s) => s.id)).toEqual([
      'Site/org-demo/Acme Help Center#create',
      'SiteSection/org-demo/Acme Help Center/api#create',
      'SiteSection/org-demo/Acme Help Center/guides#create',
      'SiteShareLink/org-demo/Acme Help Center/auditors#create',
      'SiteShareLink/org-demo/Acme Help Center/partners#create',
      'SiteSpace/org-demo/Acme Help Center/api/sp-runbooks#create',
      'SiteSpace/org-demo/Acme Help Center/guides/Changelog#create',
      'SiteSectionGroup/org-demo/Acme Help Center/Developers#create',
      'Site/org-demo/Acme Help Center#adaptive-schema',
      'Site/org-demo/Acme Help Center#defaults',
    ]);
    expect(writes.slice(0, 2)).toEqual(['POST /v1/orgs/:organizationId/sites 201', 'PATCH ~ 200']);
    expect(writes.at(-1)).toBe('PATCH ~ 200');
    expect(writes.filter((w) => w.startsWith('POST ~/section-groups '))).toHaveLength(1);
    expect(next.steps).toEqual([]);
    expect(next.warnings).toEqual([]);
    expect(await navigation(r.client)).toEqual({
      sections: ['guides*: getting-started,whats-new', 'api@g: api-reference,runbooks'],
      groups: ['Developers: api'],
    });
    // The share secret never reaches a plan.
    expect(JSON.stringify(plan)).not.toContain('share=');
  });

  it('renames a section with one PATCH', async () => {
    const r = await start();
    await converge(r, { spec: fullSite() });
    const spec = fullSite();
    (spec['sections'] as Record<string, unknown>[])[0]!['title'] = 'User guides';
    const { plan, writes, next } = await converge(r, { spec });
    expect(plan.steps.map((s) => s.id)).toEqual(['SiteSection/org-demo/Acme Help Center/guides#update']);
    expect(writes).toEqual(['PATCH ~/sections/:siteSectionId 200']);
    expect(next.steps).toEqual([]);
  });

  it('moves a space to another section with a move request, not delete + create', async () => {
    const r = await start();
    await converge(r, { spec: fullSite() });
    const spec = fullSite();
    const [guides, api] = spec['sections'] as { spaces: unknown[] }[];
    guides!.spaces = ['Getting Started'];
    api!.spaces = [
      'API Reference',
      { space: 'Changelog', path: 'whats-new' },
      { space: 'sp-runbooks', condition: 'visitor.claims.beta === true' },
    ];
    const { writes, next } = await converge(r, { spec, prune: true });
    expect(writes).toEqual(['POST ~/site-spaces/:siteSpaceId/move 200']);
    expect(next.steps).toEqual([]);
    expect((await navigation(r.client)).sections).toEqual([
      'guides*: getting-started',
      'api@g: api-reference,whats-new,runbooks',
    ]);
  });

  it('reorders sections and site spaces with the fewest moves', async () => {
    const r = await start();
    await converge(r, { spec: fullSite() });
    const spec = fullSite();
    const [guides, api] = spec['sections'] as { spaces: unknown[] }[];
    guides!.spaces = [{ space: 'Changelog', path: 'whats-new' }, 'Getting Started'];
    spec['sections'] = [api, guides];
    const { plan, writes, next } = await converge(r, { spec });
    expect(plan.steps.map((s) => s.id)).toEqual(['Site/org-demo/Acme Help Center#order']);
    expect(writes).toEqual(['PATCH ~/structure/sort 200', 'PATCH ~/structure/sort 200']);
    expect(next.steps).toEqual([]);
    expect(await navigation(r.client)).toEqual({
      sections: ['api@g: api-reference,runbooks', 'guides*: whats-new,getting-started'],
      groups: ['Developers: api'],
    });
  });

  it('changes the default section and site space', async () => {
    const r = await start();
    await converge(r, { spec: fullSite() });
    const spec = { ...fullSite(), defaultSection: 'api', defaultSiteSpace: { section: 'api', space: 'Runbooks' } };
    const { plan, writes, next } = await converge(r, { spec });
    expect(plan.steps.map((s) => [s.id, s.requests.map((q) => Object.keys(q.body as object).join())])).toEqual([
      ['Site/org-demo/Acme Help Center#defaults', ['defaultSiteSection', 'defaultSiteSpace']],
    ]);
    expect(writes).toEqual(['PATCH ~ 200', 'PATCH ~ 200']);
    expect(next.steps).toEqual([]);
    expect((await navigation(r.client)).sections).toEqual([
      'guides: getting-started,whats-new',
      'api*@g: api-reference,runbooks',
    ]);
  });

  it('deletes the default section under prune after making another one the default', async () => {
    const r = await start();
    await converge(r, { spec: fullSite() });
    const { defaultSection: _d, defaultSiteSpace: _s, ...rest } = fullSite();
    const spec = { ...rest, sections: (rest['sections'] as { path: string }[]).filter((s) => s.path === 'api') };
    const { plan, writes, next } = await converge(r, { spec, prune: true });
    expect(plan.steps.map((s) => s.id)).toEqual([
      'Site/org-demo/Acme Help Center#defaults',
      'SiteSection/org-demo/Acme Help Center/guides#delete',
    ]);
    expect(writes).toEqual(['PATCH ~ 200', 'DELETE ~/sections/:siteSectionId 205']);
    expect(next.steps).toEqual([]);
    expect(await navigation(r.client)).toEqual({
      sections: ['api*@g: api-reference,runbooks'],
      groups: ['Developers: api'],
    });
  });

  it('without prune, a section dropped from the manifest is only listed as unmanaged', async () => {
    const r = await start();
    await converge(r, { spec: fullSite() });
    const { defaultSection: _d, defaultSiteSpace: _s, ...rest } = fullSite();
    const spec = { ...rest, sections: (rest['sections'] as { path: string }[]).filter((s) => s.path === 'api') };
    const { plan, writes } = await converge(r, { spec });
    expect(plan.steps).toEqual([]);
    expect(writes).toEqual([]);
    expect(plan.unmanaged.map((u) => [u.kind, u.key])).toEqual([['SiteSection', 'Acme Help Center/guides']]);
  });
});

describe('Site against the sandbox: defaults and groups that move', () => {
  it("moves a section's default site space away after giving the section another default", async () => {
    const r = await start();
    await converge(r, { spec: fullSite() });
    const spec: Record<string, unknown> = {
      ...fullSite(),
      defaultSiteSpace: { section: 'guides', space: 'Changelog' },
    };
    const [guides, api] = spec['sections'] as { spaces: unknown[] }[];
    guides!.spaces = [{ space: 'Changelog', path: 'whats-new' }];
    api!.spaces = [
      'Getting Started',
      'API Reference',
      { space: 'sp-runbooks', condition: 'visitor.claims.beta === true' },
    ];
    const { plan, writes, next } = await converge(r, { spec });
    expect(plan.steps.map((s) => s.id)).toEqual([
      'SiteSection/org-demo/Acme Help Center/guides#default',
      'Site/org-demo/Acme Help Center#order',
    ]);
    expect(writes).toEqual(['PATCH ~/sections/:siteSectionId 200', 'POST ~/site-spaces/:siteSpaceId/move 200']);
    expect(next.steps).toEqual([]);
    expect((await navigation(r.client)).sections).toEqual([
      'guides*: whats-new',
      'api@g: getting-started,api-reference,runbooks',
    ]);
  });

  it('changes group membership: leave, then join, then order', async () => {
    const r = await start();
    await converge(r, { spec: fullSite() });
    const spec = fullSite();
    const [guides, api] = spec['sections'] as Record<string, unknown>[];
    spec['sections'] = [api, guides, { path: 'ops', title: 'Operations', spaces: ['Runbooks'] }];
    spec['sectionGroups'] = [{ title: 'Developers', icon: 'code', sections: ['ops', 'guides'] }];
    const { plan, writes, next } = await converge(r, { spec, prune: true });
    expect(plan.steps.map((s) => s.id)).toEqual([
      'SiteSection/org-demo/Acme Help Center/ops#create',
      'SiteSectionGroup/org-demo/Acme Help Center/Developers#leave',
      'SiteSectionGroup/org-demo/Acme Help Center/Developers#join',
      'Site/org-demo/Acme Help Center#order',
    ]);
    expect(writes.slice(0, 5)).toEqual([
      'POST ~/sections 201',
      'PATCH ~/sections/:siteSectionId 200', // path "ops" (the server derives "operations")
      'DELETE ~/section-groups/:siteSectionGroupId/sections/:siteSectionId 205',
      'POST ~/section-groups/:siteSectionGroupId/sections 201',
      'POST ~/section-groups/:siteSectionGroupId/sections 201',
    ]);
    expect(next.steps).toEqual([]);
    expect(await navigation(r.client)).toEqual({
      sections: ['api: api-reference,runbooks', 'ops@g: runbooks', 'guides*@g: getting-started,whats-new'],
      groups: ['Developers: ops,guides'],
    });
  });
});

describe('config.example/manifests on the sandbox', () => {
  it('creates the Acme Help Center in one apply, after which the plan is empty', async () => {
    const r = await start();
    const examples = new URL('../../../config.example/manifests', import.meta.url).pathname;
    const { desired } = await loadManifests(examples, KINDS, { env: {} });
    const { plan } = await computePlan(r.client, KINDS, desired);
    expect(plan.steps.filter((s) => ['Collection', 'Space'].includes(s.kind))).toEqual([]);
    const report = await applyPlan(r.client, plan);
    expect(report.failed).toEqual([]);
    const next = (await computePlan(r.client, KINDS, desired)).plan;
    expect(next.steps).toEqual([]);
    expect(next.warnings).toEqual([]);
    expect(await navigation(r.client)).toEqual({
      sections: ['getting-started*: getting-started,whats-new', 'api@g: reference', 'operations@g: runbooks'],
      groups: ['Developers: api,operations'],
    });
  });
});

describe('Site against the sandbox: sections introduced on a site with root site spaces', () => {
  interface SiteSpaceItem {
    id: string;
    path: string;
    condition?: string;
    section?: string;
    space: { id: string; title: string };
  }

  /** Root site spaces Getting Started (A), API Reference (B, path "ref", a condition), Changelog (C); their ids by title. */
  async function siteWithRoots(r: SandboxRun): Promise<Map<string, string>> {
    const roots = [
      'Getting Started',
      { space: 'API Reference', path: 'ref', condition: 'visitor.claims.beta === true' },
      'Changelog',
    ];
    await converge(r, { spec: { title: 'Acme Help Center', spaces: roots } });
    const items = await r.client.listAll<SiteSpaceItem>(`${await sitePath(r.client)}/site-spaces`);
    expect(items.map((x) => x.section)).toEqual([undefined, undefined, undefined]);
    return new Map(items.map((x) => [x.space.title, x.id]));
  }

  /** Section path → its site spaces as `title@path`, and every site space. */
  async function bySection(client: ApiClient) {
    const base = await sitePath(client);
    const sections = await client.listAll<{ id: string; path: string }>(`${base}/sections`);
    const items = await client.listAll<SiteSpaceItem>(`${base}/site-spaces`);
    const out: Record<string, string[]> = {};
    for (const s of sections)
      out[s.path] = items.filter((x) => x.section === s.id).map((x) => `${x.space.title}@${x.path}`);
    return { sections: out, items };
  }

  const onceEach = (items: SiteSpaceItem[]): void =>
    expect(new Set(items.map((x) => x.space.id)).size).toBe(items.length);

  it('one new section of root spaces only: no duplicate, written order, taken-over ids kept, C left unmanaged', async () => {
    const r = await start();
    const rootIds = await siteWithRoots(r);
    const { plan, writes, next } = await converge(r, {
      spec: {
        title: 'Acme Help Center',
        sections: [{ path: 'docs', title: 'Docs', spaces: ['API Reference', 'Getting Started'] }],
      },
    });
    expect(plan.steps.map((s) => `${s.phase} ${s.id}`)).toEqual([
      'create SiteSection/org-demo/Acme Help Center/docs#create',
      'delete SiteSpace/org-demo/Acme Help Center/API Reference#replace',
    ]);
    expect(writes).toEqual([
      'POST ~/sections 201',
      'PATCH ~/site-spaces/:siteSpaceId 200', // the root one's condition
      'DELETE ~/site-spaces/:siteSpaceId 205', // the root API Reference
      'PATCH ~/site-spaces/:siteSpaceId 200', // its path "ref" for the section's one
    ]);
    const after = await bySection(r.client);
    expect(after.sections).toEqual({
      docs: ['API Reference@ref', 'Getting Started@getting-started', 'Changelog@changelog'],
    });
    onceEach(after.items);
    expect(after.items.find((x) => x.space.title === 'Getting Started')!.id).toBe(rootIds.get('Getting Started'));
    expect(after.items.find((x) => x.space.title === 'Changelog')!.id).toBe(rootIds.get('Changelog'));
    expect(after.items.find((x) => x.space.title === 'API Reference')!.condition).toBe('visitor.claims.beta === true');
    expect(next.steps).toEqual([]);
    expect(next.warnings).toEqual([]);
    expect(next.unmanaged.map((u) => [u.kind, u.id])).toEqual([['SiteSpace', rootIds.get('Changelog')]]);
  });

  it('the same under prune: C is deleted too, and the next plan is empty', async () => {
    const r = await start();
    const rootIds = await siteWithRoots(r);
    const { plan, next } = await converge(r, {
      prune: true,
      spec: {
        title: 'Acme Help Center',
        sections: [{ path: 'docs', title: 'Docs', spaces: ['API Reference', 'Getting Started'] }],
      },
    });
    expect(
      plan.steps
        .filter((s) => s.phase === 'delete' || s.phase === 'prune')
        .map((s) => `${s.phase} ${s.action} ${s.id}`),
    ).toEqual([
      'delete update SiteSpace/org-demo/Acme Help Center/API Reference#replace',
      'prune delete SiteSpace/org-demo/Acme Help Center/Changelog#delete',
    ]);
    const after = await bySection(r.client);
    expect(after.sections).toEqual({ docs: ['API Reference@ref', 'Getting Started@getting-started'] });
    expect(after.items[1]!.id).toBe(rootIds.get('Getting Started'));
    expect(next.steps).toEqual([]);
    expect(next.unmanaged).toEqual([]);
  });

  it('two new sections, the second mixing a root space and another one; a written path equal to the root path', async () => {
    const r = await start();
    const rootIds = await siteWithRoots(r);
    const spec = {
      title: 'Acme Help Center',
      sections: [
        { path: 'docs', title: 'Docs', spaces: [{ space: 'API Reference', path: 'ref' }, 'Getting Started'] },
        { path: 'ops', title: 'Ops', spaces: ['Runbooks', 'Changelog'] },
      ],
    };
    const { plan, next } = await converge(r, { spec });
    // ops is POSTed with its space that is not a root one; docs (root spaces only) with its first one.
    expect(plan.steps.filter((s) => s.id.endsWith('#create')).map((s) => s.requests[0]!.body)).toEqual([
      { spaceId: 'sp-api', title: 'Docs' },
      { spaceId: 'sp-runbooks', title: 'Ops' },
    ]);
    const after = await bySection(r.client);
    expect(after.sections).toEqual({
      docs: ['API Reference@ref', 'Getting Started@getting-started'],
      ops: ['Runbooks@runbooks', 'Changelog@changelog'],
    });
    onceEach(after.items);
    expect(after.items.find((x) => x.space.title === 'Getting Started')!.id).toBe(rootIds.get('Getting Started'));
    expect(after.items.find((x) => x.space.title === 'Changelog')!.id).toBe(rootIds.get('Changelog'));
    expect(after.items.find((x) => x.space.title === 'API Reference')!.id).not.toBe(rootIds.get('API Reference'));
    expect(next.steps).toEqual([]);
    expect(next.warnings).toEqual([]);
    expect(next.unmanaged).toEqual([]);
  });
});
