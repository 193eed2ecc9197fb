/**
 * Site customization: GET answers the whole SiteCustomizationSettings object (the defaults until someone
 * writes it), PUT replaces it with a whole SiteCustomizationSettingsInput. What PUT stores is exactly what GET
 * answers afterwards, plus `updatedAt` (which PUT does not take back: it is not part of the input schema).
 * The row goes with its site (sites.ts calls dropSiteCustomization).
 */
import { ok, type Reply } from '../http.js';
import { customizationInput, defaultCustomization } from '../customization.js';
import type { SiteRec } from '../site-records.js';
import type { SandboxStore, Table } from '../store.js';
import { SITE, requireSite } from './site-common.js';
import { route, type RouteTable } from './table.js';

/** id = the site id. */
interface CustomizationRec {
  id: string;
  settings: Record<string, unknown>;
  updatedAt: string;
}

const customizations = (s: SandboxStore): Table<CustomizationRec> => s.table('siteCustomizations');

export function dropSiteCustomization(store: SandboxStore, siteId: string): void {
  customizations(store).delete(siteId);
}

/** The site's SiteCustomizationSettings as GET answers them (also part of the published view). */
export function siteCustomizationOf(store: SandboxStore, site: SiteRec): Record<string, unknown> {
  const row = customizations(store).get(site.id);
  return { ...structuredClone(row?.settings ?? defaultCustomization()), updatedAt: row?.updatedAt ?? site.createdAt };
}

function present(store: SandboxStore, site: SiteRec): Reply {
  return ok(siteCustomizationOf(store, site));
}

const pattern = `${SITE}/customization`;

export const siteCustomizationRoutes: RouteTable = {
  // `unmasked` (deprecated query flag) changes nothing here: the sandbox masks nothing.
  getSiteCustomizationById: route({ method: 'GET', pattern, handler: (ctx) => present(ctx.store, requireSite(ctx)) }),
  updateSiteCustomizationById: route({
    method: 'PUT',
    pattern,
    body: customizationInput,
    handler: (ctx, settings) => {
      const site = requireSite(ctx);
      customizations(ctx.store).put({
        id: site.id,
        settings: structuredClone(settings),
        updatedAt: ctx.now().toISOString(),
      });
      return present(ctx.store, site);
    },
  }),
};
