/**
 * The kind registry: every resource kind docops knows, in parent → child order. The core iterates this
 * list and never tests a kind's name.
 */
import type { KindDefinition } from '../model/kind.js';
import { collectionKind } from './collection/kind.js';
import { membersKind } from './members/kind.js';
import { openApiSpecKind } from './openapi/kind.js';
import { organizationKind } from './organization.js';
import { samlKind } from './saml/kind.js';
import { siteKind } from './site/kind.js';
import { spaceKind } from './space/kind.js';
import { teamKind } from './team/kind.js';
import { translationKind } from './translation.js';

export const KINDS: readonly KindDefinition[] = [
  organizationKind,
  membersKind,
  teamKind,
  translationKind,
  openApiSpecKind,
  samlKind,
  collectionKind,
  spaceKind,
  siteKind,
];

export { membersKind, organizationKind, teamKind, translationKind };
export { collectionKind, siteKind, spaceKind };
export { openApiSpecKind, samlKind };
