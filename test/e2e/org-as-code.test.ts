/**
 * Issue 13's whole organization as code, end to end against the sandbox: two SAML providers (one certificate from
 * a file, one inline), three OpenAPI specs (one URL, two files), access lists on spaces, a collection and a site,
 * and a customized site (a brand file), all created from nothing in ONE apply; the second plan is empty; editing
 * one spec file publishes exactly one new version (counted in the sandbox) and changes nothing else; the export of
 * the organization plans no changes; a site customization member the manifests don't write survives every apply.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import type { Plan } from '../../src/model/plan.js';
import { exportOrganization } from '../../src/export/index.js';
import { KINDS } from '../../src/kinds/index.js';
import { spaces, teams, type RunningSandbox } from '@docops/sandbox';
import { sites } from '../../packages/sandbox/src/site-records.js';
import { grants } from '../../packages/sandbox/src/permission-records.js';
import { openApiSpecs, openApiVersions } from '../../packages/sandbox/src/openapi-records.js';
import { samlProviders } from '../../packages/sandbox/src/sso-records.js';
import { loadDesired, planOnce, tempDir } from '../helpers/pipeline.js';
import { sandboxPerTest } from '../kinds/sandbox-per-test.js';
import { ORG } from '../kinds/seed.js';

/** The members this test reads of a site's customization. */
interface Customization {
  updatedAt?: string;
  styling: { primaryColor: { light?: string; dark?: string }; font?: string } & Record<string, unknown>;
  favicon?: unknown;
  [member: string]: unknown;
}

const start = sandboxPerTest('org-as-code');
const fixture = (name: string): string => readFileSync(new URL(`../fixtures/saml/${name}`, import.meta.url), 'utf8');
const PEM_A = fixture('idp-a.pem');
const PEM_B = fixture('idp-b.pem');

const PETS = (version: string): string => `openapi: 3.1.0\ninfo:\n  title: Pets\n  version: "${version}"\npaths: {}\n`;
const STORE = '{"openapi":"3.0.3","info":{"title":"Store","version":"1"},"paths":{}}';

const doc = (kind: string, spec: string): string =>
  `apiVersion: docops/v1\nkind: ${kind}\nmetadata: { organization: ${ORG} }\nspec:\n${spec}`;

const FILES: Record<string, string> = {
  'teams.yaml': [
    doc('Team', '  title: Security\n'),
    doc('Team', '  title: Docs\n  members: [{ email: bob@acme.test }]\n'),
  ].join('---\n'),
  'sso.yaml': [
    doc(
      'SamlProvider',
      '  label: Okta\n  entityID: http://www.okta.com/exk1\n  ssoURL: https://acme.okta.test/app/sso/saml\n  certificate: { file: certs/okta.pem }\n  defaultTeam: Security\n  defaultRole: read\n',
    ),
    doc(
      'SamlProvider',
      `  label: Azure\n  certificate: "${PEM_B.trim().replace(/\n/g, '\\n')}"\n  defaultTeam: Docs\n`,
    ),
  ].join('---\n'),
  'certs/okta.pem': PEM_A,
  'apis.yaml': [
    doc('OpenAPISpec', '  slug: public-api\n  source: { url: https://example.com/openapi.json }\n'),
    doc('OpenAPISpec', '  slug: pets\n  source: { file: specs/petstore.yaml }\n'),
    doc('OpenAPISpec', '  slug: store\n  source: { file: specs/store.json }\n'),
  ].join('---\n'),
  'specs/petstore.yaml': PETS('1'),
  'specs/store.json': STORE,
  'content.yaml': [
    doc(
      'Collection',
      '  title: Handbook\n  access:\n    - { team: Docs, role: admin }\n    - { email: carol@acme.test, role: read }\n',
    ),
    doc(
      'Space',
      '  title: Onboarding\n  parent: Handbook\n  access:\n    - { team: Docs, role: edit }\n    - { team: Security, role: read }\n',
    ),
    doc('Space', '  title: Runbooks\n  access:\n    - { team: Security, role: admin }\n'),
  ].join('---\n'),
  'site.yaml': doc(
    'Site',
    '  title: Help Center\n  spaces: [Onboarding]\n  customization: { file: brand/acme.yaml }\n  access:\n    - { team: Docs, role: read }\n',
  ),
  'brand/acme.yaml': 'styling: { primaryColor: { light: "#FF6600" }, font: Roboto }\nfavicon: { emoji: "🚀" }\n',
};

