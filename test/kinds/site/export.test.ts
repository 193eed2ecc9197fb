/**
 * Site export: offline (what a document holds, what is left out, defaults omitted, spaces by unique title else
 * id, no share-link URLs) and a round trip against the sandbox: a site built by an apply plus direct API
 * changes, exported with `docops export`, fed back as manifests, plans zero steps.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/model/api-client.js';
import { applyPlan } from '../../../src/engine/apply.js';
import { computePlan } from '../../../src/engine/reconcile.js';
import { exportOrganization } from '../../../src/export/index.js';
import { KINDS, siteKind } from '../../../src/kinds/index.js';
import type { SiteState } from '../../../src/kinds/site/model.js';
import { loadManifests } from '../../../src/manifests/index.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { fastClient, tempDir } from '../../helpers/pipeline.js';
import { desiredOf, fakeDiffContext, fakeDoc, plan } from '../helpers.js';
import { ORG } from '../seed.js';

const SITE = {
  id: 'site-1',
  title: 'Help',
  visibility: 'public',
  basename: null,
  proxy: null,
  adaptiveContent: { enabled: false },
  agentsContext: 'excluded',
  published: false,
};
const ss = (id: string, space: string, title: string, section: string | null, extra: Record<string, unknown> = {}) => ({
  object: 'site-space',
  id,
  path: title.toLowerCase().replace(/ /g, '-'),
  section: section ?? undefined,
  default: false,
  space: { id: space, title },
  ...extra,
});

/** Live answers of the fake fetch context for one site with two sections (one in a group). */
function routes(
  over: { site?: object; spaces?: object[]; siteSpaces?: object[]; links?: object[]; schema?: object } = {},
) {
  const base = `/orgs/${ORG}/sites/site-1`;
  return {
    [`/orgs/${ORG}/sites`]: [{ ...SITE, ...over.site }],
    [`/orgs/${ORG}/spaces`]: over.spaces ?? [
      { id: 'sp-a', title: 'Alpha' },
      { id: 'sp-b', title: 'Beta' },
      { id: 'sp-b2', title: 'Beta' },
    ],
    [`${base}/sections`]: [
      { id: 'sec-g', path: 'guides', title: 'Guides', icon: 'book', default: true, condition: null },
      {
        id: 'sec-r',
        path: 'ref',
        title: 'Reference',
        description: 'All of it',
        sectionGroup: 'grp-1',
        default: false,
        condition: 'visitor.claims.beta === true',
      },
    ],
    [`${base}/section-groups`]: [
      { id: 'grp-1', title: 'Developers', icon: null, sections: [{ id: 'sec-r' }] },
      { id: 'grp-empty', title: 'Empty', sections: [] },
    ],
    [`${base}/site-spaces`]: over.siteSpaces ?? [
      ss('ss-1', 'sp-a', 'Alpha', 'sec-g'),
      ss('ss-2', 'sp-b', 'Beta', 'sec-g', {
        default: true,
        path: 'beta-news',
        condition: 'visitor.claims.beta === true',
      }),
      ss('ss-3', 'sp-b2', 'Beta', 'sec-r', { default: true }),
      ss('ss-4', 'sp-b2', 'Beta', 'sec-r'),
    ],
    [`${base}/share-links`]: over.links ?? [
      { id: 'l1', name: 'partners', active: true, urls: { published: 'https://x.test/?share=SECRET' } },
      { id: 'l2', name: 'press', active: false, urls: { published: 'https://x.test/?share=SECRET2' } },
      { id: 'l3', name: 'twice', active: true },
      { id: 'l4', name: 'twice', active: true },
    ],
    [`${base}/adaptive-schema`]: {
      object: 'site-adaptive-schema',
      jsonSchema: over.schema ?? { type: 'object', properties: {}, additionalProperties: false },
    },
  };
}

/** Fetch as export does (every part written, the site pinned), then export. */
async function exported(
  r: ReturnType<typeof routes>,
): Promise<{ live: SiteState; docs: { spec: Record<string, unknown> }[] }> {
  const probe = desiredOf(siteKind, [
    fakeDoc('Site', ORG, {
      title: 'Help',
      id: 'site-1',
      sections: [],
      sectionGroups: [],
      shareLinks: [],
      adaptiveSchema: { type: 'object', properties: {}, additionalProperties: false },
    }),
  ]);
  const { live } = await plan(siteKind, ORG, probe, r);
  return { live, docs: siteKind.export!(ORG, live) as { spec: Record<string, unknown> }[] };
}

