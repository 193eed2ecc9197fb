/**
 * The demo seed's content, discussions and integrations (seed.ts adds them to the demo organization): pages and
 * files in three spaces (sp-changelog stays empty), with links of every status; a change request on sp-api holding
 * a changed copy of its content; comments with a reply and a reaction; an invite link; two integrations, one
 * installed. Everything is fixed, so snapshots are reproducible.
 */
import type { PageRec } from './content-records.js';
import { changeRequestHost, changeRequests, comments, spaceContent, spaceHost } from './content-records.js';
import { installations, integrations } from './integration-records.js';
import { linkInvites } from './records.js';
import type { SandboxStore } from './store.js';

const ORG = 'org-demo';
const at = (n: number): string => new Date(Date.UTC(2024, 2, 1 + n, 9, 0, 0)).toISOString();

const page = (id: string, title: string, markdown: string, pages: PageRec[] = []): PageRec => ({
  id,
  title,
  slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
  kind: 'sheet',
  markdown,
  pages,
  createdAt: at(0),
  updatedAt: at(1),
});

const API_PAGES: PageRec[] = [
  page(
    'pg-api-overview',
    'Overview',
    '# API overview\n\nEvery request is [authenticated](/pages/pg-api-auth).\n\nSee the [architecture diagram](/files/file-api-diagram) and the [status page](https://status.acme.test).',
  ),
  page(
    'pg-api-auth',
    'Authentication',
    '# Authentication\n\nSend a bearer token with every request.\n\nTokens are rate limited: see [limits](/pages/pg-api-limits).',
  ),
  {
    id: 'pg-api-reference',
    title: 'Reference',
    slug: 'reference',
    kind: 'group',
    createdAt: at(0),
    updatedAt: at(0),
    pages: [
      page(
        'pg-api-errors',
        'Errors',
        '# Errors\n\nErrors answer a JSON body with a code and a message.\n\nEdit this page [in the app](https://app.sandbox.test/o/org-demo/s/sp-api/reference/errors).',
      ),
    ],
  },
];

const API_FILES = [
  {
    id: 'file-api-diagram',
    name: 'architecture.png',
    contentType: 'image/png',
    size: 24576,
    dimensions: { width: 1200, height: 800 },
  },
  { id: 'file-api-spec', name: 'openapi.yaml', contentType: 'application/yaml', size: 8192 },
];

const CONTENT: [
  spaceId: string,
  pages: PageRec[],
  files: {
    id: string;
    name: string;
    contentType: string;
    size: number;
    dimensions?: { width: number; height: number };
  }[],
][] = [
  [
    'sp-getting-started',
    [
      page(
        'pg-gs-welcome',
        'Welcome',
        '# Welcome\n\nAcme Docs helps you publish documentation.\n\nStart with [Install](/pages/pg-gs-install).',
        [
          page(
            'pg-gs-install',
            'Install',
            '# Install\n\nInstall the CLI, then sign in.\n\n![The logo](/files/file-gs-logo)',
          ),
        ],
      ),
      {
        id: 'pg-gs-community',
        title: 'Community',
        slug: 'community',
        kind: 'link',
        href: 'https://community.acme.test',
        pages: [],
        createdAt: at(0),
        updatedAt: at(0),
      },
    ],
    [
      {
        id: 'file-gs-logo',
        name: 'logo.svg',
        contentType: 'image/svg+xml',
        size: 2048,
        dimensions: { width: 512, height: 512 },
      },
    ],
  ],
  ['sp-api', API_PAGES, API_FILES],
  [
    'sp-runbooks',
    [
      page(
        'pg-rb-oncall',
        'On-call',
        '# On-call\n\nPage the platform team for incidents.\n\nEscalate in the [incident channel](https://chat.acme.test/incidents).',
      ),
    ],
    [],
  ],
];

