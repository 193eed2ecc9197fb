/**
 * What deleting a site or a section takes with it: a pruned site lists its sections, groups, site spaces, share
 * links and (when it defines claims) its adaptive schema; a pruned section lists the site spaces still in it when
 * it is deleted (one the manifest moves elsewhere leaves first, and the delete waits for the move). Under prune,
 * only the structure of the site that would be deleted is read: the gate measures a site's sub-objects against that
 * site's own lists, so other sites' lists (once read for an organization total) change nothing.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredEntry } from '../../../src/model/kind.js';
import { siteKind } from '../../../src/kinds/site/kind.js';
import type { SiteSpec } from '../../../src/kinds/site/model.js';
import { fakeDiffContext, fakeFetchContext } from '../helpers.js';
import { ORG } from '../seed.js';
import { BASE, SITE, liveSite, liveSpec, section, siteDesired, siteSpace } from './fixtures.js';

const OLD = `${BASE}/sites/site-old`;

/** liveSite() plus an "Old site" with one section (two site spaces), a group, a share link and a claim. */
function routes(): Record<string, unknown> {
  const base = liveSite();
  const ssA = siteSpace('ss-old-a', 'sp-changelog', 'sec-old', 'changelog', true);
  const ssB = siteSpace('ss-old-b', 'sp-runbooks', 'sec-old', 'runbooks');
  const sec = section('sec-old', 'notes', 'Notes', [ssA, ssB], { default: true, sectionGroup: 'grp-old' });
  return {
    ...base,
    [`${BASE}/sites`]: [...(base[`${BASE}/sites`] as object[]), { object: 'site', id: 'site-old', title: 'Old site' }],
    [`${OLD}/sections`]: [sec],
    [`${OLD}/section-groups`]: [{ object: 'site-section-group', id: 'grp-old', title: 'Archive', sections: [sec] }],
    [`${OLD}/site-spaces`]: [ssA, ssB],
    [`${OLD}/share-links`]: [
      {
        object: 'share-link',
        id: 'sl-old',
        name: 'press',
        active: true,
        urls: { published: 'https://x.test/?share=SECRET' },
      },
    ],
    [`${OLD}/adaptive-schema`]: {
      object: 'site-adaptive-schema',
      jsonSchema: { type: 'object', properties: { beta: { type: 'boolean' } }, additionalProperties: false },
    },
    [`${OLD}/redirects?draft=false`]: [
      {
        object: 'site-redirect',
        id: 'rd-old',
        source: '/notes',
        draft: false,
        permanent: true,
        captureWildcard: false,
        destination: { kind: 'site-section', siteSectionId: 'sec-old' },
      },
    ],
    [`${OLD}/redirects?draft=true`]: [],
    [`${OLD}/structure`]: {
      type: 'sections',
      structure: [
        sec,
        { object: 'site-external-link', id: 'xl-old', title: 'Status', url: 'https://status.acme.test', draft: false },
      ],
    },
  };
}

async function run(desired: DesiredEntry<SiteSpec>[], prune: string[]) {
  const fetchCtx = fakeFetchContext(routes(), prune);
  const live = await siteKind.fetch(fetchCtx, ORG, desired);
  return { live, result: siteKind.diff(fakeDiffContext({ prune }), ORG, desired, live), asked: fetchCtx.asked };
}

const step = (r: { steps: { id: string }[] }, id: string) =>
  r.steps.find((s) => s.id === id) as { dependsOn: string[]; cascades?: unknown[] } | undefined;

describe('Site prune: what a site delete takes', () => {
  it('lists every child of the pruned site, and the adaptive schema that defines claims', async () => {
    const { result, asked, live } = await run(siteDesired({ title: 'Acme Help Center' }), ['Site']);
    expect(step(result, 'Site/org-demo/Old site#delete')?.cascades).toEqual([
      { kind: 'SiteSection', org: ORG, key: 'Old site/notes', id: 'sec-old' },
      { kind: 'SiteSectionGroup', org: ORG, key: 'Old site/Archive', id: 'grp-old' },
      { kind: 'SiteSpace', org: ORG, key: 'Old site/notes/Changelog', id: 'ss-old-a' },
      { kind: 'SiteSpace', org: ORG, key: 'Old site/notes/Runbooks', id: 'ss-old-b' },
      { kind: 'SiteShareLink', org: ORG, key: 'Old site/press', id: 'sl-old' },
      { kind: 'SiteRedirect', org: ORG, key: 'Old site//notes', id: 'rd-old' },
      { kind: 'SiteExternalLink', org: ORG, key: 'Old site/Status', id: 'xl-old' },
      { kind: 'SiteAdaptiveSchema', org: ORG, key: 'Old site', note: 'visitor claims beta' },
    ]);
    // Only the pruned site's structure is read (not the managed one's, whose spec writes none); its children are its list.
    expect(asked.filter((p) => p.startsWith(`${BASE}/sites/`)).sort()).toEqual(
      [
        `${OLD}/adaptive-schema`,
        `${OLD}/section-groups`,
        `${OLD}/sections`,
        `${OLD}/share-links`,
        `${OLD}/site-spaces`,
        `${OLD}/redirects?draft=false`,
        `${OLD}/redirects?draft=true`,
        `${OLD}/structure`,
      ].sort(),
    );
    expect(live.related?.filter((o) => o.kind === 'SiteSection').map((o) => [o.id, o.parent])).toEqual([
      ['sec-old', { kind: 'Site', id: 'site-old', key: 'Old site' }],
    ]);
    expect(JSON.stringify(live)).not.toContain('SECRET');
  });

  it('reads nothing below the sites without prune, or when no site would be deleted', async () => {
    const off = await run(siteDesired({ title: 'Acme Help Center' }), []);
    expect(off.asked).toEqual([`${BASE}/sites`]);
    expect(off.result.unmanaged.map((u) => u.key)).toEqual(['Old site']);
    const none = await run(siteDesired({ title: 'Acme Help Center' }, { title: 'Old site' }), ['Site']);
    expect(none.asked).toEqual([`${BASE}/sites`]);
  });
});

