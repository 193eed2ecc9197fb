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
import { ref } from '../../model/refs.js';
import { accessNote, knownGrants, teamsNamedByAccess } from '../access/cascades.js';
import { blockEntry, plainSource, seg, stepId } from '../common.js';
import { identityTitle, withDisplayKeys, matchByIdOrTitle, stalePinWarnings } from '../match.js';
import { uniqueLiveKey, unmatchedLive } from '../unmatched.js';
import { losingTeamNote, providersLosingTeam } from '../saml/team-ref.js';
import { teamCascades } from './cascades.js';
import { TEAM_DEPTH, TEAM_KIND, teamsPath, type TeamObject, type TeamSpec, type TeamState } from './model.js';
import { createSteps, resolveMember, updateSteps, type TeamScope } from './steps.js';

export function diffTeams(
  ctx: DiffContext,
  org: string,
  entries: DesiredEntry<TeamSpec>[],
  live: TeamState,
): DiffResult {
  const desired = withDisplayKeys(entries);
  const result: DiffResult = { steps: [], unmanaged: [], warnings: [], blocked: [] };
  const aux = live.aux;
  const { matched, unmatched, stalePins } = matchByIdOrTitle(TEAM_KIND, desired, live.objects);
  result.warnings.push(...stalePinWarnings(TEAM_KIND, org, stalePins));

  const scope: TeamScope = { ctx, org, aux };

  for (const entry of desired) {
    const current = matched.get(entry);
    if (blockUnknownMembers(scope, result, entry, current)) continue;
    if (current) {
      result.steps.push(...updateSteps(scope, entry, current));
      ctx.register(TEAM_KIND, org, entry.key, current.id);
    } else {
      result.steps.push(...createSteps(scope, entry, live.objects));
      ctx.register(TEAM_KIND, org, entry.key, ref(stepId(TEAM_KIND, org, entry.key, 'create')));
    }
  }

  // A rename onto the title of a team that stays would make titles ambiguous for the next plan.
  if (!ctx.prune(TEAM_KIND, org)) {
    for (const [entry, current] of matched) {
      const title = identityTitle(entry);
      const clash = current.key !== title && unmatched.find((o) => o.key === title);
      if (clash)
        result.warnings.push({
          kind: TEAM_KIND,
          org,
          key: entry.key,
          message: `live team ${clash.id} already has this title`,
        });
    }
  }

  const prune = ctx.prune(TEAM_KIND, org);
  const key = uniqueLiveKey(unmatched);
  const grants = (o: TeamObject) => knownGrants(ctx, org, 'team', o.id);
  unmatchedLive(result, {
    kind: TEAM_KIND,
    org,
    prune,
    objects: prune ? pruneTeams(ctx, org, unmatched, key, result) : unmatched,
    key,
    wave: () => TEAM_DEPTH,
    path: (o) => `${teamsPath(org)}/${seg(o.id)}`,
    before: (o) => ({ title: o.key }),
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
  });
  return result;
}

/**
 * The unmatched teams a prune deletes: all but those an access list names (by id or title), whose delete would
 * take the grant the list asks for — each of those is a blocked object naming where the list names it.
 */
function pruneTeams(
  ctx: DiffContext,
  org: string,
  unmatched: TeamObject[],
  key: (o: TeamObject) => string,
  result: DiffResult,
): TeamObject[] {
  const named = teamsNamedByAccess(ctx, org);
  if (named.size === 0) return unmatched;
  return unmatched.filter((o) => {
    const at = named.get(o.id) ?? named.get(o.key);
    if (!at) return true;
    result.blocked.push({
      kind: TEAM_KIND,
      org,
      key: key(o),
      message: `not deleted (prune): an access list grants it a role (${at.file}:${at.line}:${at.column}), and the grant would go with the team; describe the team in a Team manifest, or take it out of that access list`,
      source: plainSource(at),
    });
    return false;
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
