/**
 * Drift the plan used to leave in place while saying "No changes" (issue 12, "Trust at the edges"), each
 * against the sandbox: apply manifest A, change the manifest (or live) to a swapped state, then ONE apply must
 * reach it and the next plan must be empty. Where the API cannot reach the manifest's state, the site is
 * blocked (file:line:column, exit 1), never warned about with no step.
 */
import { describe, expect, it } from 'vitest';
import { expectConverged, round, siteBase, siteSpaceIds, siteYaml, structure, TITLE } from './swap-harness.js';
import { sandboxPerTest } from '../sandbox-per-test.js';

const start = sandboxPerTest('site-swaps');

/** 1-based column of `text` on the spec line of the document `siteYaml(spec)` writes. */
const siteYamlColumn = (spec: Record<string, unknown>, text: string): number =>
  siteYaml(spec).split('\n')[3]!.indexOf(text) + 1;

const twoSections = (a: unknown[], b: unknown[], extra: Record<string, unknown> = {}) => ({
  title: TITLE,
  defaultSection: 'guides',
  sections: [
    { path: 'guides', title: 'Guides', spaces: a },
    { path: 'api', title: 'API', spaces: b },
  ],
  ...extra,
});

describe('swapped spaces of sections', () => {
  it('two sections of one site space each trade them: each site space is re-pointed in place (no move can do it)', async () => {
    for (const prune of [false, true]) {
      const r = await start();
      expectConverged(await round(r, twoSections(['Getting Started'], ['Changelog']), prune));
      const ids = await siteSpaceIds(r.client);
      const x = await round(r, twoSections(['Changelog'], ['Getting Started']), prune);
      expectConverged(x);
      expect(x.plan.steps.map((s) => [s.id, s.requests.map((q) => q.body)])).toEqual([
        [
          'SiteSpace/org-demo/Acme Help Center/api/Getting Started#update',
          [{ spaceId: 'sp-getting-started', path: 'getting-started' }],
        ],
        [
          'SiteSpace/org-demo/Acme Help Center/guides/Changelog#update',
          [{ spaceId: 'sp-changelog', path: 'changelog' }],
        ],
      ]);
      expect(await structure(r.client)).toEqual({
        'guides*': ['Changelog@changelog*'],
        api: ['Getting Started@getting-started*'],
      });
      // The site spaces stayed (same ids, same places): only what they show changed.
      expect((await siteSpaceIds(r.client)).get('guides/Changelog')).toBe(ids.get('guides/Getting Started'));
    }
  });

  it('a rotation of three sections re-points all three', async () => {
    const r = await start();
    const spec = (a: string, b: string, c: string) => ({
      title: TITLE,
      defaultSection: 'a',
      sections: [
        { path: 'a', title: 'Alpha', spaces: [a] },
        { path: 'b', title: 'Beta', spaces: [b] },
        { path: 'c', title: 'Gamma', spaces: [c] },
      ],
    });
    expectConverged(await round(r, spec('Getting Started', 'Changelog', 'Runbooks')));
    const x = await round(r, spec('Changelog', 'Runbooks', 'Getting Started'));
    expectConverged(x);
    expect(x.plan.steps.map((s) => s.id)).toEqual([
      'SiteSpace/org-demo/Acme Help Center/a/Changelog#update',
      'SiteSpace/org-demo/Acme Help Center/b/Runbooks#update',
      'SiteSpace/org-demo/Acme Help Center/c/Getting Started#update',
    ]);
    expect(await structure(r.client)).toEqual({
      'a*': ['Changelog@changelog*'],
      b: ['Runbooks@runbooks*'],
      c: ['Getting Started@getting-started*'],
    });
  });

  it('sections of two site spaces each trade their defaults: new defaults first, then the moves', async () => {
    const r = await start();
    expectConverged(await round(r, twoSections(['Getting Started', 'Runbooks'], ['Changelog', 'API Reference'])));
    const x = await round(r, twoSections(['Changelog', 'Runbooks'], ['Getting Started', 'API Reference']));
    expectConverged(x);
    expect(await structure(r.client)).toEqual({
      'guides*': ['Changelog@changelog', 'Runbooks@runbooks*'],
      api: ['Getting Started@getting-started', 'API Reference@api-reference*'],
    });
  });

  it('sections whose site spaces all arrive from elsewhere: the first to arrive becomes the default, then the old one leaves', async () => {
    const r = await start();
    expectConverged(await round(r, twoSections(['Getting Started', 'Runbooks'], ['Changelog', 'API Reference'])));
    const x = await round(r, twoSections(['Changelog', 'API Reference'], ['Getting Started', 'Runbooks']));
    expectConverged(x);
    expect(x.plan.steps.map((s) => s.id)).toEqual(['Site/org-demo/Acme Help Center#order']);
    // Each section makes its first arrival the default (one PATCH each), so its old default may leave.
    expect(x.writes.filter((w) => w.startsWith('PATCH'))).toEqual([
      'PATCH ~/sections/:siteSectionId 200',
      'PATCH ~/sections/:siteSectionId 200',
    ]);
    expect(await structure(r.client)).toEqual({
      'guides*': ['Changelog@changelog', 'API Reference@api-reference*'],
      api: ['Getting Started@getting-started*', 'Runbooks@runbooks'],
    });
  });

  it("under prune, a section's only site space replaced by one from another section: default first, delete last", async () => {
    const r = await start();
    expectConverged(await round(r, twoSections(['Getting Started'], ['Changelog', 'Runbooks']), true));
    const x = await round(r, twoSections(['Changelog'], ['Runbooks']), true);
    expectConverged(x);
    expect(await structure(r.client)).toEqual({ 'guides*': ['Changelog@changelog*'], api: ['Runbooks@runbooks*'] });
  });

  it('under prune, the only site space of a deleted section is wanted elsewhere: created there (the section keeps its own until it goes)', async () => {
    const r = await start();
    expectConverged(
      await round(
        r,
        twoSections(['Getting Started'], [{ space: 'Changelog', condition: 'visitor.claims.beta === true' }]),
        true,
      ),
    );
    const x = await round(
      r,
      {
        title: TITLE,
        defaultSection: 'guides',
        sections: [{ path: 'guides', title: 'Guides', spaces: ['Getting Started', 'Changelog'] }],
      },
      true,
    );
    expectConverged(x);
    expect(x.plan.steps.map((s) => s.id)).toEqual([
      'SiteSpace/org-demo/Acme Help Center/guides/Changelog#create',
      'SiteSection/org-demo/Acme Help Center/api#delete',
    ]);
    // The new one keeps the condition the moved one would have had: never shown more widely.
    const base = await siteBase(r.client);
    const items = await r.client.listAll<{ space: { title: string }; condition?: string }>(`${base}/site-spaces`);
    expect(items.map((i) => [i.space.title, i.condition ?? null])).toEqual([
      ['Getting Started', null],
      ['Changelog', 'visitor.claims.beta === true'],
    ]);
  });
});

