/**
 * `defaultContent.site` of an Organization: a Site manifest (id or create ref), a live site by title, a live site
 * id. Anything else blocks the document before any write (the API refuses an unknown site).
 */
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/model/errors.js';
import { ref } from '../../src/model/refs.js';
import { organizationKind } from '../../src/kinds/organization.js';
import { desiredOf, fakeDiffContext, fakeDoc, fakeFetchContext, plan } from './helpers.js';
import { ORG, seedRoutes } from './seed.js';

const desired = (spec: Record<string, unknown>) => desiredOf(organizationKind, [fakeDoc('Organization', ORG, spec)]);
const withSites = (...sites: { id: string; title: string }[]) => ({
  ...seedRoutes(),
  [`/orgs/${ORG}/sites`]: sites.map((s) => ({ object: 'site', ...s })),
});
const content = (site: string) => ({ defaultContent: { type: 'site', site } });

describe('Organization defaultContent.site', () => {
  it('naming nothing blocks the whole document (its other settings too) at the site it writes', async () => {
    const { result } = await plan(
      organizationKind,
      ORG,
      desired({ title: 'Acme Documentation', ...content('Help Centre') }),
      withSites({ id: 'site-1', title: 'Help Center' }),
    );
    expect(result.steps).toEqual([]);
    expect(result.blocked).toEqual([
      {
        kind: 'Organization',
        org: ORG,
        key: ORG,
        source: { file: 'organization.yaml', line: 10, column: 3 },
        message:
          'defaultContent.site "Help Centre" is neither a Site manifest nor a live site (by title or id); the organization settings are not planned until it names an existing site',
      },
    ]);
  });

  it('a site id that is not live is blocked, not sent (the API would refuse it)', async () => {
    const { result } = await plan(
      organizationKind,
      ORG,
      desired(content('site-9')),
      withSites({ id: 'site-1', title: 'Help Center' }),
    );
    expect(result.steps).toEqual([]);
    expect(result.blocked.map((b) => b.message)).toEqual([
      expect.stringContaining('defaultContent.site "site-9" is neither'),
    ]);
  });

  it('names a live site by title (no Site manifest needed) or by id', async () => {
    const routes = withSites({ id: 'site-1', title: 'Help Center' });
    const byTitle = await plan(organizationKind, ORG, desired(content('Help Center')), routes);
    expect(byTitle.result.blocked).toEqual([]);
    expect(byTitle.result.steps.map((s) => [s.requests[0]!.body, s.note])).toEqual([
      [content('site-1'), 'default content: site "Help Center" (site-1)'],
    ]);
    const byId = await plan(organizationKind, ORG, desired(content('site-1')), routes);
    expect(byId.result.steps.map((s) => s.requests[0]!.body)).toEqual([content('site-1')]);
  });

  it('two live sites with the title: a ConflictError, docops never guesses', async () => {
    const routes = withSites({ id: 'site-1', title: 'Docs' }, { id: 'site-2', title: 'Docs' });
    await expect(plan(organizationKind, ORG, desired(content('Docs')), routes)).rejects.toThrow(ConflictError);
    await expect(plan(organizationKind, ORG, desired(content('Docs')), routes)).rejects.toThrow(
      /matches 2 live sites \(site-1, site-2\)/,
    );
  });

  it('a Site manifest the plan creates resolves to its ref; one it blocks (never registered) blocks the organization in turn', async () => {
    const created = fakeDiffContext({ registered: { [`Site|${ORG}|New Site`]: ref('Site/org-demo/New Site#create') } });
    const ok = await plan(organizationKind, ORG, desired(content('New Site')), withSites(), created);
    expect(ok.result.steps.map((s) => s.dependsOn)).toEqual([['Site/org-demo/New Site#create']]);
    const blocked = await plan(organizationKind, ORG, desired(content('New Site')), withSites(), fakeDiffContext());
    expect(blocked.result.steps).toEqual([]);
    expect(blocked.result.blocked.map((b) => b.key)).toEqual([ORG]);
  });

  it('lists the sites only when a document names one', async () => {
    const ctx = fakeFetchContext(seedRoutes());
    await organizationKind.fetch(ctx, ORG, desired({ title: 'Acme Docs' }));
    expect(ctx.asked).toEqual([`/orgs/${ORG}`]);
  });
});
