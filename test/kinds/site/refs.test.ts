/**
 * Site space references that resolve to nothing block the whole site: no step, no registered id (so whatever
 * names the site is blocked in turn), the position and reason in `blocked`; the other sites still plan.
 */
import { describe, expect, it } from 'vitest';
import { ref } from '../../../src/model/refs.js';
import { siteKind } from '../../../src/kinds/site/kind.js';
import { fakeDiffContext, plan } from '../helpers.js';
import { ORG } from '../seed.js';
import { emptyOrg, liveSite, liveSpec, siteDesired } from './fixtures.js';

const NEW_SITE = (title: string) => ({
  title,
  sections: [{ path: 'guides', title: 'Guides', spaces: ['Getting Started', 'Changelog'] }],
});

describe('Site space references', () => {
  it('a typo blocks the new site: nothing planned or registered for it, while another site still plans', async () => {
    const ctx = fakeDiffContext();
    const typo = {
      title: 'Typo Site',
      sections: [{ path: 'guides', title: 'Guides', spaces: ['Getting Started', 'Getting Startd'] }],
    };
    const { result } = await plan(siteKind, ORG, siteDesired(NEW_SITE('Good Site'), typo), emptyOrg(), ctx);
    expect(result.blocked).toEqual([
      {
        kind: 'Site',
        org: ORG,
        key: 'Typo Site',
        // spec.sections[0].spaces[1]: line 10 + last index (1), column = path length (5).
        source: { file: 'site.yaml', line: 11, column: 5 },
        message:
          'space "Getting Startd" is neither a Space manifest nor a live space (by title or id); nothing of the site is planned until it names an existing space',
      },
    ]);
    expect(result.steps.every((s) => !s.key.startsWith('Typo Site'))).toBe(true);
    expect(result.steps.map((s) => s.id)).toContain('Site/org-demo/Good Site#create');
    expect(result.warnings).toEqual([]);
    expect(ctx.registered.has(`Site|${ORG}|Typo Site`)).toBe(false);
    expect(ctx.registered.get(`Site|${ORG}|Good Site`)).toBe(ref('Site/org-demo/Good Site#create'));
  });

  it('blocks an existing site as a whole (no update, no prune of its children), naming every unknown space', async () => {
    const spec = {
      ...liveSpec(),
      visibility: 'unlisted',
      sections: [
        { path: 'guides', title: 'Guides', spaces: ['Ghost', 'Changelog'] },
        { path: 'api', title: 'API', spaces: ['API Reference', 'sp-gone'] },
      ],
    };
    const ctx = fakeDiffContext({ prune: ['Site'] });
    const { result } = await plan(siteKind, ORG, siteDesired(spec), liveSite(), ctx);
    expect(result.steps).toEqual([]);
    expect(result.unmanaged).toEqual([]);
    expect(result.blocked.map((b) => [b.key, b.source, b.message])).toEqual([
      [
        'Acme Help Center',
        { file: 'site.yaml', line: 10, column: 5 },
        'space "Ghost" is neither a Space manifest nor a live space (by title or id); also space "sp-gone" (site.yaml:11:5); nothing of the site is planned until it names an existing space',
      ],
    ]);
    expect(ctx.registered.size).toBe(0);
  });

  it('a deleted space id is no space: the live spaces list no longer holds it', async () => {
    const routes = emptyOrg();
    routes['/orgs/org-demo/spaces'] = (routes['/orgs/org-demo/spaces'] as { id: string }[]).filter(
      (s) => s.id !== 'sp-runbooks',
    );
    const { result } = await plan(siteKind, ORG, siteDesired({ title: 'Ops', spaces: ['sp-runbooks'] }), routes);
    expect(result.steps).toEqual([]);
    expect(result.blocked.map((b) => b.message)).toEqual([
      expect.stringContaining('space "sp-runbooks" is neither a Space manifest nor a live space'),
    ]);
    // With the space live, the same manifest plans.
    const live = await plan(siteKind, ORG, siteDesired({ title: 'Ops', spaces: ['sp-runbooks'] }), emptyOrg());
    expect(live.result.blocked).toEqual([]);
    expect(live.result.steps.map((s) => s.id)).toEqual([
      'Site/org-demo/Ops#create',
      'SiteSpace/org-demo/Ops/sp-runbooks#create',
    ]);
  });

  it('a default site space naming nothing blocks the site at the space it writes', async () => {
    const spec = { title: 'Ops', spaces: ['Runbooks'], defaultSiteSpace: 'Runbookz' };
    const { result } = await plan(siteKind, ORG, siteDesired(spec), emptyOrg());
    expect(result.steps).toEqual([]);
    expect(result.blocked.map((b) => [b.source, b.message.split(';')[0]])).toEqual([
      [
        { file: 'site.yaml', line: 10, column: 2 },
        'space "Runbookz" is neither a Space manifest nor a live space (by title or id)',
      ],
    ]);
    const objectForm = { ...NEW_SITE('Docs'), defaultSiteSpace: { section: 'guides', space: 'Nope' } };
    const second = await plan(siteKind, ORG, siteDesired(objectForm), emptyOrg());
    expect(second.result.blocked.map((b) => b.source)).toEqual([{ file: 'site.yaml', line: 10, column: 3 }]);
  });

  it('a Space manifest created in this plan resolves (its ref); one the plan does not create (blocked) does not', async () => {
    const spec = { title: 'New', spaces: ['Fresh Space'] };
    const created = fakeDiffContext({
      registered: { [`Space|${ORG}|Fresh Space`]: ref('Space/org-demo/Fresh Space#create') },
    });
    const ok = await plan(siteKind, ORG, siteDesired(spec), emptyOrg(), created);
    expect(ok.result.blocked).toEqual([]);
    expect(ok.result.steps.find((s) => s.id === 'SiteSpace/org-demo/New/Fresh Space#create')?.dependsOn).toContain(
      'Space/org-demo/Fresh Space#create',
    );
    // A blocked Space manifest registers nothing: the site naming it is blocked in turn.
    const blocked = await plan(siteKind, ORG, siteDesired(spec), emptyOrg(), fakeDiffContext());
    expect(blocked.result.steps).toEqual([]);
    expect(blocked.result.blocked.map((b) => b.key)).toEqual(['New']);
  });
});
