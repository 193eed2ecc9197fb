/**
 * Team diff (pure). Per desired team: create (PUT with the existing org members' ids, then one bulk
 * membership PUT when owners or members invited in this plan are involved), rename by pinned id (PATCH),
 * and ALL membership changes of one team in ONE bulk PUT {add, remove, memberships}. Live teams no manifest
 * mentions are listed as unmanaged, or deleted under prune. A team's own steps are made in steps.ts.
 *
 * A member e-mail that is neither an organization member nor invited in this plan (a Members entry with
 * `invite: true`, or with --invite) blocks the team: a team is never applied without some of its members.
 * A team an `access:` list names (by title or id) is never pruned: its delete is blocked instead.
 */
import type { SourcePos } from '../../model/errors.js';
import type { DesiredEntry, DiffContext, DiffResult } from '../../model/kind.js';
import { accessNote, knownGrants, teamsNamedByAccess } from '../access/cascades.js';
import { blockEntry, seg } from '../common.js';
import { BLOCKED, deletedUnlessNamed, diffTitled, type TitledKind } from '../titled.js';
import { uniqueLiveKey } from '../unmatched.js';
import { losingTeamNote, providersLosingTeam } from '../team-ref.js';
import { teamCascades } from '../team-cascades.js';
import { TEAM_DEPTH, TEAM_KIND, teamsPath, type TeamObject, type TeamSpec, type TeamState } from './model.js';
import { createSteps, resolveMember, updateSteps, type TeamScope } from './steps.js';

const TEAM: TitledKind<TeamObject> = {
  kind: TEAM_KIND,
  depth: TEAM_DEPTH,
  renameClash: (o) => `live team ${o.id} already has this title`,
};

const granted = (at: string): string =>
  `an access list grants it a role (${at}), and the grant would go with the team; describe the team in a Team manifest, or take it out of that access list`;

export function diffTeams(
  ctx: DiffContext,
  org: string,
  entries: DesiredEntry<TeamSpec>[],
  live: TeamState,
): DiffResult {
  const aux = live.aux;
  return diffTitled(TEAM, ctx, org, entries, live.objects, (t) => {
    const scope: TeamScope = { ...t, aux };
    return {
      create: (entry) =>
        blockUnknownMembers(scope, t.result, entry, undefined) ? BLOCKED : createSteps(scope, entry, live.objects),
      update: (entry, current) =>
        blockUnknownMembers(scope, t.result, entry, current) ? BLOCKED : updateSteps(scope, entry, current),
      prune() {
        const key = uniqueLiveKey(t.unmatched);
        const grants = (o: TeamObject) => knownGrants(ctx, org, 'team', o.id);
        return {
          // A team an access list names (by title or id) is kept: the grant the list asks for would go with it.
          objects: t.prune ? deletedUnlessNamed(t, teamsNamedByAccess(ctx, org), key, granted) : t.unmatched,
          key,
          path: (o) => `${teamsPath(org)}/${seg(o.id)}`,
          note: (o) => {
            const pruned = aux?.pruned?.[o.id];
            const notes = [
              accessNote(pruned?.spaces, grants(o), 'its'),
              losingTeamNote(providersLosingTeam(ctx, org, pruned?.saml ?? [])),
            ].filter((n) => n !== undefined);
            return notes.length > 0 ? notes.join('; ') : undefined;
          },
          // Its memberships, and its grants on the objects whose access lists this plan read.
          cascades: (o) => [...teamCascades(org, o, aux?.pruned?.[o.id]), ...grants(o).cascades],
        };
      },
    };
  });
}

const at = (p: SourcePos): string => `${p.file}:${p.line}:${p.column}`;

/**
 * Block a team that lists an e-mail no member or invite of this plan stands for (members already in the live
 * team need no resolving). True when blocked: the caller then plans and registers nothing for the team.
 */
function blockUnknownMembers(
  scope: TeamScope,
  result: DiffResult,
  entry: DesiredEntry<TeamSpec>,
  current: TeamObject | undefined,
): boolean {
  const spec = entry.spec;
  const inTeam = new Set((current?.fields.members ?? []).map((m) => m.email));
  const unknown = (spec.members ?? []).filter(
    (m) => !inTeam.has(m.email) && resolveMember(scope, m.email).state === 'unknown',
  );
  const [first, ...more] = unknown.map((m) => ({ email: m.email, pos: entry.doc.pos(m.at) }));
  if (!first) return false;
  const others = more.length > 0 ? `; also ${more.map((m) => `${m.email} (${at(m.pos)})`).join(', ')}` : '';
  blockEntry(
    result,
    entry,
    first.pos,
    `${first.email} is not an organization member and is not invited in this plan${others}; ` +
      'add them to a Members document with invite: true (or invite them) before listing them in a team',
  );
  return true;
}