function write(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

const versionsOf = (sb: RunningSandbox, slug: string): number => {
  const spec = openApiSpecs(sb.store).where((s) => s.orgId === ORG && s.slug === slug)[0];
  return spec ? openApiVersions(sb.store).where((v) => v.specId === spec.id).length : 0;
};

/** The sandbox's grants as `<object title>/<team title | user id>=<role>`, sorted. */
function storedGrants(sb: RunningSandbox): string[] {
  const title = (id: string): string => spaces(sb.store).get(id)?.title ?? sites(sb.store).get(id)?.title ?? id;
  return grants(sb.store)
    .all()
    .map(
      (g) =>
        `${g.targetType}:${g.targetType === 'collection' ? 'Handbook' : title(g.targetId)}/${g.principalType === 'team' ? (teams(sb.store).get(g.principalId)?.title ?? g.principalId) : g.principalId}=${g.role}`,
    )
    .sort();
}

async function applyAll(client: Parameters<typeof applyPlan>[0], plan: Plan): Promise<void> {
  const report = await applyPlan(client, plan, { concurrency: 8 });
  expect(report.failed).toEqual([]);
}

describe('the rest of the organization as code (issue 13), end to end', () => {
  it('creates everything in one apply, plans nothing next, publishes exactly one version per edited spec file, and exports to no changes', async () => {
    const { sb, client, dir } = await start();
    write(dir, FILES);

    // One apply from nothing.
    const first = await planOnce(client, await loadDesired(dir));
    expect(first.blocked).toEqual([]);
    const kindsPlanned = new Set(first.steps.map((s) => s.kind));
    for (const k of [
      'SamlProvider',
      'OpenAPISpec',
      'SpaceAccess',
      'CollectionAccess',
      'SiteAccess',
      'Site',
      'Team',
      'Space',
      'Collection',
    ])
      expect(kindsPlanned).toContain(k);
    expect(first.steps.some((s) => s.id === `Site/${ORG}/Help Center#customization`)).toBe(true);
    await applyAll(client, first);

    expect(
      samlProviders(sb.store)
        .where((p) => p.orgId === ORG)
        .map((p) => p.label)
        .sort(),
    ).toEqual(['Azure', 'Okta']);
    expect(['public-api', 'pets', 'store'].map((s) => versionsOf(sb, s))).toEqual([1, 1, 1]);
    expect(storedGrants(sb)).toEqual(
      expect.arrayContaining([
        'collection:Handbook/u-carol=read',
        'collection:Handbook/Docs=admin',
        'space:Onboarding/Docs=edit',
        'space:Onboarding/Security=read',
        'space:Runbooks/Security=admin',
        'site:Help Center/Docs=read',
      ]),
    );
    const site = sites(sb.store)
      .all()
      .find((s) => s.title === 'Help Center')!;
    const customization = await client.get<Customization>(`/orgs/${ORG}/sites/${site.id}/customization`);
    expect(customization['styling']).toMatchObject({ primaryColor: { light: '#FF6600' }, font: 'Roboto' });
    expect(customization['favicon']).toEqual({ emoji: '🚀' });

    // A member nobody manages, changed by hand: no apply may reset it.
    const dark = customization['styling']['primaryColor']['dark'];
    const { updatedAt: _updatedAt, ...rest } = customization;
    const byHand = {
      ...rest,
      styling: {
        ...customization['styling'],
        primaryColor: { ...customization['styling']['primaryColor'], dark: '#123456' },
      },
    };
    expect((await client.request('PUT', `/orgs/${ORG}/sites/${site.id}/customization`, { body: byHand })).status).toBe(
      200,
    );
    expect(dark).not.toBe('#123456');

    // The second plan is empty.
    const second = await planOnce(client, await loadDesired(dir));
    expect(second.blocked).toEqual([]);
    expect(second.steps).toEqual([]);

    // Editing one spec file publishes exactly one new version, and nothing else changes.
    writeFileSync(join(dir, 'specs/petstore.yaml'), PETS('2'));
    const edit = await planOnce(client, await loadDesired(dir));
    expect(edit.steps.map((s) => s.id)).toEqual([`OpenAPISpec/${ORG}/pets#update`]);
    const grantsBefore = storedGrants(sb);
    await applyAll(client, edit);
    expect(['public-api', 'pets', 'store'].map((s) => versionsOf(sb, s))).toEqual([1, 2, 1]);
    expect(storedGrants(sb)).toEqual(grantsBefore);
    expect((await planOnce(client, await loadDesired(dir))).steps).toEqual([]);
    const after = await client.get<Customization>(`/orgs/${ORG}/sites/${site.id}/customization`);
    expect(after['styling']['primaryColor']).toEqual({ light: '#FF6600', dark: '#123456' });

    // The export of that organization plans no changes.
    const out = tempDir('org-as-code-export');
    try {
      const result = await exportOrganization(client, KINDS, ORG, out);
      for (const k of ['SamlProvider', 'OpenAPISpec', 'Site', 'Space', 'Collection'])
        expect(result.counts[k]).toBeGreaterThan(0);
      const plan = await planOnce(client, await loadDesired(out));
      expect(plan.blocked).toEqual([]);
      expect(plan.steps).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
