/** Every resource module of the sandbox API. A new resource (sites, sections …) is one more entry here. */
import { Router } from '../router.js';
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
import { siteSectionGroupRoutes } from './site-section-groups.js';
import { siteSectionRoutes } from './site-sections.js';
import { siteShareLinkRoutes } from './site-share-links.js';
import { siteSortRoutes } from './site-sort.js';
import { siteSpaceRoutes } from './site-spaces.js';
import { siteRoutes } from './sites.js';
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
  siteRoutes,
  siteAdaptiveRoutes,
  siteSectionRoutes,
  siteSectionGroupRoutes,
  siteSpaceRoutes,
  siteShareLinkRoutes,
  siteSortRoutes,
  permissionRoutes,
  siteCustomizationRoutes,
  samlRoutes,
  openApiRoutes,
  auditEventRoutes,
];

export function buildApiRouter(modules: RouteModule[] = ROUTE_MODULES): Router {
  const router = new Router();
  for (const register of modules) register(router);
  return router;
}
