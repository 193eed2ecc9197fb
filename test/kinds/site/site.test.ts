/** Site kind offline: manifest checks with positions, and the exact steps of the diff against fixed live data. */
import { describe, expect, it } from 'vitest';
import { type Step } from '../../../src/model/plan.js';
import { ref } from '../../../src/model/refs.js';
import { placeholder } from '../../../src/model/refs.js';
import { orderSteps } from '../../../src/engine/order.js';
import { siteKind } from '../../../src/kinds/site/kind.js';
import { fakeDiffContext, fakeDoc, fakeFetchContext, plan, reports, identityLookup } from '../helpers.js';
import { ORG } from '../seed.js';
import { BASE, SITE, emptyOrg, liveSite, liveSpec, siteDesired } from './fixtures.js';

const NEW = placeholder('Site/org-demo/Acme Help Center#create', 'id');
const sec = (path: string, out = 'id') => `<<ref:SiteSection/org-demo/Acme Help Center/${path}#create.${out}>>`;
const lines = (steps: Step[]) =>
  orderSteps(steps).map((s) => [
    s.id,
    s.phase,
    s.wave,
    s.dependsOn,
    s.requests.map((r) => `${r.method} ${r.path}${r.body === undefined ? '' : ` ${JSON.stringify(r.body)}`}`),
  ]);

function newSiteSpec(): Record<string, unknown> {
  return {
    title: 'Acme Help Center',
    agentsContext: 'included',
    defaultSection: 'guides',
    sections: [
      {
        path: 'guides',
        title: 'Guides',
        icon: 'book',
        spaces: ['Getting Started', { space: 'Changelog', path: 'whats-new' }],
      },
      { path: 'reference', title: 'API', description: 'For developers', spaces: ['API Reference', 'sp-runbooks'] },
    ],
    sectionGroups: [{ title: 'Developers', sections: ['reference'] }],
    shareLinks: [{ name: 'partners' }, { name: 'auditors', active: false }],
    adaptiveSchema: { type: 'object', additionalProperties: false, properties: { beta: { type: 'boolean' } } },
  };
}

describe('Site manifest checks', () => {
  it('reports structural mistakes at their positions', () => {
    const r = reports();
    const doc = fakeDoc('Site', ORG, {
      title: 'Acme Help Center',
      defaultSection: 'nope',
      defaultSiteSpace: { section: 'api', space: 'API Reference' },
      sections: [
        { path: 'guides', spaces: ['Getting Started', 'Getting Started'] },
        { path: 'guides', spaces: ['Changelog'] },
        { path: 'api', spaces: ['API Reference'] },
      ],
      sectionGroups: [
        { title: 'Dev', sections: ['api', 'missing'] },
        { title: 'Ops', sections: ['api'] },
      ],
      spaces: ['Runbooks'],
      shareLinks: [{ name: 'a' }, { name: 'a' }],
    });
    siteKind.toDesired(doc, r.report);
    expect(r.list.map((x) => `${x.pos.line}:${x.pos.column} ${x.message}`)).toEqual([
      '10:2 a site has either sections or root spaces, not both',
      '11:4 section path "guides" is listed twice',
      '11:5 space "Getting Started" of section "guides" is listed twice',
      '11:4 share link "a" is listed twice',
      '11:5 section group "Dev" names section "missing", which is not in sections',
      '10:5 section "api" is already in section group "Dev"',
      '10:2 a site with root spaces has no sections to default to',
      '10:2 a site with root spaces has no sections: write defaultSiteSpace as just the space',
      '10:2 defaultSiteSpace must be in the default section "nope" (the API sets the default site space of the default section)',
    ]);
  });

  it('flags a space missing from Space manifests that prune every other space', () => {
    const site = fakeDoc('Site', ORG, {
      title: 'Acme Help Center',
      sections: [{ path: 'g', spaces: ['Getting Started', 'Ghost'] }],
    });
    const space = { ...fakeDoc('Space', ORG, { title: 'Getting Started' }), prune: true };
    const r = reports();
    const entries = siteKind.toDesired(site, r.report);
    const all = new Map([
      ['Space', [{ kind: 'Space', org: ORG, key: 'Getting Started', spec: {}, source: space.pos([]), doc: space }]],
    ]);
    siteKind.crossValidate!(entries, all, r.report, identityLookup(all));
    expect(r.list.map((x) => [x.pos.line, x.message])).toEqual([
      [11, 'space "Ghost" is not in the Space manifests of org-demo, which prune every other space'],
    ]);
  });
});