describe('Site export (offline)', () => {
  it('writes the structure in navigation order, defaults omitted, spaces by unique title else id, no URLs', async () => {
    const { docs } = await exported(routes());
    expect(docs).toEqual([
      {
        apiVersion: 'docops/v1',
        kind: 'Site',
        metadata: { organization: ORG },
        spec: {
          title: 'Help',
          id: 'site-1',
          sections: [
            {
              path: 'guides',
              title: 'Guides',
              icon: 'book',
              spaces: ['Alpha', { space: 'sp-b', path: 'beta-news', condition: 'visitor.claims.beta === true' }],
            },
            // sp-b2 is shown twice in one section: a manifest lists it once (the other is unmanaged).
            {
              path: 'ref',
              title: 'Reference',
              description: 'All of it',
              condition: 'visitor.claims.beta === true',
              spaces: ['sp-b2'],
            },
          ],
          defaultSection: 'guides',
          defaultSiteSpace: { section: 'guides', space: 'sp-b' },
          // The group without sections cannot be written (sections needs one): it stays unmanaged.
          sectionGroups: [{ title: 'Developers', sections: ['ref'] }],
          // Two links named "twice" cannot both be written: neither is.
          shareLinks: [{ name: 'partners' }, { name: 'press', active: false }],
        },
      },
    ]);
    expect(JSON.stringify(docs)).not.toContain('SECRET');
  });

  it('writes site fields that differ from a new site, root spaces, and a non-trivial adaptive schema', async () => {
    const schema = { type: 'object', properties: { beta: { type: 'boolean' } }, additionalProperties: false };
    const r = routes({
      site: {
        visibility: 'unlisted',
        basename: 'help',
        proxy: { origin: 'acme.test/docs', target: 'https://x' },
        adaptiveContent: { enabled: true },
        agentsContext: 'included',
      },
      siteSpaces: [ss('ss-1', 'sp-a', 'Alpha', null), ss('ss-2', 'sp-b', 'Beta', null, { default: true })],
      links: [],
      schema,
    });
    r[`/orgs/${ORG}/sites/site-1/sections`] = [];
    r[`/orgs/${ORG}/sites/site-1/section-groups`] = [];
    const { docs } = await exported(r);
    expect(docs[0]!.spec).toEqual({
      title: 'Help',
      id: 'site-1',
      visibility: 'unlisted',
      basename: 'help',
      proxy: 'acme.test/docs',
      adaptiveContent: { enabled: true },
      agentsContext: 'included',
      spaces: ['Alpha', 'sp-b'],
      defaultSiteSpace: 'sp-b',
      adaptiveSchema: schema,
    });
  });

  it('a site whose structure was not fetched exports its fields only', async () => {
    const live: SiteState = {
      objects: [{ kind: 'Site', org: ORG, key: 'Help', id: 'site-1', fields: SITE }],
      aux: { structures: {}, spaces: [] },
    };
    expect(siteKind.export!(ORG, live)).toEqual([
      { apiVersion: 'docops/v1', kind: 'Site', metadata: { organization: ORG }, spec: { title: 'Help', id: 'site-1' } },
    ]);
  });

  it('the exported document re-diffs to zero steps against the state it came from', async () => {
    const { docs } = await exported(routes());
    const desired = desiredOf(siteKind, [fakeDoc('Site', ORG, docs[0]!.spec)]);
    const { result } = await plan(siteKind, ORG, desired, routes(), fakeDiffContext());
    expect(result.steps).toEqual([]);
    // What the document could not express is listed, not changed; the space shown twice is also named.
    expect(result.warnings.map((w) => w.message)).toEqual([
      'space "Beta" is in section "ref" twice; the manifest lists it once: site space ss-4 is left (unmanaged) — delete it, or turn prune on',
    ]);
    expect(result.unmanaged.map((u) => u.id).sort()).toEqual(['grp-empty', 'l3', 'l4', 'ss-4']);
  });
});