describe('swapped paths', () => {
  it('two sections swap their paths (by path identity: titles and spaces trade places)', async () => {
    const r = await start();
    expectConverged(await round(r, twoSections(['Getting Started'], ['Changelog'])));
    const x = await round(r, {
      title: TITLE,
      defaultSection: 'guides',
      sections: [
        { path: 'api', title: 'Guides', spaces: ['Getting Started'] },
        { path: 'guides', title: 'API', spaces: ['Changelog'] },
      ],
    });
    expectConverged(x);
    expect(await structure(r.client)).toEqual({
      api: ['Getting Started@getting-started*'],
      'guides*': ['Changelog@changelog*'],
    });
  });

  it('two sections whose paths were swapped live are put back', async () => {
    const r = await start();
    const spec = twoSections(['Getting Started', 'Runbooks'], ['Changelog']);
    expectConverged(await round(r, spec));
    const base = await siteBase(r.client);
    const [guides, api] = await r.client.listAll<{ id: string }>(`${base}/sections`);
    await r.client.request('PATCH', `${base}/sections/${guides!.id}`, { body: { path: 'tmp' } });
    await r.client.request('PATCH', `${base}/sections/${api!.id}`, { body: { path: 'guides' } });
    await r.client.request('PATCH', `${base}/sections/${guides!.id}`, { body: { path: 'api' } });
    expectConverged(await round(r, spec));
    // By path identity each section now shows the other's spaces; the first that could arrive is the default.
    expect(await structure(r.client)).toEqual({
      'guides*': ['Getting Started@getting-started', 'Runbooks@runbooks*'],
      api: ['Changelog@changelog*'],
    });
  });

  it('two site spaces of one section swap paths: one is parked on a free path first (one step, in order)', async () => {
    for (const prune of [false, true]) {
      const r = await start();
      const spec = (p: string, q: string) =>
        twoSections(
          [
            { space: 'Getting Started', path: p },
            { space: 'Changelog', path: q },
          ],
          ['Runbooks'],
        );
      expectConverged(await round(r, spec('start', 'news'), prune));
      const x = await round(r, spec('news', 'start'), prune);
      expectConverged(x);
      expect(x.plan.steps.map((s) => [s.id, s.requests.map((q) => q.body)])).toEqual([
        ['Site/org-demo/Acme Help Center#order', [{ path: 'start-swap' }, { path: 'start' }, { path: 'news' }]],
      ]);
      expect(await structure(r.client)).toEqual({
        'guides*': ['Getting Started@news*', 'Changelog@start'],
        api: ['Runbooks@runbooks*'],
      });
    }
  });

  it('a rotation of three root site-space paths', async () => {
    const r = await start();
    const spec = (a: string, b: string, c: string) => ({
      title: TITLE,
      spaces: [
        { space: 'Getting Started', path: a },
        { space: 'Changelog', path: b },
        { space: 'Runbooks', path: c },
      ],
    });
    expectConverged(await round(r, spec('one', 'two', 'three')));
    const x = await round(r, spec('two', 'three', 'one'));
    expectConverged(x);
    // (Which root site space is the default depends on which concurrent create came first.)
    expect((await structure(r.client))['/']!.map((x) => x.replace('*', ''))).toEqual([
      'Getting Started@two',
      'Changelog@three',
      'Runbooks@one',
    ]);
  });

  it('a path freed by a site space that moves to another section is taken after the move', async () => {
    const r = await start();
    expectConverged(
      await round(
        r,
        twoSections(
          [
            { space: 'Getting Started', path: 'p' },
            { space: 'Changelog', path: 'q' },
          ],
          ['Runbooks'],
        ),
      ),
    );
    const x = await round(
      r,
      twoSections([{ space: 'Getting Started', path: 'q' }], ['Runbooks', { space: 'Changelog', path: 'q' }]),
    );
    expectConverged(x);
    expect(x.writes).toEqual(['POST ~/site-spaces/:siteSpaceId/move 200', 'PATCH ~/site-spaces/:siteSpaceId 200']);
  });

  it('a written path that one of two new site spaces (same space title) derives is set after the creates', async () => {
    const r = await start();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++)
      ids.push(
        (await r.client.request<{ id: string }>('POST', '/orgs/org-demo/spaces', { body: { title: 'Guide' } })).body!
          .id,
      );
    expectConverged(await round(r, twoSections(['Getting Started', 'Changelog'], ['Runbooks'])));
    const x = await round(
      r,
      twoSections(['Getting Started', { space: 'Changelog', path: 'guide' }, ids[0]!, ids[1]!], ['Runbooks']),
    );
    expectConverged(x);
    expect((await structure(r.client))['guides*']!.filter((t) => t.startsWith('Changelog'))).toEqual([
      'Changelog@guide',
    ]);
  });

  it('a path held by a site space this plan deletes (prune): that one is parked first', async () => {
    const r = await start();
    expectConverged(
      await round(
        r,
        twoSections(
          [
            { space: 'Getting Started', path: 'p' },
            { space: 'Changelog', path: 'q' },
          ],
          ['Runbooks'],
        ),
        true,
      ),
    );
    const x = await round(r, twoSections([{ space: 'Getting Started', path: 'q' }], ['Runbooks']), true);
    expectConverged(x);
    expect(await structure(r.client)).toEqual({ 'guides*': ['Getting Started@q*'], api: ['Runbooks@runbooks*'] });
  });
});

