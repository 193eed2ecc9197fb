/**
 * Members in the delete journal and in undo. Removing a member takes their team memberships along and ends
 * their membership itself: undo can only invite the address again. The snapshot reads the member (role, SSO,
 * the number of spaces they had direct permissions on) and their teams with the team role, so undo can say
 * exactly what does not come back.
 */
import type { FetchContext, KindUndo, Snapshot, UndoLoss, UndoRefs } from '../../model/kind.js';
import { isRecord, manifestDoc, seg } from '../common.js';
import { membersSpec } from './export.js';
import {
  MEMBERS_KIND as KIND,
  memberObject,
  membersPath,
  type MemberObject,
  type MembersAux,
  type MembersState,
  type MemberTeam,
} from './model.js';

function memberTeam(item: unknown): MemberTeam | undefined {
  if (!isRecord(item) || !isRecord(item['team'])) return undefined;
  const { id, title } = item['team'];
  if (typeof id !== 'string' || typeof title !== 'string') return undefined;
  const answered = isRecord(item['member']) ? item['member']['role'] : undefined;
  const role = typeof answered === 'string' ? answered : 'member';
  return { id, title, role };
}

export async function snapshotMember(ctx: FetchContext, object: MemberObject): Promise<Snapshot> {
  const path = `${membersPath(object.org)}/${seg(object.id)}`;
  const [member, teams] = await Promise.all([ctx.get<unknown>(path), ctx.list(`${path}/teams`)]);
  const fresh = memberObject(object.org, member) ?? object;
  const spaces = isRecord(member) && typeof member['spaces'] === 'number' ? member['spaces'] : 0;
  const aux: MembersAux = {
    teams: { [object.id]: teams.map(memberTeam).filter((t) => t !== undefined) },
    spaces: { [object.id]: spaces },
  };
  const part: MembersState = { objects: [fresh], aux };
  return { [KIND]: part };
}

function losses(org: string, state: MembersState, refs: UndoRefs): UndoLoss[] {
  const aux = state.aux ?? {};
  const out: UndoLoss[] = [];
  for (const o of state.objects) {
    if (refs.fate(KIND, org, o.id)?.state === 'live') continue;
    const at = { key: o.key, id: o.id };
    out.push({
      ...at,
      message:
        'is invited again by e-mail (with the same role): they are a member again only once they accept the invitation, ' +
        'and their membership starts over (joined date, activity)',
    });
    const spaces = aux.spaces?.[o.id] ?? 0;
    if (spaces > 0)
      out.push({
        ...at,
        message: `their direct permissions on ${spaces} space(s) are not restored: grant them again once they have accepted (their e-mail in the access: list of those spaces' manifests, or in the app)`,
      });
    // Teams undo recreates list their members as the team's snapshot had them; teams that survived lost this member.
    for (const t of aux.teams?.[o.id] ?? []) {
      if (refs.fate('Team', org, t.id) !== undefined) continue;
      out.push({
        ...at,
        message: `is no longer in team "${t.title}" (was ${t.role}): add them back in that team's manifest once they have accepted`,
      });
    }
  }
  return out;
}

/** The export, inviting the members again (`invite: true` concerns only this document's members). */
function documents(org: string, state: MembersState): object[] {
  const spec = membersSpec(state);
  return spec ? [manifestDoc(KIND, org, { invite: true, ...spec })] : [];
}

export const membersUndo: KindUndo<MemberObject, MembersAux> = { losses, documents };
