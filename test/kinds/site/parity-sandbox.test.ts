/**
 * Structure parity with gitbook-docs.yaml (issue 29), against the sandbox: draft and localized titles and
 * descriptions on sections, draft and localized titles on section groups, hidden and draft site spaces — set on
 * create and on update, compared, exported, and planning no change afterwards.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import { computePlan } from '../../../src/engine/reconcile.js';
import { readForExport } from '../../../src/export/index.js';
import { KINDS } from '../../../src/kinds/index.js';
import { loadManifests } from '../../../src/manifests/index.js';
import { siteSectionGroups, siteSections, siteSpaces } from '../../../packages/sandbox/src/site-records.js';
import { sandboxPerTest, type SandboxRun } from '../sandbox-per-test.js';

const start = sandboxPerTest('site-parity');
const ORG = 'org-demo';
const siteDoc = (spec: Record<string, unknown>): string =>
  [
    'apiVersion: docops/v1',
    'kind: Site',
    `metadata: { organization: ${ORG} }`,
    `spec: ${JSON.stringify(spec)}`,
    '',
  ].join('\n');

async function planOf(r: SandboxRun, spec: Record<string, unknown>) {
  writeFileSync(join(r.dir, 'site.yaml'), siteDoc(spec));
  const { desired } = await loadManifests(r.dir, KINDS, { env: {} });
  return (await computePlan(r.client, KINDS, desired)).plan;
}

const SPEC = {
  title: 'World',
  sections: [
    {
      path: 'guides',
      title: 'Guides',
      draft: true,
      localizedTitle: { fr: 'Guides FR', de: 'Anleitungen' },
      localizedDescription: { fr: 'Comment faire' },
      spaces: [
        { space: 'Getting Started', hidden: true },
        { space: 'Changelog', draft: true },
      ],
    },
    { path: 'api', title: 'API', spaces: ['API Reference'] },
  ],
  defaultSection: 'api',
  sectionGroups: [{ title: 'Docs', draft: true, localizedTitle: { fr: 'Documentation' }, sections: ['guides'] }],
};

describe('draft, hidden and localized texts on the site structure', () => {
  it('are set when created, compared, changed by one PATCH each, and export plans no change', async () => {
    const r = await start();
    const first = await planOf(r, SPEC);
    expect((await applyPlan(r.client, first)).failed).toEqual([]);
    const guides = siteSections(r.sb.store)
      .all()
      .find((s) => s.path === 'guides')!;
    expect(guides).toMatchObject({
      draft: true,
      localizedTitle: { fr: 'Guides FR', de: 'Anleitungen' },
      localizedDescription: { fr: 'Comment faire' },
    });
    expect(siteSectionGroups(r.sb.store).all()[0]).toMatchObject({
      draft: true,
      localizedTitle: { fr: 'Documentation' },
    });
    const flags = siteSpaces(r.sb.store)
      .all()
      .map((x) => [x.spaceId, x.hidden ?? false, x.draft ?? false])
      .sort();
    expect(flags).toEqual([
      ['sp-api', false, false],
      ['sp-changelog', false, true],
      ['sp-getting-started', true, false],
    ]);
    expect(await planOf(r, SPEC)).toMatchObject({ steps: [], blocked: [] });

    const changed = structuredClone(SPEC) as typeof SPEC;
    changed.sections[0]!.draft = false;
    (changed.sections[0] as { localizedTitle: Record<string, string> }).localizedTitle = { fr: 'Guides' };
    (changed.sections[0]!.spaces[0] as { hidden: boolean }).hidden = false;
    changed.sectionGroups[0]!.draft = false;
    const next = await planOf(r, changed);
    expect(next.steps.map((s) => [s.id, s.before, s.after])).toEqual([
      [
        'SiteSection/org-demo/World/guides#update',
        { draft: true, localizedTitle: { fr: 'Guides FR', de: 'Anleitungen' } },
        { draft: false, localizedTitle: { fr: 'Guides' } },
      ],
      ['SiteSpace/org-demo/World/guides/Getting Started#update', { hidden: true }, { hidden: false }],
      ['SiteSectionGroup/org-demo/World/Docs#update', { draft: true }, { draft: false }],
    ]);
    expect((await applyPlan(r.client, next)).failed).toEqual([]);
    expect(await planOf(r, changed)).toMatchObject({ steps: [], blocked: [] });

    const [site] = await readForExport(
      r.client,
      KINDS.filter((k) => k.kind === 'Site'),
      ORG,
    );
    const exported = (site!.documents as { spec: Record<string, unknown> }[]).find(
      (d) => d.spec['title'] === 'World',
    )!.spec;
    expect(exported['sections']).toEqual([
      {
        path: 'guides',
        title: 'Guides',
        localizedTitle: { fr: 'Guides' },
        localizedDescription: { fr: 'Comment faire' },
        spaces: ['Getting Started', { space: 'Changelog', draft: true }],
      },
      { path: 'api', title: 'API', spaces: ['API Reference'] },
    ]);
    expect(exported['sectionGroups']).toEqual([
      { title: 'Docs', localizedTitle: { fr: 'Documentation' }, sections: ['guides'] },
    ]);
    expect(await planOf(r, exported)).toMatchObject({ steps: [], blocked: [] });
  });
});

describe('external links', () => {
  it('are created at the top level and in a group (also a group created in the same plan), updated, moved, pruned, and exported', async () => {
    const r = await start();
    const base = {
      title: 'Linked',
      sections: [
        { path: 'guides', title: 'Guides', spaces: ['Getting Started'] },
        { path: 'api', title: 'API', spaces: ['API Reference'] },
      ],
      sectionGroups: [{ title: 'Developers', sections: ['api'] }],
    };
    const links = [
      { title: 'Status', url: 'https://status.acme.test', icon: 'gauge' },
      {
        title: 'Blog',
        url: 'https://acme.test/blog',
        group: 'Developers',
        localizedTitle: { fr: 'Blogue' },
        draft: true,
      },
    ];
    const first = await planOf(r, { ...base, externalLinks: links });
    const create = first.steps.find((s) => s.id === 'SiteExternalLink/org-demo/Linked/Blog#create')!;
    expect(create.dependsOn).toEqual([
      'Site/org-demo/Linked#create',
      'SiteSectionGroup/org-demo/Linked/Developers#create',
    ]);
    expect((await applyPlan(r.client, first)).failed).toEqual([]);
    expect(await planOf(r, { ...base, externalLinks: links })).toMatchObject({ steps: [], blocked: [] });

    const moved = [{ ...links[0]!, group: 'Developers', url: 'https://status.acme.test/v2' }, links[1]!];
    const next = await planOf(r, { ...base, externalLinks: moved });
    expect(next.steps.map((s) => [s.id, s.before, s.after])).toEqual([
      [
        'SiteExternalLink/org-demo/Linked/Status#update',
        { url: 'https://status.acme.test', group: null },
        { url: 'https://status.acme.test/v2', group: 'Developers' },
      ],
    ]);
    expect((await applyPlan(r.client, next)).failed).toEqual([]);

    const [site] = await readForExport(
      r.client,
      KINDS.filter((k) => k.kind === 'Site'),
      ORG,
    );
    const exported = (site!.documents as { spec: Record<string, unknown> }[]).find(
      (d) => d.spec['title'] === 'Linked',
    )!.spec;
    expect(exported['externalLinks']).toEqual(
      expect.arrayContaining([
        { title: 'Status', url: 'https://status.acme.test/v2', icon: 'gauge', group: 'Developers' },
        {
          title: 'Blog',
          url: 'https://acme.test/blog',
          draft: true,
          localizedTitle: { fr: 'Blogue' },
          group: 'Developers',
        },
      ]),
    );
    expect(await planOf(r, exported)).toMatchObject({ steps: [], blocked: [] });

    // Listed no more: unmanaged; under prune, deleted.
    const kept = await planOf(r, { ...base, externalLinks: [moved[1]] });
    expect([kept.steps, kept.unmanaged.filter((u) => u.kind === 'SiteExternalLink').map((u) => u.key)]).toEqual([
      [],
      ['Linked/Status'],
    ]);
    const unknownGroup = await planOf(r, { ...base, externalLinks: [{ ...moved[1]!, group: 'Nowhere' }] });
    expect(unknownGroup.blocked).toEqual([
      expect.objectContaining({
        key: 'Linked',
        message: expect.stringContaining('section group "Nowhere" is neither in sectionGroups nor a live group'),
      }),
    ]);
  });
});