describe('swapped group titles', () => {
  const spec = (g1: string[], g2: string[]) => ({
    ...twoSections(['Getting Started'], ['Changelog']),
    sectionGroups: [
      { title: 'Users', sections: g1 },
      { title: 'Developers', sections: g2 },
    ],
  });

  it('in the manifest: the sections change groups (leave, join, order)', async () => {
    const r = await start();
    expectConverged(await round(r, spec(['guides'], ['api'])));
    expectConverged(await round(r, spec(['api'], ['guides'])));
  });

  it('live: the groups are renamed onto each other, and the manifest puts the sections back', async () => {
    const r = await start();
    expectConverged(await round(r, spec(['guides'], ['api'])));
    const base = await siteBase(r.client);
    const [users, devs] = await r.client.listAll<{ id: string }>(`${base}/section-groups`);
    await r.client.request('PATCH', `${base}/section-groups/${users!.id}`, { body: { title: 'Developers' } });
    await r.client.request('PATCH', `${base}/section-groups/${devs!.id}`, { body: { title: 'Users' } });
    expectConverged(await round(r, spec(['guides'], ['api'])));
    const groups = await r.client.listAll<{ title: string; sections: { path: string }[] }>(`${base}/section-groups`);
    expect(groups.map((g) => `${g.title}: ${g.sections.map((s) => s.path).join()}`).sort()).toEqual([
      'Developers: api',
      'Users: guides',
    ]);
  });
});

