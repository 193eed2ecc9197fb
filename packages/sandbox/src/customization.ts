/**
 * Site customization (how a published site looks): the official spec's SiteCustomizationSettingsInput as a
 * body validator, and the settings of a site nobody customized yet. management-api.md does not describe the
 * resource; every field, limit and enumeration here is the spec's (docs/dev/api-differences.md §5). As everywhere in
 * the sandbox, unknown fields are refused even where the spec's schema would let them through.
 */
import { newSiteCustomization } from '@docops/api-shared';
import { boolean, byType, isPlainObject, nullable, object, oneOf, string, type Validator } from './validate.js';
import { integer, keyedBy, list, tagged } from './validate-extra.js';
import { badRequest } from './http.js';
import { CODE_THEMES, FONTS, LOCALES, MONO_FONTS, SOCIAL } from './customization-values.js';
import { TRANSLATION_LANGUAGES } from './records.js';

const url = string({ max: 2048, format: 'uri' });
const color = string({ pattern: /^#(?:[0-9a-fA-F]{3}){1,2}$/ });
const themedColor = object({ light: color, dark: color }, ['light', 'dark']);
const themedUrl = object({ light: url, dark: url }, ['light', 'dark']);
const codeTheme = oneOf(CODE_THEMES);
const themedCodeTheme = object({ light: codeTheme, dark: codeTheme }, ['light', 'dark']);
const localized = (max?: number): Validator<Record<string, string>> =>
  keyedBy(TRANSLATION_LANGUAGES, string(max === undefined ? {} : { max }));

/** ContentRef: one object shape per `kind`. */
const s = string();
const contentRef = tagged<Record<string, unknown>>('kind', {
  file: object({ kind: s, file: s, space: s }, ['kind', 'file']),
  url: object({ kind: s, url: s }, ['kind', 'url']),
  page: object({ kind: s, page: s, space: s }, ['kind', 'page']),
  anchor: object({ kind: s, anchor: s, space: s, page: s }, ['kind', 'anchor']),
  user: object({ kind: s, user: s }, ['kind', 'user']),
  collection: object({ kind: s, collection: s }, ['kind', 'collection']),
  space: object({ kind: s, space: s }, ['kind', 'space']),
  'reusable-content': object({ kind: s, reusableContent: s, space: s }, ['kind', 'reusableContent']),
  tag: object({ kind: s, tag: s, space: s }, ['kind', 'tag']),
  openapi: object({ kind: s, spec: s }, ['kind', 'spec']),
});

const fontFace = object(
  {
    weight: integer({ min: 1, max: 1000 }),
    sources: list(object({ url, format: oneOf(['woff2', 'woff']) }, ['url']), { min: 1 }),
  },
  ['weight', 'sources'],
);
const fontDefinition = object(
  { id: s, custom: boolean(), fontFamily: string({ min: 1, max: 50 }), fontFaces: list(fontFace, { min: 1 }) },
  ['id', 'custom', 'fontFamily', 'fontFaces'],
);
type FontDefinition = ReturnType<typeof fontDefinition>;
/** A font: a built-in font's name or a font definition (the spec's oneOf). */
const fontOf = (names: readonly string[]): Validator<string | FontDefinition> =>
  byType<string | FontDefinition>({ string: oneOf(names), object: fontDefinition });
const font = fontOf(FONTS);
const monospaceFont = fontOf(MONO_FONTS);

const styling = object(
  {
    theme: oneOf(['clean', 'muted', 'bold', 'gradient']),
    primaryColor: themedColor,
    tint: object({ color: themedColor }, ['color']),
    infoColor: themedColor,
    successColor: themedColor,
    warningColor: themedColor,
    dangerColor: themedColor,
    corners: oneOf(['straight', 'rounded', 'circular']),
    depth: oneOf(['subtle', 'flat']),
    links: oneOf(['default', 'accent']),
    font,
    headingFont: nullable(font),
    monospaceFont,
    background: oneOf(['plain', 'match']),
    icons: oneOf(['regular', 'solid', 'duotone', 'light', 'thin']),
    codeTheme: object({ default: themedCodeTheme, openapi: themedCodeTheme }, ['default', 'openapi']),
    sidebar: object({ background: oneOf(['default', 'filled']), list: oneOf(['default', 'pill', 'line']) }, [
      'background',
      'list',
    ]),
    search: oneOf(['prominent', 'subtle']),
  },
  [
    'theme',
    'primaryColor',
    'infoColor',
    'successColor',
    'warningColor',
    'dangerColor',
    'corners',
    'depth',
    'links',
    'font',
    'monospaceFont',
    'codeTheme',
    'background',
    'icons',
    'sidebar',
    'search',
  ],
);

/** CustomizationFavicon: `{icon: themed URL}`, `{emoji}` or `{}` (one of them exactly). */
const faviconIcon = object({ icon: themedUrl }, ['icon']);
const faviconEmoji = object({ emoji: string({ max: 50 }) }, ['emoji']);
const faviconNone = object({});
const favicon: Validator<Record<string, unknown>> = (v, path) => {
  if (!isPlainObject(v)) throw badRequest(`${path}: must be an object: {icon}, {emoji} or {}`);
  if ('icon' in v) return faviconIcon(v, path);
  return 'emoji' in v ? faviconEmoji(v, path) : faviconNone(v, path);
};

const contentLink = object({ title: string({ max: 64 }), localizedTitle: localized(64), to: contentRef }, [
  'title',
  'to',
]);
const headerItem = object(
  {
    title: s,
    localizedTitle: localized(),
    style: oneOf(['link', 'button-primary', 'button-secondary']),
    to: nullable(contentRef),
    links: list(contentLink),
    condition: string({ max: 1024 }),
  },
  ['title', 'links', 'to'],
);
const footerGroup = object({ title: s, localizedTitle: localized(), links: list(contentLink) }, ['title', 'links']);
const enabled = object({ enabled: boolean() }, ['enabled']);

/** SiteCustomizationSettingsInput (= SiteCustomizationSettingsBase): the whole object, as PUT replaces it. */
export const customizationInput = object(
  {
    title: string({ min: 2, max: 128 }),
    localizedTitle: localized(128),
    styling,
    internationalization: object({ locale: oneOf(LOCALES) }, ['locale']),
    favicon,
    header: object(
      {
        preset: oneOf(['default', 'bold', 'contrast', 'custom', 'none']),
        logo: themedUrl,
        primaryLink: contentRef,
        backgroundColor: themedColor,
        linkColor: themedColor,
        links: list(headerItem),
      },
      ['preset', 'links'],
    ),
    footer: object({ logo: themedUrl, groups: list(footerGroup), copyright: string({ max: 512 }) }, ['groups']),
    announcement: object(
      {
        enabled: boolean(),
        message: string({ min: 2, max: 128 }),
        localizedMessage: localized(128),
        link: contentLink,
        style: oneOf(['info', 'warning', 'danger', 'success']),
      },
      ['enabled', 'message', 'style'],
    ),
    themes: object({ default: oneOf(['light', 'dark', 'system']), toggeable: boolean() }, ['default', 'toggeable']),
    feedback: enabled,
    ai: object(
      {
        mode: oneOf(['none', 'search', 'assistant']),
        greeting: string({ max: 256 }),
        localizedGreeting: localized(128),
        suggestions: list(string({ min: 3, max: 64 }), { max: 5 }),
        instructions: string({ max: 10000 }),
      },
      ['mode'],
    ),
    advancedCustomization: enabled,
    pageActions: object({ items: list(oneOf(['assistant', 'external-ai', 'markdown', 'mcp', 'git', 'pdf'])) }, [
      'items',
    ]),
    externalLinks: object({ target: oneOf(['self', 'blank']) }, ['target']),
    pagination: enabled,
    trademark: enabled,
    privacyPolicy: object({ url }),
    socialPreview: object({ url }),
    socialAccounts: list(
      object(
        {
          platform: oneOf(SOCIAL),
          handle: string({ min: 1, max: 128 }),
          display: object({ footer: boolean(), header: boolean() }, ['footer', 'header']),
        },
        ['platform', 'handle', 'display'],
      ),
      { max: 10 },
    ),
    insights: object({ trackingCookie: boolean() }, ['trackingCookie']),
  },
  [
    'styling',
    'internationalization',
    'favicon',
    'header',
    'footer',
    'themes',
    'feedback',
    'ai',
    'advancedCustomization',
    'trademark',
    'externalLinks',
    'pagination',
    'pageActions',
    'privacyPolicy',
    'socialPreview',
    'socialAccounts',
    'insights',
  ],
);

/** The customization of a site nobody customized: every required member, nothing optional. */
export const defaultCustomization = newSiteCustomization;
