/**
 * Space prune: a deleted space is soft-deleted; the site spaces showing it (and a section left without any) go when
 * it is purged 7 days later, and the delete lists them. A space a Site manifest shows is never pruned: its delete
 * is blocked, naming where the site shows it. Sites are read only when a space would be deleted.
 */
import { describe, expect, it } from 'vitest';
import type { DesiredEntry } from '../../../src/model/kind.js';
import { siteKind } from '../../../src/kinds/site/kind.js';
import { spaceKind } from '../../../src/kinds/space/kind.js';
import type { SpaceSpec } from '../../../src/kinds/space/model.js';
import { desiredOf, fakeDiffContext, fakeDoc, fakeFetchContext } from '../helpers.js';
import { ORG } from '../seed.js';

const SPACES = `/orgs/${ORG}/spaces`;
const SITES = `/orgs/${ORG}/sites`;
const space = (id: string, title: string) => ({ object: 'space', id, title, emoji: '' });
const routes = () => ({
  [SPACES]: [space('sp-a', 'Alpha'), space('sp-b', 'Beta'), space('sp-c', 'Gamma')],
  [SITES]: [{ object: 'site', id: 'site-help', title: 'Help' }],
  [`${SITES}/site-help/sections`]: [
    { object: 'site-section', id: 'sec-main', path: 'main', title: 'Main', default: true },
    { object: 'site-section', id: 'sec-beta', path: 'beta', title: 'Beta' },
  ],
  [`${SITES}/site-help/site-spaces`]: [
    {
      object: 'site-space',
      id: 'ss-a',
      path: 'alpha',
      section: 'sec-main',
      space: space('sp-a', 'Alpha'),
      default: true,
    },
    { object: 'site-space', id: 'ss-b1', path: 'beta', section: 'sec-main', space: space('sp-b', 'Beta') },
    {
      object: 'site-space',
      id: 'ss-b2',
      path: 'beta',
      section: 'sec-beta',
      space: space('sp-b', 'Beta'),
      default: true,
    },
  ],
});
const spaces = (...titles: string[]) =>
  desiredOf(
    spaceKind,
    titles.map((title) => fakeDoc('Space', ORG, { title })),
  );

async function run(desired: DesiredEntry<SpaceSpec>[], prune: string[], others: DesiredEntry[] = []) {
  const f = fakeFetchContext(routes(), prune);
  const live = await spaceKind.fetch(f, ORG, desired);
  return {
    live,
    result: spaceKind.diff(fakeDiffContext({ prune, desired: others }), ORG, desired, live),
    asked: f.asked,
  };
}

describe('Space prune', () => {
  it('lists the site spaces that go when the space is purged, and a section left empty', async () => {
    const { result, asked, live } = await run(spaces('Alpha', 'Gamma'), ['Space']);
    expect(result.steps.map((s) => [s.id, s.note, s.cascades])).toEqual([
      [
        'Space/org-demo/Beta#delete',
        'soft delete: restorable for 7 days',
        [
          {
            kind: 'SiteSpace',
            org: ORG,
            key: 'Help/main/Beta',
            id: 'ss-b1',
            note: 'when the space is purged, 7 days after its delete, unless restored',
          },
          {
            kind: 'SiteSpace',
            org: ORG,
            key: 'Help/beta/Beta',
            id: 'ss-b2',
            note: 'when the space is purged, 7 days after its delete, unless restored',
          },
          {
            kind: 'SiteSection',
            org: ORG,
            key: 'Help/beta',
            id: 'sec-beta',
            note: 'when its last space is purged, 7 days after the delete, unless restored',
          },
        ],
      ],
    ]);
    expect(asked).toEqual([SPACES, SITES, `${SITES}/site-help/sections`, `${SITES}/site-help/site-spaces`]);
    expect(live.related?.map((o) => o.id)).toEqual(['sec-main', 'sec-beta', 'ss-a', 'ss-b1', 'ss-b2']);
  });

  it('reads no sites when no space would be deleted, or without prune', async () => {
    expect((await run(spaces('Alpha', 'Beta', 'Gamma'), ['Space'])).asked).toEqual([SPACES]);
    expect((await run(spaces('Alpha'), [])).asked).toEqual([SPACES]);
  });

  it('a space a Site manifest shows is not deleted: the delete is blocked, naming where the site shows it', async () => {
    const site = desiredOf(siteKind, [
      fakeDoc('Site', ORG, { title: 'Help', sections: [{ path: 'main', spaces: ['Alpha', 'sp-b'] }] }, 'site.yaml'),
    ]);
    const { result } = await run(spaces('Alpha'), ['Space'], site);
    expect(result.steps.map((s) => s.id)).toEqual(['Space/org-demo/Gamma#delete']);
    expect(result.blocked).toEqual([
      {
        kind: 'Space',
        org: ORG,
        key: 'Beta',
        message:
          'not deleted (prune): a Site manifest shows it (site.yaml:11:5), and the site space would go when the deleted space is purged; describe the space in a Space manifest, or take it out of the site',
        source: { file: 'site.yaml', line: 11, column: 5 },
      },
    ]);
  });

  it('a section a Site manifest writes is not listed as emptied (the manifest keeps it)', async () => {
    const site = desiredOf(siteKind, [
      fakeDoc(
        'Site',
        ORG,
        {
          title: 'Help',
          sections: [
            { path: 'main', spaces: ['Alpha'] },
            { path: 'beta', spaces: ['Gamma'] },
          ],
        },
        'site.yaml',
      ),
    ]);
    const { result } = await run(spaces('Alpha', 'Gamma'), ['Space'], site);
    expect(result.steps[0]!.cascades?.map((c) => c.id)).toEqual(['ss-b1', 'ss-b2']);
  });
});
