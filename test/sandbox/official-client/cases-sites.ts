/** Sites and everything below them (sections, groups, site spaces, share links, structure, adaptive schema). */
import { expect } from 'vitest';
import type { SiteSection, SiteSectionGroup, SiteSpace } from '../../../node_modules/@gitbook/api/dist/client.js';
import { ORG, expectStatus, statusOf, type Env } from './harness.js';
import type { Case } from './cases.js';
import { newSite, sectionIds, sectionedSite, structureOf } from './site-fixture.js';
import { richCustomization } from '../customization-bodies.js';

const sections = async ({ api }: Env, site: string): Promise<SiteSection[]> =>
  (await expectStatus(api.orgs.listSiteSections(ORG, site), 200)).items;
const groups = async ({ api }: Env, site: string): Promise<SiteSectionGroup[]> =>
  (await expectStatus(api.orgs.listSiteSectionGroups(ORG, site), 200)).items;
const siteSpaces = async ({ api }: Env, site: string): Promise<SiteSpace[]> =>
  (await expectStatus(api.orgs.listSiteSpaces(ORG, site), 200)).items;

const CLAIMS = {
  type: 'object' as const,
  additionalProperties: false as const,
  properties: { beta: { type: 'boolean' as const, description: 'Beta tester' } },
};

