/** Site customization bodies shared by the customization and contract tests. */
import type { Json } from './helpers.js';

/** A PUT body that sets most optional members: what a manifest-driven update could send. */
export function richCustomization(defaults: Json): Json {
  const body = structuredClone(defaults);
  delete body.updatedAt;
  body.title = 'Acme Help';
  body.localizedTitle = { fr: 'Aide Acme', de: 'Acme Hilfe' };
  body.styling.primaryColor = { light: '#ff6600', dark: '#F60' };
  body.styling.tint = { color: { light: '#eeeeee', dark: '#111' } };
  body.styling.headingFont = null;
  body.styling.font = {
    id: 'brand',
    custom: true,
    fontFamily: 'Brand Sans',
    fontFaces: [{ weight: 400, sources: [{ url: 'https://cdn.acme.test/brand.woff2', format: 'woff2' }] }],
  };
  body.styling.codeTheme.default = { light: 'github-light', dark: 'github-dark' };
  body.favicon = { emoji: '📘' };
  body.header.logo = { light: 'https://cdn.acme.test/logo.png', dark: 'https://cdn.acme.test/logo-dark.png' };
  body.header.links = [
    { title: 'Status', to: { kind: 'url', url: 'https://status.acme.test' }, style: 'button-primary', links: [] },
    {
      title: 'Guides',
      to: null,
      links: [{ title: 'Start', to: { kind: 'space', space: 'sp-getting-started' } }],
      condition: 'visitor.claims.isBeta',
    },
  ];
  body.footer = {
    groups: [
      {
        title: 'Company',
        localizedTitle: { fr: 'Société' },
        links: [{ title: 'Blog', to: { kind: 'url', url: 'https://acme.test/blog' } }],
      },
    ],
    copyright: '© Acme',
  };
  body.announcement = {
    enabled: true,
    message: 'New API version',
    style: 'info',
    link: { title: 'Read', to: { kind: 'page', page: 'p1', space: 'sp-api' } },
  };
  body.themes = { default: 'dark', toggeable: false };
  body.ai = { mode: 'assistant', greeting: 'Hi!', suggestions: ['How do I start?', 'Where is the API?'] };
  body.pageActions = { items: ['markdown', 'pdf'] };
  body.privacyPolicy = { url: 'https://acme.test/privacy' };
  body.socialAccounts = [{ platform: 'github', handle: 'acme', display: { footer: true, header: false } }];
  body.insights = { trackingCookie: false };
  return body;
}

/**
 * Changes to a valid body that the official spec's SiteCustomizationSettingsInput refuses, each with the
 * path the sandbox's 400 names. Unknown fields are not among them: the spec lets those through (see
 * UNKNOWN_FIELDS).
 */
export const SPEC_REFUSES: [name: string, change: (b: Json) => void, message: string][] = [
  ['styling missing', (b) => delete b.styling, 'body.styling: is required'],
  ['header.links missing', (b) => delete b.header.links, 'body.header.links: is required'],
  ['title too short', (b) => (b.title = 'x'), 'body.title'],
  ['color without #', (b) => (b.styling.primaryColor.light = 'ff6600'), 'body.styling.primaryColor.light'],
  ['unknown theme', (b) => (b.styling.theme = 'neon'), 'body.styling.theme'],
  ['unknown font name', (b) => (b.styling.font = 'Comic Sans'), 'body.styling.font'],
  [
    'font weight 0',
    (b) =>
      (b.styling.font = {
        id: 'x',
        custom: true,
        fontFamily: 'X',
        fontFaces: [{ weight: 0, sources: [{ url: 'https://a.test/x.woff' }] }],
      }),
    'body.styling.font.fontFaces[0].weight',
  ],
  [
    'font without faces',
    (b) => (b.styling.font = { id: 'x', custom: true, fontFamily: 'X', fontFaces: [] }),
    'body.styling.font.fontFaces',
  ],
  ['monospace font as a text font', (b) => (b.styling.monospaceFont = 'Inter'), 'body.styling.monospaceFont'],
  ['code theme', (b) => (b.styling.codeTheme.openapi.dark = 'vscode'), 'body.styling.codeTheme.openapi.dark'],
  [
    'favicon with icon and emoji',
    (b) => (b.favicon = { emoji: '📘', icon: { light: 'https://a.test/i.png', dark: 'https://a.test/i.png' } }),
    'body.favicon',
  ],
  [
    'favicon URL not a URL',
    (b) => (b.favicon = { icon: { light: 'not a url', dark: 'https://a.test/i.png' } }),
    'body.favicon.icon.light',
  ],
  [
    'content ref of unknown kind',
    (b) => (b.header.links = [{ title: 'X', to: { kind: 'site', site: 's' }, links: [] }]),
    'body.header.links[0].to.kind',
  ],
  [
    'content ref without its id',
    (b) => (b.header.links = [{ title: 'X', to: { kind: 'space' }, links: [] }]),
    'body.header.links[0].to.space: is required',
  ],
  [
    'header item without to',
    (b) => (b.header.links = [{ title: 'X', links: [] }]),
    'body.header.links[0].to: is required',
  ],
  [
    'localized title in an unknown language',
    (b) => (b.localizedTitle = { klingon: 'x' }),
    'body.localizedTitle.klingon',
  ],
  [
    'announcement message too short',
    (b) => (b.announcement = { enabled: true, message: 'x', style: 'info' }),
    'body.announcement.message',
  ],
  ['six AI suggestions', (b) => (b.ai.suggestions = ['aaa', 'bbb', 'ccc', 'ddd', 'eee', 'fff']), 'body.ai.suggestions'],
  ['AI suggestion too short', (b) => (b.ai.suggestions = ['ab']), 'body.ai.suggestions[0]'],
  [
    'eleven social accounts',
    (b) =>
      (b.socialAccounts = Array.from({ length: 11 }, () => ({
        platform: 'github',
        handle: 'a',
        display: { footer: true, header: true },
      }))),
    'body.socialAccounts',
  ],
  [
    'social platform',
    (b) => (b.socialAccounts = [{ platform: 'myspace', handle: 'a', display: { footer: true, header: true } }]),
    'body.socialAccounts[0].platform',
  ],
  ['privacy policy URL', (b) => (b.privacyPolicy = { url: 'acme.test/privacy' }), 'body.privacyPolicy.url'],
  ['themes toggeable not boolean', (b) => (b.themes.toggeable = 'yes'), 'body.themes.toggeable'],
  ['page action', (b) => (b.pageActions.items = ['print']), 'body.pageActions.items[0]'],
  ['locale', (b) => (b.internationalization.locale = 'it'), 'body.internationalization.locale'],
  ['copyright too long', (b) => (b.footer.copyright = 'x'.repeat(513)), 'body.footer.copyright'],
];

/** Unknown fields: the spec's schemas allow them; the sandbox refuses them like everywhere else. */
export const UNKNOWN_FIELDS: [name: string, change: (b: Json) => void, message: string][] = [
  [
    'updatedAt (read-only, from GET)',
    (b) => (b.updatedAt = '2025-01-01T00:00:00.000Z'),
    'body.updatedAt: unknown field',
  ],
  ['top-level field', (b) => (b.colour = 'red'), 'body.colour: unknown field'],
  ['nested field', (b) => (b.styling.shadow = true), 'body.styling.shadow: unknown field'],
];