export function seedContent(store: SandboxStore): void {
  for (const [spaceId, pages, files] of CONTENT) {
    spaceContent(store).put({
      id: spaceHost(spaceId),
      revision: `rev-${spaceId}`,
      parents: [],
      pages,
      files,
      createdAt: at(1),
    });
  }
  // A change request on sp-api: its content adds the missing "Limits" page (so the broken link is fixed there).
  changeRequests(store).put({
    id: 'cr-api-1',
    spaceId: 'sp-api',
    number: 1,
    subject: 'Document rate limits',
    status: 'open',
    createdBy: 'u-carol',
    createdAt: at(2),
  });
  const limits = page(
    'pg-api-limits',
    'Limits',
    '# Limits\n\n100 requests per minute per token; see [authentication](/pages/pg-api-auth).',
  );
  spaceContent(store).put({
    id: changeRequestHost('cr-api-1'),
    revision: 'rev-cr-api-1',
    parents: ['rev-sp-api'],
    pages: [...structuredClone(API_PAGES), limits],
    files: structuredClone(API_FILES),
    createdAt: at(2),
  });

  comments(store).put({
    id: 'cm-api-1',
    host: spaceHost('sp-api'),
    spaceId: 'sp-api',
    postedBy: 'u-bob',
    postedAt: at(3),
    page: 'pg-api-auth',
    revision: 'rev-sp-api',
    body: { markdown: 'Which header carries the token?' },
    reactions: [{ emoji: '👍', users: [{ userId: 'u-erin', reactedAt: at(3) }] }],
  });
  comments(store).put({
    id: 'cm-api-1-r1',
    host: spaceHost('sp-api'),
    spaceId: 'sp-api',
    parent: 'cm-api-1',
    postedBy: 'u-ada',
    postedAt: at(4),
    revision: 'rev-sp-api',
    body: { markdown: '`Authorization: Bearer <token>`' },
    reactions: [],
  });
  comments(store).put({
    id: 'cm-api-2',
    host: spaceHost('sp-api'),
    spaceId: 'sp-api',
    postedBy: 'u-erin',
    postedAt: at(5),
    revision: 'rev-sp-api',
    body: { markdown: 'The diagram is out of date.' },
    resolvedAt: at(6),
    resolvedBy: 'u-bob',
    reactions: [],
  });
  comments(store).put({
    id: 'cm-cr-1',
    host: changeRequestHost('cr-api-1'),
    spaceId: 'sp-api',
    postedBy: 'u-carol',
    postedAt: at(7),
    page: 'pg-api-limits',
    revision: 'rev-cr-api-1',
    body: { markdown: 'Is 100 per minute right?' },
    reactions: [],
  });
  comments(store).put({
    id: 'cm-cr-1-r1',
    host: changeRequestHost('cr-api-1'),
    spaceId: 'sp-api',
    parent: 'cm-cr-1',
    postedBy: 'u-bob',
    postedAt: at(8),
    revision: 'rev-cr-api-1',
    body: { markdown: 'Yes, per token.' },
    reactions: [],
  });

  linkInvites(store).put({ id: 'inv-writers', orgId: ORG, role: 'edit', createdAt: at(8) });

  integrations(store).put({
    id: 'acme-analytics',
    orgId: ORG,
    version: 3,
    runtime: 'v2',
    title: 'Acme Analytics',
    description: 'Page views and feedback of your sites.',
    summary: 'Counts page views and reads feedback.',
    previewImages: [],
    hasIcon: true,
    target: 'site',
    visibility: 'public',
    verified: true,
    scopes: ['site:views:read', 'page:feedback:read'],
    categories: ['analytics'],
    blocks: [],
    contentSources: [],
    externalLinks: [{ url: 'https://analytics.acme.test', label: 'Website' }],
    script: 'export default {};',
    secrets: {},
  });
  integrations(store).put({
    id: 'acme-embeds',
    orgId: ORG,
    version: 1,
    runtime: 'v1',
    title: 'Acme Embeds',
    description: 'Embed dashboards in pages.',
    previewImages: [],
    hasIcon: false,
    target: 'space',
    visibility: 'private',
    verified: false,
    scopes: ['space:content:read'],
    categories: ['content'],
    contentSources: [],
    externalLinks: [],
    blocks: [{ id: 'dashboard', title: 'Dashboard', urlUnfurl: ['https://dash.acme.test'] }],
    script: 'export default {};',
    secrets: {},
  });
  installations(store).put({
    id: 'inst-analytics',
    integration: 'acme-analytics',
    orgId: ORG,
    status: 'active',
    externalIds: ['acme-prod'],
    configuration: {},
    createdAt: at(9),
    updatedAt: at(9),
  });
}
