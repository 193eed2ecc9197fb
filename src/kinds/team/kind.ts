/**
 * Team: identity by title or pinned id; `members`, when written, is the team's complete membership.
 * The diff lives in diff.ts; this file holds the manifest side, fetching and export.
 */
import type { DesiredEntry, FetchContext, KindDefinition, LiveObject, Report } from '../../model/kind.js';
import type { ManifestDocument } from '../../model/document.js';
import { exportTitled, seg, type CrossValidate } from '../common.js';
import { titledObject } from '../titled.js';
import { titledEntry, matchByIdOrTitle } from '../match.js';
import { teamSchema, type TeamManifestSpec } from '../generated/team.js';
import { memberObject, membersPath } from '../members/model.js';
import { teamWithoutDeletes } from './additive.js';
import { TEAM_MEMBER_KIND, membershipKey, readPrunedTeams } from '../team-cascades.js';
import { diffTeams } from './diff.js';
import { snapshotTeam, teamUndo } from './snapshot.js';
import {
  TEAM_DEPTH,
  TEAM_KIND,
  teamsPath,
  teamMember,
  type LiveTeamMember,
  type TeamAux,
  type TeamFields,
  type TeamMemberSpec,
  type TeamObject,
  type TeamSpec,
  type TeamState,
} from './model.js';
import { teamInformer } from './informer.js';

/** The members a Team document lists, each once: an e-mail listed again is reported there and left out. */
function teamMembers(
  doc: ManifestDocument<TeamManifestSpec>,
  members: NonNullable<TeamManifestSpec['members']>,
  report: Report,
): TeamMemberSpec[] {
  const seen = new Map<string, number>();
  const out: TeamMemberSpec[] = [];
  members.forEach((m, i) => {
    const email = m.email.toLowerCase();
    const first = seen.get(email);
    if (first !== undefined) {
      report(
        doc.pos(['spec', 'members', i, 'email']),
        `${email} is listed twice in team "${doc.spec.title}" (first at members[${first}])`,
      );
      return;
    }
    seen.set(email, i);
    out.push({ email, role: m.role ?? 'member', at: ['spec', 'members', i, 'email'] });
  });
  return out;
}

function toDesired(doc: ManifestDocument<TeamManifestSpec>, report: Report): DesiredEntry<TeamSpec>[] {
  const { members, ...written } = doc.spec;
  const spec: TeamSpec = members === undefined ? written : { ...written, members: teamMembers(doc, members, report) };
  return [titledEntry(TEAM_KIND, doc, spec)];
}

/**
 * When an organization has Members documents, every team member must be listed there ("team members must
 * be organization members"). Without any, the members can only be checked live: one warning per team that
 * lists some (plan blocks the team when one is not a member). Duplicate titles and pinned ids are checked
 * generically by the loader.
 */
const crossValidate: CrossValidate<TeamSpec> = (entries, _all, report, index, warn) => {
  for (const e of entries) {
    const members = index.keys('Members', e.org);
    if (!members) {
      const listed = e.spec.members ?? [];
      if (listed.length > 0) {
        warn?.(
          e.doc.pos(['spec', 'members']),
          `team "${e.key}" lists members, and organization ${e.org} has no Members documents: each must be an organization member live, else plan blocks this team`,
        );
      }
      continue;
    }
    for (const m of e.spec.members ?? []) {
      if (members.has(m.email)) continue;
      report(
        e.doc.pos(m.at),
        `${m.email} is not listed in the Members documents of organization ${e.org}; team members must be organization members`,
      );
    }
  }
};

const teamObject = (org: string, t: unknown): TeamObject | undefined =>
  titledObject<TeamFields>(TEAM_KIND, org, t, (_item, title) => ({ title }));

