/** Sites built through the official client for the cases that need one. */
import type { Site, SiteSection, SiteSpace } from '../../../node_modules/@gitbook/api/dist/client.js';
import { ORG, expectStatus, type Env } from './harness.js';

/** A site without sections showing `sp-getting-started` at its root. */
export async function newSite(env: Env): Promise<{ site: Site; root: SiteSpace }> {
  const site = await expectStatus(env.api.orgs.createSite(ORG, { title: 'Docs', spaces: ['sp-getting-started'] }), 201);
  const root = (await expectStatus(env.api.orgs.listSiteSpaces(ORG, site.id), 200)).items[0]!;
  return { site, root };
}

/**
 * A site with two sections: `api` (the default one: sp-api, then sp-getting-started that was at the root) and
 * `runbooks` (sp-runbooks).
 */
export async function sectionedSite(env: Env): Promise<{ site: Site; api: SiteSection; runbooks: SiteSection }> {
  const { site } = await newSite(env);
  await expectStatus(env.api.orgs.addSectionToSite(ORG, site.id, { spaceId: 'sp-api', title: 'API' }), 201);
  await expectStatus(env.api.orgs.addSectionToSite(ORG, site.id, { spaceId: 'sp-runbooks', title: 'Runbooks' }), 201);
  const [api, runbooks] = (await expectStatus(env.api.orgs.listSiteSections(ORG, site.id), 200)).items as [
    SiteSection,
    SiteSection,
  ];
  return { site, api, runbooks };
}

export const sectionIds = async (env: Env, siteId: string): Promise<string[]> =>
  (await expectStatus(env.api.orgs.listSiteSections(ORG, siteId), 200)).items.map((s) => s.id);

export const structureOf = async (env: Env, siteId: string): Promise<unknown> => {
  const s = await expectStatus(env.api.orgs.getSiteStructure(ORG, siteId), 200);
  const shape = (item: { object: string; id: string; children?: unknown[]; siteSpaces?: { id: string }[] }): unknown =>
    item.object === 'site-section-group'
      ? { group: item.id, children: (item.children as (typeof item)[]).map(shape) }
      : item.object === 'site-section'
        ? { section: item.id, siteSpaces: (item.siteSpaces ?? []).map((x) => x.id) }
        : item.id;
  return (s.structure as Parameters<typeof shape>[0][]).map(shape);
};