describe('what no request sequence reaches is blocked, not "No changes"', () => {
  it('a written path held by a site space the manifest does not list, prune off: blocked at the path; under prune it converges', async () => {
    const r = await start();
    const a = twoSections(
      [
        { space: 'Getting Started', path: 'p' },
        { space: 'Changelog', path: 'q' },
      ],
      ['Runbooks'],
    );
    expectConverged(await round(r, a));
    const b = twoSections([{ space: 'Getting Started', path: 'q' }], ['Runbooks']);
    const x = await round(r, b);
    expect(x.plan.steps).toEqual([]);
    expect(x.report.failed).toEqual([]);
    const ids = await siteSpaceIds(r.client);
    expect(x.plan.blocked.map((e) => [e.kind, e.key, e.source?.line, e.message])).toEqual([
      [
        'Site',
        TITLE,
        4,
        `path "q" of guides/Getting Started is used by site space ${ids.get('guides/Changelog')} ("Changelog" in section "guides"), which the manifest does not list there and which stays (prune is off): write another path, list that site space, or turn prune on`,
      ],
    ]);
    // The position is the path written for Getting Started (its value).
    expect(x.plan.blocked[0]!.source!.column).toBe(siteYamlColumn(b, '"path":"q"') + '"path":'.length);
    expect(x.next.blocked).toHaveLength(1);
    expectConverged(await round(r, b, true));
  });

  it('root spaces for a site that has sections: blocked (the default section cannot be deleted)', async () => {
    const r = await start();
    expectConverged(await round(r, twoSections(['Getting Started'], ['Changelog'])));
    const x = await round(r, { title: TITLE, spaces: ['Getting Started', 'Changelog'] }, true);
    expect(x.plan.steps).toEqual([]);
    expect(x.plan.blocked.map((e) => e.message)).toEqual([
      'the site has sections ("guides", "api") and a site with sections cannot go back to root spaces (its default section cannot be deleted): list these spaces in sections instead',
    ]);
    expect(await structure(r.client)).toEqual({
      'guides*': ['Getting Started@getting-started*'],
      api: ['Changelog@changelog*'],
    });
  });

  it('a default site space not listed in its section, or in a section that is not the default: blocked at defaultSiteSpace', async () => {
    const r = await start();
    expectConverged(await round(r, twoSections(['Getting Started'], ['Changelog'])));
    const notListed = await round(
      r,
      twoSections(['Getting Started'], ['Changelog'], { defaultSiteSpace: { section: 'guides', space: 'Runbooks' } }),
    );
    expect(notListed.plan.blocked.map((e) => e.message)).toEqual([
      'default site space "Runbooks" is not listed in section "guides": list it there, or name one of its spaces',
    ]);
    const { defaultSection: _d, ...unwritten } = twoSections(['Getting Started'], ['Changelog'], {
      defaultSiteSpace: { section: 'api', space: 'Changelog' },
    });
    const otherSection = await round(r, unwritten);
    expect(otherSection.plan.blocked.map((e) => e.message)).toEqual([
      'default site space is in section "api", but the default section is "guides", and the API sets the default site space of the default section only: add defaultSection: api',
    ]);
  });

  it('a site without sections whose default site space is pruned gets another default first', async () => {
    const r = await start();
    expectConverged(
      await round(
        r,
        { title: TITLE, spaces: ['Getting Started', 'Changelog'], defaultSiteSpace: 'Getting Started' },
        true,
      ),
    );
    const x = await round(r, { title: TITLE, spaces: ['Changelog'] }, true);
    expectConverged(x);
    expect(await structure(r.client)).toEqual({ '/': ['Changelog@changelog*'] });
  });
});
