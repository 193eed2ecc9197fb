import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import { orderSteps } from '../../src/engine/order.js';
import { ref, placeholder } from '../../src/model/refs.js';
import { computePlan, diffOrder } from '../../src/engine/reconcile.js';
import { KINDS } from '../../src/kinds/index.js';
import { organizationKind } from '../../src/kinds/organization.js';
import { loadManifests } from '../../src/manifests/index.js';
import { startSandbox } from '@docops/sandbox';
import { fastClient, tempDir } from '../helpers/pipeline.js';
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
    expect(result).toEqual({ steps: [], unmanaged: [], warnings: [], blocked: [] });
  });

  it('an organization missing from the live state is blocked (docops never creates one), not a warning', () => {
    const result = organizationKind.diff(fakeDiffContext(), ORG, desired({ title: 'Acme Docs' }), { objects: [] });
    expect(result.steps).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.blocked.map((b) => [b.kind, b.key, b.message])).toEqual([
      [
        'Organization',
        ORG,
        'organization not found (or not visible to the token); docops never creates one: check metadata.organization',
      ],
    ]);
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
      {
        method: 'PATCH',
        path: '/orgs/org-demo',
        body: { title: 'Acme Documentation', logo: 'https://cdn.test/logo.png', ai: false },
      },
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
    const { result } = await plan(
      organizationKind,
      ORG,
      desired({ defaultContent: null, hostname: 'acme-docs' }),
      seedRoutes(),
    );
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
        spec: {
          title: 'Acme Docs',
          emailDomains: ['acme.test'],
          hostname: 'acme-docs',
          defaultRole: 'read',
          ai: true,
          inviteLinks: true,
        },
      },
    ]);
    const again = organizationKind.diff(fakeDiffContext(), ORG, desired(docs[0]!.spec), live);
    expect(again.steps).toEqual([]);
  });
});

describe('Organization defaultContent by Site manifest title', () => {
  const SITE_CREATE = 'Site/org-demo/Help Center#create';

  it('is diffed after Site, whatever the depth', () => {
    const order = diffOrder(KINDS).map((k) => k.kind);
    expect(order.indexOf('Organization')).toBeGreaterThan(order.indexOf('Site'));
  });

  it('resolves a title to a site created in this plan: the PATCH carries its ref and depends on the create', async () => {
    const ctx = fakeDiffContext({ registered: { 'Site|org-demo|Help Center': ref(SITE_CREATE) } });
    const { result } = await plan(
      organizationKind,
      ORG,
      desired({ defaultContent: { type: 'site', site: 'Help Center' } }),
      seedRoutes(),
      ctx,
    );
    expect(result.steps).toHaveLength(1);
    const step = result.steps[0]!;
    expect(step.phase).toBe('update');
    expect(step.requests).toEqual([
      {
        method: 'PATCH',
        path: `/orgs/${ORG}`,
        body: { defaultContent: { type: 'site', site: placeholder(SITE_CREATE, 'id') } },
        refs: [{ at: 'body', pointer: '/defaultContent/site', step: SITE_CREATE, output: 'id' }],
      },
    ]);
    expect(step.dependsOn).toEqual([SITE_CREATE]);
    expect(step.after).toEqual({ defaultContent: { type: 'site', site: 'Help Center' } });
    expect(step.note).toBe('default content: site "Help Center", created in this plan');
    // The create (create phase) runs in an earlier group than the Organization update (wave 0, update phase).
    const create = {
      ...step,
      id: SITE_CREATE,
      kind: 'Site',
      phase: 'create' as const,
      wave: 30,
      dependsOn: [],
      requests: [],
    };
    expect(orderSteps([step, create]).map((s) => s.id)).toEqual([SITE_CREATE, step.id]);
  });

  it('resolves a title to a live site id (no change when it is already the default), else a live site id', async () => {
    const sites = ['site-7', 'site-8', 'site-9'].map((id) => ({ object: 'site', id, title: `Site ${id}` }));
    const routes = {
      ...seedRoutes(),
      [`/orgs/${ORG}`]: {
        ...(seedRoutes()[`/orgs/${ORG}`] as object),
        defaultContent: { type: 'site', site: 'site-7' },
      },
      [`/orgs/${ORG}/sites`]: sites,
    };
    const registered = { 'Site|org-demo|Help Center': 'site-7' };
    const same = await plan(
      organizationKind,
      ORG,
      desired({ defaultContent: { type: 'site', site: 'Help Center' } }),
      routes,
      fakeDiffContext({ registered }),
    );
    expect(same.result.steps).toEqual([]);
    const byId = await plan(
      organizationKind,
      ORG,
      desired({ defaultContent: { type: 'site', site: 'site-9' } }),
      routes,
      fakeDiffContext({ registered }),
    );
    expect(byId.result.steps.map((s) => [s.requests[0]!.body, s.dependsOn, s.note])).toEqual([
      [{ defaultContent: { type: 'site', site: 'site-9' } }, [], undefined],
    ]);
    const renamed = await plan(
      organizationKind,
      ORG,
      desired({ defaultContent: { type: 'site', site: 'Other' } }),
      routes,
      fakeDiffContext({ registered: { 'Site|org-demo|Other': 'site-8' } }),
    );
    expect(renamed.result.steps.map((s) => [s.requests[0]!.body, s.before, s.after, s.note])).toEqual([
      [
        { defaultContent: { type: 'site', site: 'site-8' } },
        { defaultContent: { type: 'site', site: 'site-7' } },
        { defaultContent: { type: 'site', site: 'Other' } },
        'default content: site "Other" (site-8)',
      ],
    ]);
  });

  it('against the sandbox: a new site and the organization default content naming it converge in one apply', async () => {
    const sb = await startSandbox();
    const client = fastClient(sb);
    const dir = tempDir('org-default');
    try {
      const doc = (kind: string, spec: object) =>
        `apiVersion: docops/v1\nkind: ${kind}\nmetadata: { organization: org-demo }\nspec: ${JSON.stringify(spec)}\n`;
      writeFileSync(
        join(dir, 'org.yaml'),
        [
          doc('Organization', { defaultContent: { type: 'site', site: 'Help Center' } }),
          doc('Site', { title: 'Help Center', spaces: ['Changelog'] }),
        ].join('---\n'),
      );
      const { desired: state } = await loadManifests(dir, KINDS, { env: {} });
      const { plan: first } = await computePlan(client, KINDS, state);
      expect(first.steps.map((s) => s.id)).toEqual([
        SITE_CREATE,
        'SiteSpace/org-demo/Help Center/Changelog#create',
        'Organization/org-demo/org-demo#update',
      ]);
      expect(first.steps[2]!.dependsOn).toEqual([SITE_CREATE]);
      const report = await applyPlan(client, first);
      expect(report.failed).toEqual([]);
      const siteId = report.outputs[SITE_CREATE]?.['id'];
      expect(siteId).toMatch(/./);
      expect((await client.get<Record<string, unknown>>(`/orgs/${ORG}`))['defaultContent']).toEqual({
        type: 'site',
        site: siteId,
      });
      const next = (await computePlan(client, KINDS, state)).plan;
      expect(next.steps).toEqual([]);
    } finally {
      await client.close();
      await sb.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
