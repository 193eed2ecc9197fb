/** Live API bodies of a demo site for the Site kind tests (shapes as the contract describes them). */
import type { DesiredEntry } from '../../../src/model/kind.js';
import { siteKind } from '../../../src/kinds/site/kind.js';
import type { SiteSpec } from '../../../src/kinds/site/model.js';
import { desiredOf, fakeDoc } from '../helpers.js';
import { ORG } from '../seed.js';

export const BASE = `/orgs/${ORG}`;
export const SITE = `${BASE}/sites/site-help`;

export const SPACES = [
  { object: 'space', id: 'sp-getting-started', title: 'Getting Started', emoji: '🚀', parent: 'col-product' },
  { object: 'space', id: 'sp-api', title: 'API Reference', emoji: '📘', parent: 'col-product' },
  { object: 'space', id: 'sp-runbooks', title: 'Runbooks', emoji: '🛠', parent: 'col-internal' },
  { object: 'space', id: 'sp-changelog', title: 'Changelog', emoji: '📝' },
];

export const siteDesired = (...specs: Record<string, unknown>[]): DesiredEntry<SiteSpec>[] =>
  desiredOf(
    siteKind,
    specs.map((s) => fakeDoc('Site', ORG, s, 'site.yaml')),
  );

const space = (id: string) => SPACES.find((s) => s.id === id)!;

export function siteSpace(
  id: string,
  spaceId: string,
  section: string | null,
  path: string,
  isDefault = false,
  extra: Record<string, unknown> = {},
) {
  return {
    object: 'site-space',
    id,
    path,
    ...(section ? { section } : {}),
    space: space(spaceId),
    title: space(spaceId).title,
    default: isDefault,
    urls: { published: `https://docs.test/${path}` },
    ...extra,
  };
}

export function section(
  id: string,
  path: string,
  title: string,
  siteSpaces: ReturnType<typeof siteSpace>[],
  extra: Record<string, unknown> = {},
) {
  return { object: 'site-section', id, path, title, siteSpaces, ...extra };
}

/**
 * A live "Acme Help Center": sections guides (Getting Started, Changelog; default) and api (API Reference,
 * Runbooks) in group Developers; share link partners.
 */
export function liveSite(): Record<string, unknown> {
  const ssGs = siteSpace('ss-gs', 'sp-getting-started', 'sec-guides', 'getting-started', true);
  const ssCl = siteSpace('ss-cl', 'sp-changelog', 'sec-guides', 'changelog');
  const ssApi = siteSpace('ss-api', 'sp-api', 'sec-api', 'api-reference', true);
  const ssRb = siteSpace('ss-rb', 'sp-runbooks', 'sec-api', 'runbooks');
  const guides = section('sec-guides', 'guides', 'Guides', [ssGs, ssCl], { default: true, icon: 'book' });
  const api = section('sec-api', 'api', 'API', [ssApi, ssRb], { sectionGroup: 'grp-dev' });
  return {
    [`${BASE}/sites`]: [
      {
        object: 'site',
        id: 'site-help',
        title: 'Acme Help Center',
        visibility: 'public',
        published: false,
        agentsContext: 'excluded',
        adaptiveContent: { enabled: false },
        siteSpaces: 4,
      },
    ],
    [`${BASE}/spaces`]: SPACES,
    [`${SITE}/sections`]: [guides, api],
    [`${SITE}/section-groups`]: [
      { object: 'site-section-group', id: 'grp-dev', title: 'Developers', icon: 'code', sections: [api] },
    ],
    [`${SITE}/site-spaces`]: [ssGs, ssCl, ssApi, ssRb],
    [`${SITE}/share-links`]: [
      {
        object: 'share-link',
        id: 'sl-partners',
        name: 'partners',
        active: true,
        createdAt: '2024-01-01T00:00:00Z',
        urls: { published: 'https://docs.test/?share=SECRET-partners' },
      },
    ],
    [`${SITE}/adaptive-schema`]: {
      object: 'site-adaptive-schema',
      jsonSchema: { type: 'object', properties: {}, additionalProperties: false },
      updatedAt: '2024-01-01T00:00:00Z',
    },
  };
}

/** The manifest spec matching liveSite() exactly. */
export function liveSpec(): Record<string, unknown> {
  return {
    title: 'Acme Help Center',
    defaultSection: 'guides',
    sections: [
      { path: 'guides', title: 'Guides', spaces: ['Getting Started', 'Changelog'] },
      { path: 'api', title: 'API', spaces: ['API Reference', 'Runbooks'] },
    ],
    sectionGroups: [{ title: 'Developers', sections: ['api'] }],
    shareLinks: [{ name: 'partners' }],
  };
}

export const emptyOrg = (): Record<string, unknown> => ({ [`${BASE}/sites`]: [], [`${BASE}/spaces`]: SPACES });
