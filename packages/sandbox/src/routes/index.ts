/** Every resource module of the sandbox API. A new resource (sites, sections …) is one more entry here. */
import { Router, type RouteDef } from '../router.js';
import { loadSpecBodies, withSpecCheck, type SpecBodies } from '../spec-bodies.js';
import { routeKey } from '../spec-operations.js';
import { auditEventRoutes } from './audit-events.js';
import { collectionRoutes } from './collections.js';
import type { RouteModule } from './common.js';
import { inviteRoutes } from './invites.js';
import { memberRoutes } from './members.js';
import { openApiRoutes } from './openapi.js';
import { orgRoutes } from './orgs.js';
import { permissionRoutes } from './permissions.js';
import { samlRoutes } from './saml.js';
import { siteAdaptiveRoutes } from './site-adaptive.js';
import { siteCustomizationRoutes } from './site-customization.js';
import { siteExternalLinkRoutes } from './site-external-links.js';
import { sitePublishingRoutes } from './site-publishing.js';
import { siteRedirectRoutes } from './site-redirects.js';
import { siteSectionGroupRoutes } from './site-section-groups.js';
import { siteSectionRoutes } from './site-sections.js';
import { siteShareLinkRoutes } from './site-share-links.js';
import { siteSortRoutes } from './site-sort.js';
import { siteSpaceRoutes } from './site-spaces.js';
import { siteRoutes } from './sites.js';
import { spaceLinkRoutes } from './space-links.js';
import { spaceRoutes } from './spaces.js';
import { teamMemberRoutes } from './team-members.js';
import { teamRoutes } from './teams.js';
import { translationRoutes } from './translations.js';

export const ROUTE_MODULES: RouteModule[] = [
  orgRoutes,
  memberRoutes,
  inviteRoutes,
  teamRoutes,
  teamMemberRoutes,
  translationRoutes,
  collectionRoutes,
  spaceRoutes,
  spaceLinkRoutes,
  siteRoutes,
  siteAdaptiveRoutes,
  siteSectionRoutes,
  siteSectionGroupRoutes,
  siteSpaceRoutes,
  siteShareLinkRoutes,
  siteSortRoutes,
  siteExternalLinkRoutes,
  permissionRoutes,
  siteCustomizationRoutes,
  siteRedirectRoutes,
  sitePublishingRoutes,
  samlRoutes,
  openApiRoutes,
  auditEventRoutes,
];

/** A router whose routes check their bodies against the official spec too (spec-bodies.ts). */
class SpecCheckedRouter extends Router {
  constructor(private readonly specBodies: SpecBodies) {
    super();
  }

  override add<B = undefined>(def: RouteDef<B>): this {
    const { body } = def;
    return super.add(body ? { ...def, body: withSpecCheck(routeKey(def.method, def.pattern), body, this.specBodies) } : def);
  }
}

export function buildApiRouter(modules: RouteModule[] = ROUTE_MODULES, specBodies: SpecBodies = loadSpecBodies()): Router {
  const router = new SpecCheckedRouter(specBodies);
  for (const register of modules) register(router);
  return router;
}