describe('Site export round trip against the sandbox', () => {
  const running: { sb: RunningSandbox; client: ApiClient; dirs: string[] }[] = [];
  afterEach(async () => {
    for (const r of running.splice(0)) {
      await r.client.close();
      await r.sb.close();
      for (const d of r.dirs) rmSync(d, { recursive: true, force: true });
    }
  });

  it('exports a site built in the sandbox; fed back as manifests it plans zero steps', async () => {
    const sb = await startSandbox();
    const client = fastClient(sb);
    const source = tempDir('site-export-src');
    const out = tempDir('site-export-out');
    running.push({ sb, client, dirs: [source, out] });
    const site = {
      title: 'Acme Help Center',
      visibility: 'share-link',
      basename: 'help',
      agentsContext: 'included',
      adaptiveContent: { enabled: true },
      defaultSection: 'api',
      sections: [
        {
          path: 'guides',
          title: 'Guides',
          icon: 'book',
          spaces: ['Getting Started', { space: 'Changelog', path: 'whats-new' }],
        },
        {
          path: 'api',
          title: 'API',
          description: 'For developers',
          spaces: ['API Reference', { space: 'Runbooks', condition: 'visitor.claims.beta === true' }],
        },
        { path: 'ops', title: 'Ops', spaces: ['Runbooks'] },
      ],
      sectionGroups: [{ title: 'Developers', icon: 'code', sections: ['api', 'ops'] }],
      shareLinks: [{ name: 'partners' }, { name: 'auditors', active: false }],
      adaptiveSchema: {
        type: 'object',
        additionalProperties: false,
        properties: { beta: { type: 'boolean', description: 'Beta tester' } },
      },
    };
    const small = {
      title: 'Status',
      proxy: 'status.acme.test/page',
      spaces: ['Changelog', 'Getting Started'],
      defaultSiteSpace: 'Getting Started',
    };
    const doc = (spec: object) =>
      `apiVersion: docops/v1\nkind: Site\nmetadata: { organization: org-demo }\nspec: ${JSON.stringify(spec)}\n`;
    writeFileSync(join(source, 'sites.yaml'), [doc(site), doc(small)].join('---\n'));
    const built = await loadManifests(source, KINDS, { env: {} });
    const report = await applyPlan(client, (await computePlan(client, KINDS, built.desired)).plan);
    expect(report.failed).toEqual([]);
    // A change made outside docops: the api section's default site space is now Runbooks.
    const siteId = report.outputs['Site/org-demo/Acme Help Center#create']!['id']!;
    const sections = await client.listAll<{
      id: string;
      path: string;
      siteSpaces: { id: string; space: { id: string } }[];
    }>(`/orgs/org-demo/sites/${siteId}/sections`);
    const api = sections.find((s) => s.path === 'api')!;
    const runbooks = api.siteSpaces.find((x) => x.space.id === 'sp-runbooks')!.id;
    await client.request('PATCH', `/orgs/org-demo/sites/${siteId}`, { body: { defaultSiteSpace: runbooks } });

    await exportOrganization(client, KINDS, 'org-demo', out);
    const loaded = await loadManifests(out, KINDS, { env: {} });
    const sites = loaded.documents.filter((d) => d.kind === 'Site').map((d) => d.spec);
    const exportedSite = sites.find((s) => s['title'] === 'Acme Help Center')!;
    expect(exportedSite).toMatchObject({
      id: siteId,
      visibility: 'share-link',
      basename: 'help',
      defaultSection: 'api',
      defaultSiteSpace: { section: 'api', space: 'Runbooks' },
      sectionGroups: [{ title: 'Developers', icon: 'code', sections: ['api', 'ops'] }],
    });
    // Share links are created concurrently: their live order varies.
    expect(exportedSite['shareLinks']).toEqual(
      expect.arrayContaining([{ name: 'partners' }, { name: 'auditors', active: false }]),
    );
    expect(exportedSite['shareLinks']).toHaveLength(2);
    expect((exportedSite['sections'] as { path: string }[]).map((s) => s.path)).toEqual(['guides', 'api', 'ops']);
    expect(sites.find((s) => s['title'] === 'Status')).toMatchObject({
      proxy: 'status.acme.test/page',
      spaces: ['Changelog', 'Getting Started'],
      defaultSiteSpace: 'Getting Started',
    });

    const { plan: again } = await computePlan(client, KINDS, loaded.desired);
    expect(again.steps).toEqual([]);
    expect(again.warnings).toEqual([]);
    const files = loaded.documents.map((d) => d.file);
    expect(files.some((f) => readFileSync(f, 'utf8').includes('share='))).toBe(false);
  });
});
