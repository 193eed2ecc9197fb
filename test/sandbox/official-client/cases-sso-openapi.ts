/** SAML providers, SSO logins, OpenAPI specs and their versions, through the official client. */
import { expect } from 'vitest';
import { ORG, expectStatus, statusOf, type Env } from './harness.js';
import type { Case } from './cases.js';

const SAML = {
  label: 'Okta',
  entityID: 'https://idp.acme.test',
  certificate: 'MIIC',
  ssoURL: 'https://idp.acme.test/sso',
  defaultTeam: 'team-platform',
  defaultRole: 'edit' as const,
};
const TEXT = JSON.stringify({ openapi: '3.1.0', info: { title: 'Acme', version: '1' }, paths: {} });

const saml = async ({ api }: Env): Promise<string> =>
  (await expectStatus(api.orgs.createOrganizationSamlProvider(ORG, SAML), 201)).id;
const textSpec = async ({ api }: Env): Promise<void> =>
  void (await expectStatus(api.orgs.createOpenApiSpec(ORG, { slug: 'acme', source: { text: TEXT } }), 201));

export const SSO_OPENAPI_CASES: Case[] = [
  {
    name: 'listSAMLProvidersInOrganizationById: limit',
    run: async (env) => {
      await saml(env);
      expect(
        (await expectStatus(env.api.orgs.listSamlProvidersInOrganizationById(ORG, { limit: 5 }), 200)).items,
      ).toHaveLength(1);
    },
  },
  {
    name: 'createOrganizationSAMLProvider: every field',
    run: async (env) => {
      const id = await saml(env);
      expect(await expectStatus(env.api.orgs.getOrganizationSamlProviderById(ORG, id), 200)).toMatchObject({
        label: 'Okta',
        status: 'active',
        defaultRole: 'edit',
        defaultTeam: expect.objectContaining({ id: 'team-platform' }),
      });
    },
  },
  {
    name: 'createOrganizationSAMLProvider: label only',
    run: async ({ api }) => {
      const made = await expectStatus(api.orgs.createOrganizationSamlProvider(ORG, { label: 'Later' }), 201);
      expect(made).toMatchObject({ label: 'Later', status: 'pending' });
      expect((await expectStatus(api.orgs.getOrganizationSamlProviderById(ORG, made.id), 200)).status).toBe('pending');
    },
  },
  {
    name: 'getOrganizationSAMLProviderById',
    run: async (env) => {
      const id = await saml(env);
      expect((await expectStatus(env.api.orgs.getOrganizationSamlProviderById(ORG, id), 200)).id).toBe(id);
    },
  },
  {
    name: 'updateOrganizationSAMLProvider: label, defaultRole null',
    run: async (env) => {
      const id = await saml(env);
      await expectStatus(
        env.api.orgs.updateOrganizationSamlProvider(ORG, id, { label: 'Okta EU', defaultRole: null }),
        200,
      );
      expect(await expectStatus(env.api.orgs.getOrganizationSamlProviderById(ORG, id), 200)).toMatchObject({
        label: 'Okta EU',
        defaultRole: null,
      });
    },
  },
  {
    name: 'deleteOrganizationSAMLProvider',
    run: async (env) => {
      const id = await saml(env);
      expect(await statusOf(env.api.orgs.deleteOrganizationSamlProvider(ORG, id))).toBe(205);
      expect(await statusOf(env.api.orgs.getOrganizationSamlProviderById(ORG, id))).toBe(404);
    },
  },
  {
    name: 'listSSOProviderLoginsInOrganization',
    run: async (env) => {
      const id = await saml(env);
      expect(
        (await expectStatus(env.api.orgs.listSsoProviderLoginsInOrganization(ORG), 200)).items.map((x) => x.id),
      ).toEqual([id]);
    },
  },
  {
    name: 'listOpenAPISpecs: limit',
    run: async (env) => {
      await textSpec(env);
      expect(
        (await expectStatus(env.api.orgs.listOpenApiSpecs(ORG, { limit: 1 }), 200)).items.map((s) => s.slug),
      ).toEqual(['acme']);
    },
  },
  {
    name: 'createOpenAPISpec: url source',
    run: async ({ api }) => {
      await expectStatus(
        api.orgs.createOpenApiSpec(ORG, { slug: 'petstore', source: { url: 'https://acme.test/openapi.json' } }),
        201,
      );
      expect((await expectStatus(api.orgs.getOpenApiSpecBySlug(ORG, 'petstore'), 200)).sourceURL).toBe(
        'https://acme.test/openapi.json',
      );
    },
  },
  {
    name: 'getOpenAPISpecBySlug',
    run: async (env) => {
      await textSpec(env);
      expect((await expectStatus(env.api.orgs.getOpenApiSpecBySlug(ORG, 'acme'), 200)).processingState).toBe(
        'complete',
      );
    },
  },
  {
    name: 'createOrUpdateOpenAPISpecBySlug: creates, then updates',
    run: async ({ api }) => {
      expect(await statusOf(api.orgs.createOrUpdateOpenApiSpecBySlug(ORG, 'acme', { source: { text: TEXT } }))).toBe(
        201,
      );
      expect(
        await statusOf(
          api.orgs.createOrUpdateOpenApiSpecBySlug(ORG, 'acme', { source: { url: 'https://acme.test/v2.json' } }),
        ),
      ).toBe(200);
      expect((await expectStatus(api.orgs.listOpenApiSpecVersions(ORG, 'acme'), 200)).items).toHaveLength(2);
    },
  },
  {
    name: 'updateOpenAPISpecBySlug: visibility',
    run: async (env) => {
      await textSpec(env);
      await expectStatus(env.api.orgs.updateOpenApiSpecBySlug(ORG, 'acme', { visibility: 'public' }), 200);
      expect((await expectStatus(env.api.orgs.getOpenApiSpecBySlug(ORG, 'acme'), 200)).visibility).toBe('public');
    },
  },
  {
    name: 'deleteOpenAPISpecBySlug',
    run: async (env) => {
      await textSpec(env);
      expect(await statusOf(env.api.orgs.deleteOpenApiSpecBySlug(ORG, 'acme'))).toBe(205);
      expect(await statusOf(env.api.orgs.getOpenApiSpecBySlug(ORG, 'acme'))).toBe(404);
    },
  },
  {
    name: 'listOpenAPISpecVersions: limit',
    run: async (env) => {
      await textSpec(env);
      expect(
        (await expectStatus(env.api.orgs.listOpenApiSpecVersions(ORG, 'acme', { limit: 1 }), 200)).items,
      ).toHaveLength(1);
    },
  },
  {
    name: 'getLatestOpenAPISpecVersion',
    run: async (env) => {
      await textSpec(env);
      expect((await expectStatus(env.api.orgs.getLatestOpenApiSpecVersion(ORG, 'acme'), 200)).object).toBe(
        'openapi-spec-version',
      );
    },
  },
  {
    name: 'getLatestOpenAPISpecVersionContent',
    run: async (env) => {
      await textSpec(env);
      expect(
        Object.keys((await expectStatus(env.api.orgs.getLatestOpenApiSpecVersionContent(ORG, 'acme'), 200)).filesystem),
      ).toEqual(['openapi.json']);
    },
  },
  {
    name: 'getLatestOpenAPISpecVersionContentRaw',
    run: async (env) => {
      await textSpec(env);
      expect((await expectStatus(env.api.orgs.getLatestOpenApiSpecVersionContentRaw(ORG, 'acme'), 200)).text).toBe(
        TEXT,
      );
    },
  },
  {
    name: 'getOpenAPISpecVersionById',
    run: async (env) => {
      await textSpec(env);
      const latest = await expectStatus(env.api.orgs.getLatestOpenApiSpecVersion(ORG, 'acme'), 200);
      expect((await expectStatus(env.api.orgs.getOpenApiSpecVersionById(ORG, 'acme', latest.id), 200)).id).toBe(
        latest.id,
      );
    },
  },
  {
    name: 'getOpenAPISpecVersionContentById',
    run: async (env) => {
      await textSpec(env);
      const latest = await expectStatus(env.api.orgs.getLatestOpenApiSpecVersion(ORG, 'acme'), 200);
      expect(
        (await expectStatus(env.api.orgs.getOpenApiSpecVersionContentById(ORG, 'acme', latest.id), 200)).filesystem,
      ).toBeDefined();
    },
  },
];
