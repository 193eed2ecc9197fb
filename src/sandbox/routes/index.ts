/** Every resource module of the sandbox API. A new resource (sites, sections …) is one more entry here. */
import { Router } from '../router.js';
import { collectionRoutes } from './collections.js';
import type { RouteModule } from './common.js';
import { inviteRoutes } from './invites.js';
import { memberRoutes } from './members.js';
import { orgRoutes } from './orgs.js';
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
];

export function buildApiRouter(modules: RouteModule[] = ROUTE_MODULES): Router {
  const router = new Router();
  for (const register of modules) register(router);
  return router;
}
