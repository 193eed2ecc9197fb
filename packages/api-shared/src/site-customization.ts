/**
 * The customization of a site nobody customized, as the platform answers GET …/customization for it: every
 * required member, nothing optional. One source for the Site kind (export writes only what differs from it) and
 * the sandbox (what it stores for a new site).
 */
const same = (c: string): { light: string; dark: string } => ({ light: c, dark: c });

/** A fresh copy each call (callers may change it). */
export function newSiteCustomization(): Record<string, unknown> {
  return {
    styling: {
      theme: 'clean',
      primaryColor: same('#346DDB'),
      infoColor: same('#787878'),
      successColor: same('#00C950'),
      warningColor: same('#FE9A00'),
      dangerColor: same('#FB2C36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      codeTheme: {
        default: { light: 'default-light', dark: 'default-dark' },
        openapi: { light: 'default-light', dark: 'default-dark' },
      },
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'system', toggeable: true },
    feedback: { enabled: false },
    ai: { mode: 'search' },
    advancedCustomization: { enabled: true },
    pageActions: { items: [] },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    trademark: { enabled: true },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: true },
  };
}