export const SITE_CASES: Case[] = [
  {
    name: 'listSites: type, title, published, space',
    run: async (env) => {
      const { api } = env;
      const basic = await expectStatus(
        api.orgs.createSite(ORG, { title: 'Basic docs', type: 'basic', spaces: ['sp-api'] }),
        201,
      );
      const premium = await expectStatus(api.orgs.createSite(ORG, { title: 'Premium docs', type: 'premium' }), 201);
      const ids = async (q: Parameters<typeof api.orgs.listSites>[1]) =>
        (await expectStatus(api.orgs.listSites(ORG, q), 200)).items.map((s) => s.id);
      expect(await ids({ type: ['premium'] })).toEqual([premium.id]);
      expect(await ids({ type: ['basic', 'premium'] })).toEqual([basic.id, premium.id]);
      expect(await ids({ title: 'premium', published: false })).toEqual([premium.id]);
      expect(await ids({ space: 'sp-api' })).toEqual([basic.id]);
    },
  },
  {
    name: 'createSite: type, title, visibility, spaces',
    run: async ({ api }) => {
      const site = await expectStatus(
        api.orgs.createSite(ORG, { type: 'ultimate', title: 'Help', visibility: 'unlisted', spaces: ['sp-api'] }),
        201,
      );
      expect(await expectStatus(api.orgs.getSiteById(ORG, site.id), 200)).toMatchObject({
        type: 'ultimate',
        title: 'Help',
        visibility: 'unlisted',
        siteSpaces: 1,
      });
    },
  },
  {
    name: 'getSiteById',
    run: async (env) => {
      const { site } = await newSite(env);
      expect((await expectStatus(env.api.orgs.getSiteById(ORG, site.id), 200)).title).toBe('Docs');
    },
  },
  {
    name: 'updateSiteById: defaultLevel inherit, styleguide set and detached',
    run: async (env) => {
      const { site } = await newSite(env);
      await expectStatus(
        env.api.orgs.updateSiteById(ORG, site.id, { defaultLevel: 'inherit', styleguide: 'sp-runbooks' }),
        200,
      );
      expect(await expectStatus(env.api.orgs.getSiteById(ORG, site.id), 200)).toMatchObject({
        defaultLevel: 'inherit',
        styleguide: { kind: 'space', space: 'sp-runbooks' },
      });
      await expectStatus(env.api.orgs.updateSiteById(ORG, site.id, { styleguide: null, defaultLevel: 'read' }), 200);
      const after = await expectStatus(env.api.orgs.getSiteById(ORG, site.id), 200);
      expect(after.styleguide).toBeUndefined();
      expect(after.defaultLevel).toBe('read');
    },
  },
  {
    name: 'updateSiteById: title, visibility, basename, adaptiveContent, proxy, defaults',
    run: async (env) => {
      const { site, runbooks } = await sectionedSite(env);
      const runbookSpace = runbooks.siteSpaces[0]!.id;
      await expectStatus(
        env.api.orgs.updateSiteById(ORG, site.id, {
          title: 'Handbook',
          visibility: 'share-link',
          basename: 'handbook',
          adaptiveContent: { enabled: true },
          proxy: 'acme.test/docs',
          defaultSiteSection: runbooks.id,
          defaultSiteSpace: runbookSpace,
        }),
        200,
      );
      const got = await expectStatus(env.api.orgs.getSiteById(ORG, site.id), 200);
      expect(got).toMatchObject({
        title: 'Handbook',
        visibility: 'share-link',
        basename: 'handbook',
        adaptiveContent: { enabled: true },
        proxy: { origin: 'acme.test/docs' },
      });
      expect((await sections(env, site.id)).find((s) => s.default)?.id).toBe(runbooks.id);
    },
  },
  {
    name: 'deleteSiteById',
    run: async (env) => {
      const { site } = await newSite(env);
      expect(await statusOf(env.api.orgs.deleteSiteById(ORG, site.id))).toBe(205);
      expect(await statusOf(env.api.orgs.getSiteById(ORG, site.id))).toBe(404);
    },
  },
  {
    name: 'getPublishedContentSite: shareKey',
    run: async (env) => {
      const { site } = await sectionedSite(env);
      const view = await expectStatus(env.api.orgs.getPublishedContentSite(ORG, site.id, { shareKey: 'any' }), 200);
      expect(view.structure.type).toBe('sections');
      expect(view.site.id).toBe(site.id);
    },
  },
  {
    name: 'getSiteAdaptiveSchema',
    run: async (env) => {
      const { site } = await newSite(env);
      expect((await expectStatus(env.api.orgs.getSiteAdaptiveSchema(ORG, site.id), 200)).object).toBe(
        'site-adaptive-schema',
      );
    },
  },
  {
    name: 'updateSiteAdaptiveSchema: boolean claim with $schema',
    run: async (env) => {
      const { site } = await newSite(env);
      const jsonSchema = { $schema: 'http://json-schema.org/draft-07/schema#' as const, ...CLAIMS };
      await expectStatus(env.api.orgs.updateSiteAdaptiveSchema(ORG, site.id, { jsonSchema }), 200);
      expect((await expectStatus(env.api.orgs.getSiteAdaptiveSchema(ORG, site.id), 200)).jsonSchema).toEqual(
        jsonSchema,
      );
    },
  },
  {
    name: 'updateSiteAdaptiveSchema: string claim',
    run: async (env) => {
      const { site } = await newSite(env);
      const jsonSchema = { ...CLAIMS, properties: { plan: { type: 'string' as const, description: 'Plan' } } };
      await expectStatus(env.api.orgs.updateSiteAdaptiveSchema(ORG, site.id, { jsonSchema }), 200);
    },
  },
  {
    name: 'listSiteAdaptiveTemplateConditions',
    run: async (env) => {
      const { site } = await newSite(env);
      await env.api.orgs.updateSiteAdaptiveSchema(ORG, site.id, { jsonSchema: CLAIMS });
      const list = await expectStatus(env.api.orgs.listSiteAdaptiveTemplateConditions(ORG, site.id), 200);
      expect(list.items.map((c) => c.condition)).toEqual(['visitor.claims.beta === true']);
    },
  },
  // Sections.
  {
    name: 'listSiteSections: shareKey, limit',
    run: async (env) => {
      const { site, api } = await sectionedSite(env);
      expect(
        (await expectStatus(env.api.orgs.listSiteSections(ORG, site.id, { shareKey: 'k', limit: 1 }), 200)).items.map(
          (s) => s.id,
        ),
      ).toEqual([api.id]);
    },
  },
  {
    name: 'addSectionToSite: spaceId null creates a space, draft, icon',
    run: async (env) => {
      const { site } = await sectionedSite(env);
      const section = await expectStatus(
        env.api.orgs.addSectionToSite(ORG, site.id, {
          spaceId: null,
          title: 'Fresh start',
          icon: 'rocket',
          draft: true,
        }),
        201,
      );
      const read = (await sections(env, site.id)).find((s) => s.id === section.id);
      expect(read).toMatchObject({ title: 'Fresh start', icon: 'rocket', draft: true });
      const space = read!.siteSpaces[0]!.space;
      expect((await expectStatus(env.api.spaces.getSpaceById(space.id), 200)).title).toBe('Fresh start');
    },
  },
  {
    name: 'addSectionToSite: into a section group, with pageId',
    run: async (env) => {
      const { site } = await sectionedSite(env);
      const group = await expectStatus(env.api.orgs.addSectionGroupToSite(ORG, site.id, { title: 'More' }), 201);
      const section = await expectStatus(
        env.api.orgs.addSectionToSite(ORG, site.id, {
          spaceId: 'sp-changelog',
          siteSectionGroupId: group.id,
          pageId: 'page-home',
        }),
        201,
      );
      expect(section.sectionGroup).toBe(group.id);
      expect((await groups(env, site.id))[0]!.sections.map((s) => s.id)).toEqual([section.id]);
      expect((await sections(env, site.id)).find((s) => s.id === section.id)?.siteSpaces[0]?.pageId).toBe('page-home');
    },
  },
  {
    name: 'updateSiteSectionById: localized title and description, draft, condition, description',
    run: async (env) => {
      const { site, runbooks } = await sectionedSite(env);
      await expectStatus(
        env.api.orgs.updateSiteSectionById(ORG, site.id, runbooks.id, {
          title: 'Ops',
          localizedTitle: { fr: 'Exploitation' },
          description: 'How we run',
          localizedDescription: { fr: 'Comment' },
          draft: true,
          condition: 'visitor.claims.beta === true',
          path: 'ops',
          icon: 'gear',
        }),
        200,
      );
      expect((await sections(env, site.id)).find((s) => s.id === runbooks.id)).toMatchObject({
        title: 'Ops',
        localizedTitle: { fr: 'Exploitation' },
        description: 'How we run',
        localizedDescription: { fr: 'Comment' },
        draft: true,
        condition: 'visitor.claims.beta === true',
        path: 'ops',
        icon: 'gear',
      });
    },
  },
  {
    name: 'updateSiteSectionById: siteSectionGroupId regroups, null back to the root',
    run: async (env) => {
      const { site, api, runbooks } = await sectionedSite(env);
      const group = await expectStatus(env.api.orgs.addSectionGroupToSite(ORG, site.id, { title: 'Ops group' }), 201);
      await expectStatus(
        env.api.orgs.updateSiteSectionById(ORG, site.id, runbooks.id, { siteSectionGroupId: group.id }),
        200,
      );
      expect(await structureOf(env, site.id)).toEqual([
        { section: api.id, siteSpaces: api.siteSpaces.map((x) => x.id) },
        { group: group.id, children: [{ section: runbooks.id, siteSpaces: runbooks.siteSpaces.map((x) => x.id) }] },
      ]);
      await expectStatus(
        env.api.orgs.updateSiteSectionById(ORG, site.id, runbooks.id, { siteSectionGroupId: null }),
        200,
      );
      expect((await sections(env, site.id)).find((s) => s.id === runbooks.id)?.sectionGroup).toBeUndefined();
      expect((await groups(env, site.id))[0]!.sections).toEqual([]);
    },
  },
  {
    name: 'updateSiteSectionById: empty condition',
    run: async (env) => {
      const { site, runbooks } = await sectionedSite(env);
      await expectStatus(env.api.orgs.updateSiteSectionById(ORG, site.id, runbooks.id, { condition: '' }), 200);
    },
  },
  {
    name: 'deleteSiteSectionById',
    run: async (env) => {
      const { site, api, runbooks } = await sectionedSite(env);
      expect(await statusOf(env.api.orgs.deleteSiteSectionById(ORG, site.id, runbooks.id))).toBe(205);
      expect(await sectionIds(env, site.id)).toEqual([api.id]);
    },
  },
  {
    name: 'moveSiteSection: before, and without position to the end',
    run: async (env) => {
      const { site, api, runbooks } = await sectionedSite(env);
      await expectStatus(
        env.api.orgs.moveSiteSection(ORG, site.id, runbooks.id, {
          position: { before: { type: 'site-section', siteSection: api.id } },
        }),
        200,
      );
      expect(await sectionIds(env, site.id)).toEqual([runbooks.id, api.id]);
      await expectStatus(env.api.orgs.moveSiteSection(ORG, site.id, runbooks.id, {}), 200);
      expect(await sectionIds(env, site.id)).toEqual([api.id, runbooks.id]);
    },
  },
  // Section groups.
  {
    name: 'listSiteSectionGroups: limit',
    run: async (env) => {
      const { site } = await sectionedSite(env);
      await env.api.orgs.addSectionGroupToSite(ORG, site.id, { title: 'G' });
      expect(
        (await expectStatus(env.api.orgs.listSiteSectionGroups(ORG, site.id, { limit: 1 }), 200)).items,
      ).toHaveLength(1);
    },
  },
  {
    name: 'addSectionGroupToSite: sections, icon, draft, parent',
    run: async (env) => {
      const { site, runbooks } = await sectionedSite(env);
      const outer = await expectStatus(
        env.api.orgs.addSectionGroupToSite(ORG, site.id, { title: 'Outer', icon: 'folder', draft: true }),
        201,
      );
      const inner = await expectStatus(
        env.api.orgs.addSectionGroupToSite(ORG, site.id, { title: 'Inner', sections: [runbooks.id], parent: outer.id }),
        201,
      );
      const [o] = (await groups(env, site.id)).filter((g) => g.id === outer.id);
      expect(o).toMatchObject({ title: 'Outer', icon: 'folder', draft: true });
      expect(o!.children.map((c) => c.id)).toEqual([inner.id]);
      expect((await groups(env, site.id)).find((g) => g.id === inner.id)).toMatchObject({
        sectionGroup: outer.id,
        sections: [expect.objectContaining({ id: runbooks.id })],
      });
    },
  },
  {
    name: 'updateSiteSectionGroupById: localizedTitle, draft, icon, parentSectionGroupId',
    run: async (env) => {
      const { site } = await sectionedSite(env);
      const a = await expectStatus(env.api.orgs.addSectionGroupToSite(ORG, site.id, { title: 'A' }), 201);
      const b = await expectStatus(env.api.orgs.addSectionGroupToSite(ORG, site.id, { title: 'B' }), 201);
      await expectStatus(
        env.api.orgs.updateSiteSectionGroupById(ORG, site.id, b.id, {
          title: 'Bee',
          localizedTitle: { de: 'Biene' },
          draft: true,
          icon: null,
          parentSectionGroupId: a.id,
        }),
        200,
      );
      const read = await groups(env, site.id);
      expect(read.find((g) => g.id === b.id)).toMatchObject({
        title: 'Bee',
        localizedTitle: { de: 'Biene' },
        draft: true,
        sectionGroup: a.id,
      });
      expect(read.find((g) => g.id === a.id)?.children.map((c) => c.id)).toEqual([b.id]);
      await expectStatus(
        env.api.orgs.updateSiteSectionGroupById(ORG, site.id, b.id, { parentSectionGroupId: null }),
        200,
      );
      expect((await groups(env, site.id)).find((g) => g.id === b.id)?.sectionGroup).toBeUndefined();
    },
  },
  {
    name: 'deleteSiteSectionGroupById',
    run: async (env) => {
      const { site, runbooks } = await sectionedSite(env);
      const g = await expectStatus(
        env.api.orgs.addSectionGroupToSite(ORG, site.id, { title: 'G', sections: [runbooks.id] }),
        201,
      );
      expect(await statusOf(env.api.orgs.deleteSiteSectionGroupById(ORG, site.id, g.id))).toBe(205);
      expect(await groups(env, site.id)).toEqual([]);
      expect(await sectionIds(env, site.id)).toContain(runbooks.id);
    },
  },
  {
    name: 'moveSiteSectionGroup: before a section, and without position to the end',
    run: async (env) => {
      const { site, api } = await sectionedSite(env);
      const g = await expectStatus(env.api.orgs.addSectionGroupToSite(ORG, site.id, { title: 'G' }), 201);
      await expectStatus(
        env.api.orgs.moveSiteSectionGroup(ORG, site.id, g.id, {
          position: { before: { type: 'site-section', id: api.id } },
        }),
        200,
      );
      expect(((await structureOf(env, site.id)) as { group?: string }[])[0]?.group).toBe(g.id);
      await expectStatus(env.api.orgs.moveSiteSectionGroup(ORG, site.id, g.id, {}), 200);
      expect(((await structureOf(env, site.id)) as { group?: string }[]).at(-1)?.group).toBe(g.id);
    },
  },
  // Site spaces.
  {
    name: 'listSiteSpaces: default, shareKey',
    run: async (env) => {
      const { site, api, runbooks } = await sectionedSite(env);
      const defaults = await expectStatus(
        env.api.orgs.listSiteSpaces(ORG, site.id, { default: true, shareKey: 'k' }),
        200,
      );
      expect(defaults.items.map((x) => x.id)).toEqual([api.siteSpaces[0]!.id, runbooks.siteSpaces[0]!.id]);
    },
  },
  {
    name: 'addSpaceToSite: spaceId null with title, draft, pageId, sectionId',
    run: async (env) => {
      const { site, runbooks } = await sectionedSite(env);
      const ss = await expectStatus(
        env.api.orgs.addSpaceToSite(ORG, site.id, {
          spaceId: null,
          title: 'Playbooks',
          draft: true,
          pageId: null,
          sectionId: runbooks.id,
        }),
        201,
      );
      const read = (await siteSpaces(env, site.id)).find((x) => x.id === ss.id);
      expect(read).toMatchObject({ title: 'Playbooks', draft: true, section: runbooks.id });
      expect((await expectStatus(env.api.spaces.getSpaceById(read!.space.id), 200)).title).toBe('Playbooks');
    },
  },
  {
    name: 'addSpaceToSite: existing space with title and pageId',
    run: async (env) => {
      const { site } = await newSite(env);
      const ss = await expectStatus(
        env.api.orgs.addSpaceToSite(ORG, site.id, { spaceId: 'sp-changelog', title: 'What is new', pageId: 'page-1' }),
        201,
      );
      expect((await siteSpaces(env, site.id)).find((x) => x.id === ss.id)).toMatchObject({
        title: 'What is new',
        pageId: 'page-1',
        space: expect.objectContaining({ id: 'sp-changelog' }),
      });
    },
  },
  {
    name: 'updateSiteSpaceById: pageId, hidden, draft, path, condition, spaceId',
    run: async (env) => {
      const { site, root } = await newSite(env);
      await expectStatus(
        env.api.orgs.updateSiteSpaceById(ORG, site.id, root.id, {
          pageId: 'page-2',
          hidden: true,
          draft: true,
          path: 'start',
          condition: 'visitor.claims.beta === true',
          spaceId: 'sp-api',
        }),
        200,
      );
      expect((await siteSpaces(env, site.id))[0]).toMatchObject({
        pageId: 'page-2',
        hidden: true,
        draft: true,
        path: 'start',
        condition: 'visitor.claims.beta === true',
        space: expect.objectContaining({ id: 'sp-api' }),
      });
      await expectStatus(
        env.api.orgs.updateSiteSpaceById(ORG, site.id, root.id, { pageId: null, hidden: false, condition: null }),
        200,
      );
      const after = (await siteSpaces(env, site.id))[0]!;
      expect(after.pageId).toBeUndefined();
      expect(after.condition).toBeUndefined();
      expect(after.hidden).toBe(false);
    },
  },
  {
    name: 'updateSiteSpaceById: empty condition',
    run: async (env) => {
      const { site, root } = await newSite(env);
      await expectStatus(env.api.orgs.updateSiteSpaceById(ORG, site.id, root.id, { condition: '' }), 200);
    },
  },
  {
    name: 'deleteSiteSpaceById',
    run: async (env) => {
      const { site } = await newSite(env);
      const extra = await expectStatus(env.api.orgs.addSpaceToSite(ORG, site.id, { spaceId: 'sp-api' }), 201);
      expect(await statusOf(env.api.orgs.deleteSiteSpaceById(ORG, site.id, extra.id))).toBe(205);
      expect((await siteSpaces(env, site.id)).map((x) => x.id)).not.toContain(extra.id);
    },
  },
  {
    name: 'moveSiteSpace: before, and without position to the end',
    run: async (env) => {
      const { site, root } = await newSite(env);
      const b = await expectStatus(env.api.orgs.addSpaceToSite(ORG, site.id, { spaceId: 'sp-api' }), 201);
      await expectStatus(
        env.api.orgs.moveSiteSpace(ORG, site.id, b.id, {
          position: { before: { type: 'site-space', siteSpace: root.id } },
        }),
        200,
      );
      expect((await siteSpaces(env, site.id)).map((x) => x.id)).toEqual([b.id, root.id]);
      await expectStatus(env.api.orgs.moveSiteSpace(ORG, site.id, b.id, {}), 200);
      expect((await siteSpaces(env, site.id)).map((x) => x.id)).toEqual([root.id, b.id]);
    },
  },
  // Share links.
  {
    name: 'listSiteShareLinks: search',
    run: async (env) => {
      const { site } = await newSite(env);
      await env.api.orgs.createSiteShareLink(ORG, site.id, { name: 'Partners' });
      const beta = await expectStatus(env.api.orgs.createSiteShareLink(ORG, site.id, { name: 'Beta testers' }), 201);
      const found = await expectStatus(env.api.orgs.listSiteShareLinks(ORG, site.id, { search: 'beta' }), 200);
      expect(found.items.map((l) => l.id)).toEqual([beta.id]);
    },
  },
  {
    name: 'createSiteShareLink: empty name',
    run: async (env) => {
      const { site } = await newSite(env);
      const link = await expectStatus(env.api.orgs.createSiteShareLink(ORG, site.id, { name: '' }), 201);
      expect(
        (await expectStatus(env.api.orgs.listSiteShareLinks(ORG, site.id), 200)).items.map((l) => [l.id, l.name]),
      ).toEqual([[link.id, '']]);
    },
  },
  {
    name: 'updateSiteShareLinkById: active, name',
    run: async (env) => {
      const { site } = await newSite(env);
      const link = await expectStatus(env.api.orgs.createSiteShareLink(ORG, site.id, { name: 'x' }), 201);
      await expectStatus(
        env.api.orgs.updateSiteShareLinkById(ORG, site.id, link.id, { active: false, name: 'Old' }),
        200,
      );
      expect((await expectStatus(env.api.orgs.listSiteShareLinks(ORG, site.id), 200)).items[0]).toMatchObject({
        active: false,
        name: 'Old',
      });
    },
  },
  {
    name: 'deleteSiteShareLinkById',
    run: async (env) => {
      const { site } = await newSite(env);
      const link = await expectStatus(env.api.orgs.createSiteShareLink(ORG, site.id, { name: 'x' }), 201);
      expect(await statusOf(env.api.orgs.deleteSiteShareLinkById(ORG, site.id, link.id))).toBe(205);
      expect((await expectStatus(env.api.orgs.listSiteShareLinks(ORG, site.id), 200)).items).toEqual([]);
    },
  },
  // Structure.
  {
    name: 'getSiteStructure: shareKey, site without sections',
    run: async (env) => {
      const { site, root } = await newSite(env);
      const s = await expectStatus(env.api.orgs.getSiteStructure(ORG, site.id, { shareKey: 'k' }), 200);
      expect(s.type).toBe('siteSpaces');
      expect(s.structure.map((x) => x.id)).toEqual([root.id]);
    },
  },
  {
    name: 'sortSiteStructure: after, and an empty position to the end',
    run: async (env) => {
      const { site, api, runbooks } = await sectionedSite(env);
      await expectStatus(
        env.api.orgs.sortSiteStructure(ORG, site.id, {
          item: { type: 'site-section', id: api.id },
          position: { after: { type: 'site-section', id: runbooks.id } },
        }),
        200,
      );
      expect(await sectionIds(env, site.id)).toEqual([runbooks.id, api.id]);
      await expectStatus(
        env.api.orgs.sortSiteStructure(ORG, site.id, { item: { type: 'site-section', id: runbooks.id }, position: {} }),
        200,
      );
      expect(await sectionIds(env, site.id)).toEqual([api.id, runbooks.id]);
    },
  },
  // Customization.
  {
    name: 'getSiteCustomizationById: unmasked',
    run: async (env) => {
      const { site } = await newSite(env);
      expect(
        (await expectStatus(env.api.orgs.getSiteCustomizationById(ORG, site.id, { unmasked: true }), 200)).themes,
      ).toBeDefined();
    },
  },
  {
    name: 'updateSiteCustomizationById',
    run: async (env) => {
      const { site } = await newSite(env);
      const current = await expectStatus(env.api.orgs.getSiteCustomizationById(ORG, site.id), 200);
      const body = richCustomization(current);
      await expectStatus(env.api.orgs.updateSiteCustomizationById(ORG, site.id, body), 200);
      const { updatedAt: _u, ...read } = await expectStatus(env.api.orgs.getSiteCustomizationById(ORG, site.id), 200);
      expect(read).toEqual(body);
    },
  },
];
