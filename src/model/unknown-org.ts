/**
 * An organization the API does not know, or does not show the token (a mistyped `metadata.organization`, an
 * `--org` naming an organization the token's user is not a member of): the API answers 404 for the organization
 * itself. A 404 of one of its lists only makes that likely; the organization's own GET settles it.
 */
import { ApiError } from './errors.js';
import { pathSegment } from './refs.js';

/** The organization's own path below /v1. */
export const organizationPath = (org: string): string => `/orgs/${pathSegment(org)}`;

/** 404 (or 410): what the API answers for something that is not there. */
export const isNotFound = (err: unknown): boolean =>
  err instanceof ApiError && (err.status === 404 || err.status === 410);

/**
 * Whether `err` is a 404 of the organization's own GET or of one of its lists (`/orgs/{org}/teams`): the
 * organization may be unknown. A 404 deeper down (`/orgs/{org}/sites/{site}/…`) is about that object.
 */
export function mayBeUnknownOrg(err: unknown, org: string): boolean {
  if (!(err instanceof ApiError) || err.status !== 404) return false;
  const path = err.path.split('?')[0]!;
  const base = organizationPath(org);
  if (path === base) return true;
  return path.startsWith(`${base}/`) && !path.slice(base.length + 1).includes('/');
}

/** What to say of it, wherever it was named. */
export function unknownOrgMessage(org: string): string {
  return `organization "${org}" was not found: the API answers 404 for it (a mistyped id, or an organization the token's user is not a member of); \`docops orgs\` lists the organization ids the token sees`;
}