describe('Site diff', () => {
  it('plans nothing when the live site matches, fetching only what the spec writes', async () => {
    const ctx = fakeFetchContext(liveSite());
    const d = siteDesired(liveSpec());
    const live = await siteKind.fetch(ctx, ORG, d);
    expect(ctx.asked.sort()).toEqual([
      `${BASE}/sites`,
      `${SITE}/section-groups`,
      `${SITE}/sections`,
      `${SITE}/share-links`,
      `${SITE}/site-spaces`,
      `${BASE}/spaces`,
    ]);
    expect(siteKind.diff(fakeDiffContext(), ORG, d, live)).toEqual({
      steps: [],
      unmanaged: [],
      warnings: [],
      blocked: [],
    });
    expect(live.objects.map((o) => `${o.kind} ${o.key}`)).toEqual([
      'Site Acme Help Center',
      'SiteSection Acme Help Center/guides',
      'SiteSection Acme Help Center/api',
      'SiteSectionGroup Acme Help Center/Developers',
      'SiteSpace Acme Help Center/guides/Getting Started',
      'SiteSpace Acme Help Center/guides/Changelog',
      'SiteSpace Acme Help Center/api/API Reference',
      'SiteSpace Acme Help Center/api/Runbooks',
      'SiteShareLink Acme Help Center/partners',
    ]);
  });

  it('fetches nothing below an unmanaged site', async () => {
    const ctx = fakeFetchContext(liveSite());
    await siteKind.fetch(ctx, ORG, siteDesired({ title: 'Other site' }));
    expect(ctx.asked).toEqual([`${BASE}/sites`]);
  });

  it('creates a whole site: site, sections with their first space, site spaces and share links, group, then schema and defaults', async () => {
    const ctx = fakeDiffContext();
    const { result } = await plan(siteKind, ORG, siteDesired(newSiteSpec()), emptyOrg(), ctx);
    const S = `${BASE}/sites/${NEW}`;
    expect(lines(result.steps)).toEqual([
      [
        'Site/org-demo/Acme Help Center#create',
        'create',
        30,
        [],
        [`POST ${BASE}/sites {"title":"Acme Help Center"}`, `PATCH ${S} {"agentsContext":"included"}`],
      ],
      [
        'SiteSection/org-demo/Acme Help Center/guides#create',
        'create',
        31,
        ['Site/org-demo/Acme Help Center#create'],
        [`POST ${S}/sections {"spaceId":"sp-getting-started","title":"Guides","icon":"book"}`],
      ],
      [
        'SiteSection/org-demo/Acme Help Center/reference#create',
        'create',
        31,
        ['Site/org-demo/Acme Help Center#create'],
        [
          `POST ${S}/sections {"spaceId":"sp-api","title":"API"}`,
          `PATCH ${S}/sections/${sec('reference')} {"path":"reference","description":"For developers"}`,
        ],
      ],
      [
        'SiteShareLink/org-demo/Acme Help Center/auditors#create',
        'create',
        32,
        ['Site/org-demo/Acme Help Center#create'],
        [
          `POST ${S}/share-links {"name":"auditors"}`,
          `PATCH ${S}/share-links/<<ref:SiteShareLink/org-demo/Acme Help Center/auditors#create.id>> {"active":false}`,
        ],
      ],
      [
        'SiteShareLink/org-demo/Acme Help Center/partners#create',
        'create',
        32,
        ['Site/org-demo/Acme Help Center#create'],
        [`POST ${S}/share-links {"name":"partners"}`],
      ],
      [
        'SiteSpace/org-demo/Acme Help Center/guides/Changelog#create',
        'create',
        32,
        ['Site/org-demo/Acme Help Center#create', 'SiteSection/org-demo/Acme Help Center/guides#create'],
        [
          `POST ${S}/site-spaces {"spaceId":"sp-changelog","sectionId":"${sec('guides')}"}`,
          `PATCH ${S}/site-spaces/<<ref:SiteSpace/org-demo/Acme Help Center/guides/Changelog#create.id>> {"path":"whats-new"}`,
        ],
      ],
      [
        'SiteSpace/org-demo/Acme Help Center/reference/sp-runbooks#create',
        'create',
        32,
        ['Site/org-demo/Acme Help Center#create', 'SiteSection/org-demo/Acme Help Center/reference#create'],
        [`POST ${S}/site-spaces {"spaceId":"sp-runbooks","sectionId":"${sec('reference')}"}`],
      ],
      [
        'SiteSectionGroup/org-demo/Acme Help Center/Developers#create',
        'create',
        33,
        ['Site/org-demo/Acme Help Center#create', 'SiteSection/org-demo/Acme Help Center/reference#create'],
        [`POST ${S}/section-groups {"title":"Developers","sections":["${sec('reference')}"]}`],
      ],
      [
        'Site/org-demo/Acme Help Center#adaptive-schema',
        'update',
        30,
        ['Site/org-demo/Acme Help Center#create'],
        [
          `PUT ${S}/adaptive-schema {"jsonSchema":{"type":"object","additionalProperties":false,"properties":{"beta":{"type":"boolean","description":"beta"}}}}`,
        ],
      ],
      // Two sections created at once: which one the server makes the default is unknown, so it is sent.
      [
        'Site/org-demo/Acme Help Center#defaults',
        'update',
        36,
        ['Site/org-demo/Acme Help Center#create', 'SiteSection/org-demo/Acme Help Center/guides#create'],
        [`PATCH ${S} {"defaultSiteSection":"${sec('guides')}"}`],
      ],
    ]);
    expect(result.warnings).toEqual([]);
    // Later kinds can find the new site and its sections.
    expect(ctx.registered.get(`Site|${ORG}|Acme Help Center`)).toBe(ref('Site/org-demo/Acme Help Center#create'));
    expect(ctx.registered.get(`SiteSection|${ORG}|Acme Help Center/guides`)).toBe(
      ref('SiteSection/org-demo/Acme Help Center/guides#create'),
    );
  });

  it('a space created by the Space kind in the same plan is a ref the section step depends on', async () => {
    const ctx = fakeDiffContext({ registered: { [`Space|${ORG}|Tutorials`]: ref('Space/org-demo/Tutorials#create') } });
    const { result } = await plan(
      siteKind,
      ORG,
      siteDesired({
        title: 'Acme Help Center',
        sections: [{ path: 'tutorials', title: 'Tutorials', spaces: ['Tutorials'] }],
      }),
      emptyOrg(),
      ctx,
    );
    const step = result.steps.find((s) => s.id.endsWith('tutorials#create'))!;
    expect(step.dependsOn).toEqual(['Site/org-demo/Acme Help Center#create', 'Space/org-demo/Tutorials#create']);
    expect(step.requests[0]!.body).toEqual({
      spaceId: placeholder('Space/org-demo/Tutorials#create', 'id'),
      title: 'Tutorials',
    });
    expect(step.requests[0]!.refs).toContainEqual({
      at: 'body',
      pointer: '/spaceId',
      step: 'Space/org-demo/Tutorials#create',
      output: 'id',
    });
  });

  it('renames a section with one PATCH', async () => {
    const spec = liveSpec();
    (spec['sections'] as Record<string, unknown>[])[0]!['title'] = 'User guides';
    const { result } = await plan(siteKind, ORG, siteDesired(spec), liveSite());
    expect(lines(result.steps)).toEqual([
      [
        'SiteSection/org-demo/Acme Help Center/guides#update',
        'update',
        31,
        [],
        [`PATCH ${SITE}/sections/sec-guides {"title":"User guides"}`],
      ],
    ]);
    expect(result.steps[0]).toMatchObject({ before: { title: 'Guides' }, after: { title: 'User guides' } });
  });

  it('moves a space to another section with a move next to a site space of that section, not delete + create', async () => {
    const spec = liveSpec();
    const [guides, api] = spec['sections'] as { spaces: string[] }[];
    guides!.spaces = ['Getting Started'];
    api!.spaces = ['API Reference', 'Changelog', 'Runbooks'];
    const { result } = await plan(siteKind, ORG, siteDesired(spec), liveSite(), fakeDiffContext({ prune: ['Site'] }));
    expect(lines(result.steps)).toEqual([
      [
        'Site/org-demo/Acme Help Center#order',
        'update',
        35,
        [],
        [`POST ${SITE}/site-spaces/ss-cl/move {"position":{"after":{"type":"site-space","siteSpace":"ss-api"}}}`],
      ],
    ]);
  });

  it('reorders sections and site spaces with the fewest moves', async () => {
    const spec = liveSpec();
    const [guides, api] = spec['sections'] as { spaces: string[] }[];
    guides!.spaces = ['Changelog', 'Getting Started'];
    spec['sections'] = [api, guides];
    const { result } = await plan(siteKind, ORG, siteDesired(spec), liveSite());
    expect(lines(result.steps)).toEqual([
      [
        'Site/org-demo/Acme Help Center#order',
        'update',
        35,
        [],
        [
          `PATCH ${SITE}/structure/sort {"item":{"type":"site-section-group","id":"grp-dev"},"position":{"before":{"type":"site-section","id":"sec-guides"}}}`,
          `PATCH ${SITE}/structure/sort {"item":{"type":"site-space","id":"ss-cl"},"position":{"before":{"type":"site-space","id":"ss-gs"}}}`,
        ],
      ],
    ]);
    expect(result.steps[0]!.after).toEqual({
      navigation: {
        sections: ['group Developers', 'guides'],
        'section guides': ['guides/Changelog', 'guides/Getting Started'],
      },
    });
  });

  it('changes the default section with a PATCH of the site', async () => {
    const { result } = await plan(siteKind, ORG, siteDesired({ ...liveSpec(), defaultSection: 'api' }), liveSite());
    expect(lines(result.steps)).toEqual([
      ['Site/org-demo/Acme Help Center#defaults', 'update', 36, [], [`PATCH ${SITE} {"defaultSiteSection":"sec-api"}`]],
    ]);
  });

  it('deleting the default section under prune first makes another section the default (update phase)', async () => {
    const { defaultSection: _d, ...spec } = liveSpec();
    spec['sections'] = (spec['sections'] as { path: string }[]).filter((s) => s.path === 'api');
    const { result } = await plan(siteKind, ORG, siteDesired(spec), liveSite(), fakeDiffContext({ prune: ['Site'] }));
    expect(lines(result.steps)).toEqual([
      ['Site/org-demo/Acme Help Center#defaults', 'update', 36, [], [`PATCH ${SITE} {"defaultSiteSection":"sec-api"}`]],
      ['SiteSection/org-demo/Acme Help Center/guides#delete', 'prune', 38, [], [`DELETE ${SITE}/sections/sec-guides`]],
    ]);
  });

  it('prune off never deletes a site or any of its children: they are listed as unmanaged', async () => {
    const routes = {
      ...liveSite(),
      [`${BASE}/sites`]: [
        ...(liveSite()[`${BASE}/sites`] as object[]),
        { object: 'site', id: 'site-old', title: 'Old site' },
      ],
    };
    const spec = {
      title: 'Acme Help Center',
      sections: [{ path: 'api', title: 'API', spaces: ['API Reference'] }],
      sectionGroups: [],
      shareLinks: [],
    };
    const { result } = await plan(siteKind, ORG, siteDesired(spec), routes);
    expect(result.steps.filter((s) => s.action === 'delete')).toEqual([]);
    expect(result.unmanaged.map((u) => `${u.kind} ${u.key}`).sort()).toEqual([
      'Site Old site',
      'SiteSection Acme Help Center/guides',
      'SiteSectionGroup Acme Help Center/Developers',
      'SiteShareLink Acme Help Center/partners',
      'SiteSpace Acme Help Center/api/Runbooks',
    ]);
    // api leaves the group (membership is managed: sectionGroups is written).
    expect(result.steps.map((s) => s.id)).toEqual(['SiteSectionGroup/org-demo/Acme Help Center/Developers#leave']);
  });

  it('under prune deletes children child-first and the unmanaged site last', async () => {
    const routes = {
      ...liveSite(),
      [`${BASE}/sites`]: [
        ...(liveSite()[`${BASE}/sites`] as object[]),
        { object: 'site', id: 'site-old', title: 'Old site' },
      ],
    };
    const spec = {
      ...liveSpec(),
      sections: [{ path: 'guides', title: 'Guides', spaces: ['Getting Started'] }],
      sectionGroups: [],
      shareLinks: [],
    };
    const { result } = await plan(siteKind, ORG, siteDesired(spec), routes, fakeDiffContext({ prune: ['Site'] }));
    expect(lines(result.steps).map(([id, phase, wave]) => `${phase} ${wave} ${id}`)).toEqual([
      'prune 39 SiteSpace/org-demo/Acme Help Center/guides/Changelog#delete',
      'prune 38 SiteSection/org-demo/Acme Help Center/api#delete',
      'prune 37 SiteSectionGroup/org-demo/Acme Help Center/Developers#delete',
      'prune 36 SiteShareLink/org-demo/Acme Help Center/partners#delete',
      'prune 30 Site/org-demo/Old site#delete',
    ]);
  });

  it('share-link secrets appear nowhere: not in live objects, steps or the plan', async () => {
    const spec = { ...liveSpec(), shareLinks: [{ name: 'partners', active: false }, { name: 'new' }] };
    const { live, result } = await plan(
      siteKind,
      ORG,
      siteDesired(spec),
      liveSite(),
      fakeDiffContext({ prune: ['Site'] }),
    );
    expect(result.steps.map((s) => s.id)).toEqual([
      'SiteShareLink/org-demo/Acme Help Center/partners#update',
      'SiteShareLink/org-demo/Acme Help Center/new#create',
    ]);
    const text = JSON.stringify({ live, result });
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain('share=');
    expect(text).not.toContain('urls');
  });

  it('an unknown space blocks the site at the position it is written (more in refs-site.test.ts)', async () => {
    const spec = {
      ...liveSpec(),
      sections: [
        { path: 'guides', title: 'Guides', spaces: ['Getting Started', 'Changelog', 'Ghost'] },
        { path: 'api', title: 'API', spaces: ['API Reference', 'Runbooks'] },
      ],
    };
    const { result } = await plan(siteKind, ORG, siteDesired(spec), liveSite());
    expect(result.steps).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.blocked.map((b) => [b.key, b.source, b.message])).toEqual([
      [
        'Acme Help Center',
        { file: 'site.yaml', line: 12, column: 5 },
        'space "Ghost" is neither a Space manifest nor a live space (by title or id); nothing of the site is planned until it names an existing space',
      ],
    ]);
  });
});