describe('Section prune: what a section delete takes', () => {
  it('lists the site spaces in the pruned section', async () => {
    const spec = { ...liveSpec(), sections: [(liveSpec()['sections'] as object[])[0]], sectionGroups: [] };
    const { result } = await run(siteDesired(spec), ['Site']);
    const api = step(result, 'SiteSection/org-demo/Acme Help Center/api#delete');
    expect(api?.cascades).toEqual([
      { kind: 'SiteSpace', org: ORG, key: 'Acme Help Center/api/API Reference', id: 'ss-api' },
      { kind: 'SiteSpace', org: ORG, key: 'Acme Help Center/api/Runbooks', id: 'ss-rb' },
    ]);
    expect(api?.dependsOn).toEqual([]);
  });

  it('a site space the manifest moves to another section leaves first: not a cascade, and the delete waits for the move', async () => {
    const spec = {
      ...liveSpec(),
      sections: [{ path: 'guides', title: 'Guides', spaces: ['Getting Started', 'Changelog', 'Runbooks'] }],
      sectionGroups: [],
    };
    const { result } = await run(siteDesired(spec), ['Site']);
    const order = result.steps.find((s) => s.id === 'Site/org-demo/Acme Help Center#order')!;
    expect(order.requests.map((r) => r.path)).toContain(`${SITE}/site-spaces/ss-rb/move`);
    const api = step(result, 'SiteSection/org-demo/Acme Help Center/api#delete');
    expect(api?.cascades).toEqual([
      { kind: 'SiteSpace', org: ORG, key: 'Acme Help Center/api/API Reference', id: 'ss-api' },
    ]);
    expect(api?.dependsOn).toEqual(['Site/org-demo/Acme Help Center#order']);
  });

  it("the pruned section's default moving out: another site space that stays becomes its default first", async () => {
    const spec = {
      ...liveSpec(),
      sections: [{ path: 'guides', title: 'Guides', spaces: ['Getting Started', 'Changelog', 'API Reference'] }],
      sectionGroups: [],
    };
    const { result } = await run(siteDesired(spec), ['Site']);
    const def = result.steps.find((s) => s.id === 'SiteSection/org-demo/Acme Help Center/api#default')!;
    expect(def).toMatchObject({
      phase: 'update',
      wave: 34,
      requests: [{ method: 'PATCH', path: `${SITE}/sections/sec-api`, body: { defaultSiteSpace: 'ss-rb' } }],
    });
    expect(step(result, 'Site/org-demo/Acme Help Center#order')?.dependsOn).toContain(def.id);
    const api = step(result, 'SiteSection/org-demo/Acme Help Center/api#delete');
    expect(api?.cascades).toEqual([{ kind: 'SiteSpace', org: ORG, key: 'Acme Help Center/api/Runbooks', id: 'ss-rb' }]);
    expect(api?.dependsOn).toEqual(['Site/org-demo/Acme Help Center#order']);
  });

  it('when every site space of the pruned section is wanted elsewhere, the last is created anew there and the section takes the old one', async () => {
    const spec = {
      ...liveSpec(),
      sections: [
        { path: 'guides', title: 'Guides', spaces: ['Getting Started', 'Changelog', 'API Reference', 'Runbooks'] },
      ],
      sectionGroups: [],
    };
    const { result } = await run(siteDesired(spec), ['Site']);
    expect(result.blocked).toEqual([]);
    // A section keeps at least one site space, so the last cannot move out: it is replaced in its target section.
    expect(step(result, 'SiteSpace/org-demo/Acme Help Center/guides/API Reference#create')).toBeDefined();
    expect(step(result, 'SiteSection/org-demo/Acme Help Center/api#delete')!.cascades).toEqual([
      { kind: 'SiteSpace', org: ORG, key: 'Acme Help Center/api/API Reference', id: 'ss-api' },
    ]);
  });
});
