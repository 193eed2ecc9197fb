/**
 * A site's redirects, publication and visitor sign-in against the sandbox (issue 29): thousands of rules written in
 * a few bulk requests with one step per rule, a rule the API refuses failing only its step, destinations by section
 * path and space (also ones created in the same plan), publish / unpublish (a publish the plan needs an upgrade for
 * fails saying so), the sign-in settings with a private key compared by fingerprint and never shown, and export
 * round-tripping all of it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import { computePlan } from '../../../src/engine/reconcile.js';
import { readForExport } from '../../../src/export/index.js';
import { KINDS } from '../../../src/kinds/index.js';
import { loadManifests } from '../../../src/manifests/index.js';
import { renderJson } from '../../../src/render/json.js';
import { renderText } from '../../../src/render/text.js';
import { orgs } from '../../../packages/sandbox/src/records.js';
import { siteRedirects } from '../../../packages/sandbox/src/site-redirects.js';
import { sites } from '../../../packages/sandbox/src/site-records.js';
import { siteSections } from '../../../packages/sandbox/src/site-records.js';
import { sandboxPerTest, type SandboxRun } from '../sandbox-per-test.js';

const start = sandboxPerTest('site-live');
const ORG = 'org-demo';

const siteDoc = (spec: Record<string, unknown>): string =>
  [
    'apiVersion: docops/v1',
    'kind: Site',
    `metadata: { organization: ${ORG} }`,
    `spec: ${JSON.stringify(spec)}`,
    '',
  ].join('\n');

async function planOf(r: SandboxRun, text: string, env: Record<string, string> = {}) {
  writeFileSync(join(r.dir, 'site.yaml'), text);
  const { desired } = await loadManifests(r.dir, KINDS, { env, allowEnv: Object.keys(env) });
  return { desired, ...(await computePlan(r.client, KINDS, desired)) };
}

async function converge(r: SandboxRun, text: string, env: Record<string, string> = {}) {
  const { plan, desired } = await planOf(r, text, env);
  const report = await applyPlan(r.client, plan);
  const next = (await computePlan(r.client, KINDS, desired)).plan;
  return { plan, report, next };
}

const siteIdOf = (r: SandboxRun, title: string): string =>
  sites(r.sb.store)
    .all()
    .find((s) => s.title === title)!.id;
const writes = (r: SandboxRun, path: RegExp): number =>
  r.sb.stats().requests.filter((q) => q.method === 'PUT' && path.test(q.path)).length;

describe('redirects', () => {
  it('1,200 rules: one step each, written in three bulk requests; the next plan is empty', async () => {
    const r = await start();
    const redirects = Array.from({ length: 1200 }, (_, i) => ({
      source: `/old/${i}`,
      destination: `https://acme.test/new/${i}`,
      ...(i % 2 === 0 ? { permanent: true } : {}),
    }));
    r.sb.resetStats();
    const { plan, report, next } = await converge(r, siteDoc({ title: 'Moved', redirects }));
    expect(report.failed).toEqual([]);
    expect(plan.steps.filter((s) => s.kind === 'SiteRedirect')).toHaveLength(1200);
    expect(writes(r, /\/redirects$/)).toBe(3);
    expect(next.steps).toEqual([]);
    expect(siteRedirects(r.sb.store).all()).toHaveLength(1200);
  });

  it('a changed rule and a removed one are a step each; a rule the API refuses fails its step, the others stand', async () => {
    const r = await start();
    const spec = (extra: object[]) => ({
      title: 'Docs',
      sections: [
        { path: 'guides', title: 'Guides', spaces: ['Getting Started'] },
        { path: 'api', title: 'API', spaces: ['API Reference'] },
        { path: 'ops', title: 'Ops', spaces: ['Runbooks'] },
      ],
      defaultSection: 'guides',
      redirects: [
        { source: '/start', destination: { section: 'guides' } },
        { source: '/api/*', destination: { section: 'api', space: 'API Reference' }, captureWildcard: true },
        ...extra,
      ],
    });
    const first = await converge(
      r,
      siteDoc(
        spec([
          { source: '/gone', destination: 'https://acme.test' },
          { source: '/beta', destination: 'https://acme.test/beta', draft: true },
        ]),
      ),
    );
    expect(first.report.failed).toEqual([]);
    expect(first.next.steps).toEqual([]);
    // A section created in the same plan: the rule waits for it (a ref in its body).
    const create = first.plan.steps.find((s) => s.id === 'SiteRedirect/org-demo/Docs//start#create')!;
    expect(create.dependsOn).toEqual(['Site/org-demo/Docs#create', 'SiteSection/org-demo/Docs/guides#create']);

    const { plan } = await planOf(
      r,
      siteDoc(spec([{ source: '/beta', destination: 'https://acme.test/beta2', draft: true }])),
    );
    expect(plan.steps.map((s) => [s.id, s.before, s.after])).toEqual([
      [
        'SiteRedirect/org-demo/Docs//beta (draft)#update',
        { destination: 'https://acme.test/beta' },
        { destination: 'https://acme.test/beta2' },
      ],
      [
        'SiteRedirect/org-demo/Docs//gone#delete',
        { source: '/gone', destination: 'https://acme.test', permanent: false, captureWildcard: false },
        null,
      ],
    ]);
    // The section a third rule names goes away behind docops's back between plan and apply: only that rule fails.
    const { plan: withThird } = await planOf(
      r,
      siteDoc(
        spec([
          { source: '/beta', destination: 'https://acme.test/beta2', draft: true },
          { source: '/x', destination: { section: 'ops' } },
        ]),
      ),
    );
    const ops = siteSections(r.sb.store)
      .all()
      .find((s) => s.path === 'ops')!;
    await r.client.request('DELETE', `/orgs/${ORG}/sites/${siteIdOf(r, 'Docs')}/sections/${ops.id}`);
    const report = await applyPlan(r.client, withThird);
    expect(report.failed).toEqual([
      {
        stepId: 'SiteRedirect/org-demo/Docs//x#create',
        message: expect.stringContaining(`site section "${ops.id}" not found`),
      },
    ]);
    expect(report.applied.sort()).toEqual([
      'SiteRedirect/org-demo/Docs//beta (draft)#update',
      'SiteRedirect/org-demo/Docs//gone#delete',
    ]);
    expect(
      siteRedirects(r.sb.store)
        .all()
        .map((x) => [x.source, x.draft])
        .sort(),
    ).toEqual([
      ['/api/*', false],
      ['/beta', true],
      ['/start', false],
    ]);
  });

  it('a destination naming no section of the site blocks the site, at the destination', async () => {
    const r = await start();
    const { plan } = await planOf(
      r,
      siteDoc({ title: 'Docs', redirects: [{ source: '/a', destination: { section: 'nowhere' } }] }),
    );
    expect(plan.steps.filter((s) => s.key.startsWith('Docs'))).toEqual([]);
    expect(plan.blocked).toEqual([
      expect.objectContaining({
        kind: 'Site',
        key: 'Docs',
        message: expect.stringContaining('section "nowhere" is not a section of the site'),
        source: expect.objectContaining({ line: 4 }),
      }),
    ]);
  });
});

describe('published', () => {
  it('publishes after the structure is built, unpublishes as a delete, and a publish the plan needs an upgrade for fails saying so', async () => {
    const r = await start();
    const { plan, report, next } = await converge(
      r,
      siteDoc({ title: 'Live', spaces: ['Changelog'], published: true }),
    );
    expect(report.failed).toEqual([]);
    expect(plan.steps.map((s) => s.id).at(-1)).toBe('SitePublication/org-demo/Live#publish');
    expect(sites(r.sb.store).get(siteIdOf(r, 'Live'))!.published).toBe(true);
    expect(next.steps).toEqual([]);

    const off = await planOf(r, siteDoc({ title: 'Live', spaces: ['Changelog'], published: false }));
    expect(off.plan.steps.map((s) => [s.id, s.action, s.phase])).toEqual([
      ['SitePublication/org-demo/Live#unpublish', 'delete', 'delete'],
    ]);

    // A visitor-auth site of an organization on the free plan (the demo's is Enterprise): the API answers with a checkout session.
    orgs(r.sb.store).put({ ...orgs(r.sb.store).get(ORG)!, plan: 'free_2024' });
    const paid = await converge(
      r,
      siteDoc({ title: 'Live', spaces: ['Changelog'], visibility: 'visitor-auth', published: false }),
    );
    expect(paid.report.failed).toEqual([]);
    const again = await converge(
      r,
      siteDoc({ title: 'Live', spaces: ['Changelog'], visibility: 'visitor-auth', published: true }),
    );
    expect(again.report.failed).toEqual([
      {
        stepId: 'SitePublication/org-demo/Live#publish',
        message: expect.stringMatching(/^site "Live" was not published: the organization's plan needs an upgrade/),
      },
    ]);
    expect(again.next.steps.map((s) => s.id)).toEqual(['SitePublication/org-demo/Live#publish']);
  });
});

describe('publishing auth', () => {
  it('sets the URLs; a private key is compared by fingerprint, never shown, and a different one blocks the site', async () => {
    const r = await start();
    await converge(r, siteDoc({ title: 'Members', spaces: ['Changelog'] }));
    const id = siteIdOf(r, 'Members');
    const key = (await r.client.get<{ privateKey: string }>(`/orgs/${ORG}/sites/${id}/publishing/auth`)).privateKey;
    const auth = { backend: 'custom', fallbackURL: 'https://acme.test/login', privateKey: '${VA_KEY}' };
    const { plan, report, next } = await converge(
      r,
      siteDoc({ title: 'Members', spaces: ['Changelog'], publishingAuth: auth }),
      { VA_KEY: key },
    );
    expect(report.failed).toEqual([]);
    expect(plan.steps.map((s) => [s.id, s.before, s.after])).toEqual([
      [
        'Site/org-demo/Members#publishing-auth',
        { publishingAuth: { fallbackURL: null } },
        { publishingAuth: { fallbackURL: 'https://acme.test/login' } },
      ],
    ]);
    expect(next.steps).toEqual([]);

    const other = await planOf(r, siteDoc({ title: 'Members', spaces: ['Changelog'], publishingAuth: auth }), {
      VA_KEY: 'not-the-key-of-this-site',
    });
    expect(other.plan.blocked).toEqual([
      expect.objectContaining({
        key: 'Members',
        message: expect.stringMatching(
          /^the site's private key \(sha256:[0-9a-f]{64}\) is not the one written \(sha256:[0-9a-f]{64}\)/,
        ),
      }),
    ]);
    for (const text of [renderText(other.plan), renderJson(other.plan), renderText(plan), renderJson(plan)])
      expect(text).not.toContain(key.slice(0, 16));

    // Or read from a file beside the manifest (with a line ending): the same key, no change.
    mkdirSync(join(r.dir, 'keys'));
    writeFileSync(join(r.dir, 'keys', 'members.key'), `${key}\n`);
    const fromFile = await planOf(
      r,
      siteDoc({
        title: 'Members',
        spaces: ['Changelog'],
        publishingAuth: { ...auth, privateKey: { file: 'keys/members.key' } },
      }),
    );
    expect([fromFile.plan.steps, fromFile.plan.blocked]).toEqual([[], []]);
  });
});

describe('export', () => {
  it('writes redirects, published and the sign-in URLs (never the key), and plans no change', async () => {
    const r = await start();
    const spec = {
      title: 'Round',
      sections: [{ path: 'guides', title: 'Guides', spaces: ['Getting Started', 'Changelog'] }],
      published: true,
      publishingAuth: { logoutURL: 'https://acme.test/logout' },
      redirects: [
        { source: '/a', destination: { section: 'guides', space: 'Changelog', page: 'page-1' }, permanent: true },
        { source: '/b/*', destination: 'https://acme.test/b', captureWildcard: true, draft: true },
      ],
    };
    expect((await converge(r, siteDoc(spec))).report.failed).toEqual([]);
    const [site] = await readForExport(
      r.client,
      KINDS.filter((k) => k.kind === 'Site'),
      ORG,
    );
    const exported = (site!.documents as { spec: Record<string, unknown> }[]).find(
      (d) => d.spec['title'] === 'Round',
    )!.spec;
    expect(exported).toMatchObject({ published: true, publishingAuth: { logoutURL: 'https://acme.test/logout' } });
    expect(exported['redirects']).toEqual(expect.arrayContaining(spec.redirects));
    expect(JSON.stringify(exported)).not.toContain('privateKey');
    const { plan } = await planOf(r, siteDoc(exported));
    expect(plan.steps).toEqual([]);
  });
});
