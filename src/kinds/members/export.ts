/** Members export: one document per organization listing every member (sorted by e-mail) with role and SSO. */
import { manifestDoc } from '../common.js';
import { MEMBERS_KIND, type MembersState } from './model.js';

/** The spec export writes for the members of `live`, sorted by e-mail; undefined when there are none. */
export function membersSpec(live: MembersState): { members: object[] } | undefined {
  if (live.objects.length === 0) return undefined;
  const members = [...live.objects]
    .sort((a, b) => a.key.localeCompare(b.key))
    .map(({ fields: f }) => (f.sso ? { email: f.email, role: f.role, sso: true } : { email: f.email, role: f.role }));
  return { members };
}

export function exportMembers(org: string, live: MembersState): object[] {
  const spec = membersSpec(live);
  return spec ? [manifestDoc(MEMBERS_KIND, org, spec)] : [];
}