async function fetch(ctx: FetchContext, org: string, desired: DesiredEntry<TeamSpec>[]): Promise<TeamState> {
  // The org member list (one page per 1,000 members, read page after page) runs beside the team member
  // lists: those need only the team list, and waiting for both first put every page on the critical path.
  const orgMembersP = ctx.list(membersPath(org));
  orgMembersP.catch(() => {}); // awaited below; this only keeps an early failure from being "unhandled"
  const teams = await ctx.list(teamsPath(org));
  const items = new Map<TeamObject, unknown>();
  for (const t of teams) {
    const o = teamObject(org, t);
    if (o) items.set(o, t);
  }
  const objects = [...items.keys()];
  // Member lists only for teams whose membership a manifest manages (throws ConflictError on ambiguity), and
  // under prune for the teams that would be deleted (what their delete takes with it).
  const { matched, unmatched } = matchByIdOrTitle(TEAM_KIND, desired, objects);
  const prunedP = ctx.prune(TEAM_KIND, org)
    ? readPrunedTeams(
        ctx,
        (id) => `${teamsPath(org)}/${seg(id)}/members`,
        (x) => teamMember(x)?.email,
        unmatched.map((o) => ({ object: o, item: items.get(o) })),
      )
    : Promise.resolve(undefined);
  prunedP.catch(() => {}); // awaited below
  const managed = [...matched].filter(([e]) => e.spec.members !== undefined);
  const [orgMembers] = await Promise.all([
    orgMembersP,
    ...managed.map(async ([, o]) => {
      const items = await ctx.list(`${teamsPath(org)}/${seg(o.id)}/members`);
      o.fields.members = items.map(teamMember).filter((m): m is LiveTeamMember => m !== undefined);
    }),
  ]);
  const byEmail: Record<string, string> = {};
  for (const m of orgMembers ?? []) {
    const o = memberObject(org, m);
    if (o) byEmail[o.key] = o.id;
  }
  const aux: TeamAux = { orgMembers: byEmail };
  const pruned = await prunedP;
  if (pruned) aux.pruned = pruned;
  return { objects, aux, related: memberships(org, objects, pruned) };
}

/**
 * The memberships of the teams whose member lists were read (managed ones, pruned ones), as live objects of kind
 * TeamMember whose parent is the team: the safety gate measures a plan's removals against each team's list.
 */
function memberships(org: string, teams: readonly TeamObject[], pruned: TeamAux['pruned']): LiveObject[] {
  const out: LiveObject[] = [];
  for (const t of teams) {
    const emails = t.fields.members?.map((m) => m.email) ?? pruned?.[t.id]?.emails ?? [];
    const parent = { kind: TEAM_KIND, id: t.id, key: t.key };
    for (const email of emails)
      out.push({ kind: TEAM_MEMBER_KIND, org, key: membershipKey(t.key, email), id: '', fields: {}, parent });
  }
  return out;
}

function exportDocs(org: string, live: TeamState): object[] {
  return exportTitled(TEAM_KIND, org, live, (o) => {
    const f = o.fields;
    if (!f.members) return {};
    const members = [...f.members]
      .sort((a, b) => a.email.localeCompare(b.email))
      // A role other than the default is written as answered (export marks one docops does not know).
      .map((m) => (m.role === 'member' ? { email: m.email } : { email: m.email, role: m.role }));
    return { members };
  });
}

export const teamKind: KindDefinition<TeamSpec, TeamObject, TeamAux, TeamManifestSpec> = {
  kind: TEAM_KIND,
  identity: 'title, or the pinned spec.id (which allows renaming)',
  schema: teamSchema,
  depth: TEAM_DEPTH,
  lists: ['members'],
  // Scoped reconciles: listed members are resolved through the Members kind (ids, invite refs).
  scope: { reads: (entries) => (entries.some((e) => (e.spec.members?.length ?? 0) > 0) ? ['Members'] : []) },
  toDesired,
  crossValidate,
  fetch,
  diff: diffTeams,
  withoutDeletes: teamWithoutDeletes,
  export: exportDocs,
  snapshot: snapshotTeam,
  undo: teamUndo,
  informer: teamInformer,
};
