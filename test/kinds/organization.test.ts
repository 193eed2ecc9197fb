import { describe, expect, it } from 'vitest';
import { organizationKind } from '../../src/kinds/organization.js';
import { desiredOf, fakeDiffContext, fakeDoc, plan } from './helpers.js';
import { ORG, seedRoutes } from './seed.js';

const SEED_SPEC = {
  title: 'Acme Docs',
  emailDomains: ['acme.test'],
  hostname: 'acme-docs',
  defaultRole: 'read',
  inviteLinks: true,
  sso: false,
  ai: true,
};

const desired = (spec: Record<string, unknown>) => desiredOf(organizationKind, [fakeDoc('Organization', ORG, spec)]);

describe('Organization', () => {
  it('plans nothing when every written field matches', async () => {
    const { result } = await plan(organizationKind, ORG, desired(SEED_SPEC), seedRoutes());
    expect(result).toEqual({ steps: [], unmanaged: [], warnings: [] });
  });

  it('compares only the fields the manifest writes', async () => {
    const { result } = await plan(organizationKind, ORG, desired({ title: 'Acme Docs' }), seedRoutes());
    expect(result.steps).toEqual([]);
  });

  it('sends one PATCH with only the changed fields', async () => {
    const spec = { ...SEED_SPEC, title: 'Acme Documentation', ai: false, logo: 'https://cdn.test/logo.png' };
    const { result } = await plan(organizationKind, ORG, desired(spec), seedRoutes());
    expect(result.steps).toHaveLength(1);
    const step = result.steps[0]!;
    expect(step).toMatchObject({
      id: 'Organization/org-demo/org-demo#update',
      action: 'update',
      phase: 'update',
      kind: 'Organization',
      key: ORG,
      wave: 0,
      dependsOn: [],
      before: { title: 'Acme Docs', ai: true, logo: null },
      after: { title: 'Acme Documentation', ai: false, logo: 'https://cdn.test/logo.png' },
      source: { file: 'organization.yaml', line: 10, column: 1 },
    });
    expect(step.requests).toEqual([
      { method: 'PATCH', path: '/orgs/org-demo', body: { title: 'Acme Documentation', logo: 'https://cdn.test/logo.png', ai: false } },
    ]);
  });

  it('reads the logo back from urls.logo and compares e-mail domains as a set', async () => {
    const routes = seedRoutes();
    const org = routes[`/orgs/${ORG}`] as Record<string, unknown>;
    org['urls'] = { logo: 'https://cdn.test/logo.png' };
    org['emailDomains'] = ['acme.test', 'Example.test'];
    const spec = { logo: 'https://cdn.test/logo.png', emailDomains: ['example.test', 'acme.test'] };
    const { result } = await plan(organizationKind, ORG, desired(spec), routes);
    expect(result.steps).toEqual([]);
  });

  it('treats null and absent optional settings alike and can clear them', async () => {
    const { result } = await plan(organizationKind, ORG, desired({ defaultContent: null, hostname: 'acme-docs' }), seedRoutes());
    expect(result.steps).toEqual([]);
    const cleared = await plan(organizationKind, ORG, desired({ defaultRole: null }), seedRoutes());
    expect(cleared.result.steps[0]?.requests[0]?.body).toEqual({ defaultRole: null });
  });

  it('fetches nothing for an organization without an Organization document', async () => {
    const { live } = await plan(organizationKind, ORG, [], {});
    expect(live.objects).toEqual([]);
  });

  it('exports a document that re-diffs to zero steps, omitting unset values', async () => {
    const { live } = await plan(organizationKind, ORG, desired(SEED_SPEC), seedRoutes());
    const docs = organizationKind.export!(ORG, live) as { spec: Record<string, unknown> }[];
    expect(docs).toEqual([
      {
        apiVersion: 'docops/v1',
        kind: 'Organization',
        metadata: { organization: ORG },
        spec: { title: 'Acme Docs', emailDomains: ['acme.test'], hostname: 'acme-docs', defaultRole: 'read', ai: true, inviteLinks: true },
      },
    ]);
    const again = organizationKind.diff(fakeDiffContext(), ORG, desired(docs[0]!.spec), live);
    expect(again.steps).toEqual([]);
  });
});
