/** Every resource module of the sandbox API, as one table. A new resource (sites, sections …) is one more entry here. */
import { Router, type RouteDef } from '../router.js';
import { loadSpecBodies, withSpecCheck, type SpecBodies } from '../spec-bodies.js';
import { routeKey } from '../spec-operations.js';
import { auditEventRoutes } from './audit-events.js';
import { collectionRoutes } from './collections.js';
import { commentRoutes } from './comments.js';
import { contentLinkRoutes } from './content-links.js';
import { contentSearchRoutes } from './content-search.js';
import { contentRoutes } from './content.js';
import { integrationRoutes } from './integrations.js';
import { orgLookupRoutes } from './org-lookups.js';
import { spaceDuplicateRoutes } from './space-duplicate.js';
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
import { spaceRoutes } from './spaces.js';
import { teamMemberRoutes } from './team-members.js';
import { teamRoutes } from './teams.js';
import { tableOf, type RouteTable } from './table.js';
import { translationRoutes } from './translations.js';

/** Every operation the sandbox serves, by operation id (table.ts), in the order the router tries them. */
export const ROUTES: RouteTable = tableOf(
  orgRoutes,
  orgLookupRoutes,
  memberRoutes,
  inviteRoutes,
  teamRoutes,
  teamMemberRoutes,
  translationRoutes,
  collectionRoutes,
  spaceRoutes,
  spaceDuplicateRoutes,
  commentRoutes,
  contentRoutes,
  contentLinkRoutes,
  contentSearchRoutes,
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
  integrationRoutes,
);

/** A router whose routes check their bodies against the official spec too (spec-bodies.ts). */
class SpecCheckedRouter extends Router {
  constructor(private readonly specBodies: SpecBodies) {
    super();
  }

  override add<B = undefined>(def: RouteDef<B>): this {
    const { body } = def;
    return super.add(
      body ? { ...def, body: withSpecCheck(routeKey(def.method, def.pattern), body, this.specBodies) } : def,
    );
  }
}

export function buildApiRouter(routes: RouteTable = ROUTES, specBodies: SpecBodies = loadSpecBodies()): Router {
  const router = new SpecCheckedRouter(specBodies);
  for (const def of Object.values(routes)) router.add(def);
  return router;
}
