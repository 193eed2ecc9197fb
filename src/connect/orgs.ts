/**
 * The organizations a token sees: `GET /orgs` (listOrganizationsForAuthenticatedUser), every page. Each with
 * what the API says the token's user may do there: the Organization's `permissions.admin` (management-api.md,
 * Authentication 5: a resource's `permissions` tell the caller which actions are allowed on it).
 */
import type { ApiClient } from '../model/api-client.js';
import { ApiError } from '../model/errors.js';
import { isRecord } from '../model/json.js';

export interface VisibleOrg {
  id: string;
  title: string;
  /** `permissions.admin`; undefined when the answer carries no such flag. */
  admin: boolean | undefined;
}

export async function listOrgs(client: ApiClient): Promise<VisibleOrg[]> {
  const out: VisibleOrg[] = [];
  for await (const item of client.paginate<unknown>('/orgs')) {
    if (!isRecord(item) || typeof item.id !== 'string' || item.id === '')
      throw new ApiError('GET', '/orgs', undefined, 'an organization in the list has no id');
    const permissions = isRecord(item.permissions) ? item.permissions : {};
    out.push({
      id: item.id,
      title: typeof item.title === 'string' ? item.title : '',
      admin: typeof permissions.admin === 'boolean' ? permissions.admin : undefined,
    });
  }
  return out;
}
