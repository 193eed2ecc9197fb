/**
 * fast-check generators of small live and desired worlds over tiny alphabets (so desired and live overlap
 * often: updates, renames of membership, prunes and creates all show up in a few dozen runs).
 */
import fc from 'fast-check';
import type { MemberRole, TeamRole } from '@docops/sandbox';
import { ADMIN_EMAIL, type World, type WorldMember, type WorldTeam } from '../helpers/world.js';

const EMAILS = ['bea@acme.test', 'cy@acme.test', 'di@acme.test', 'ed@acme.test', 'flo@acme.test', 'gus@acme.test'];
const TEAM_TITLES = ['Alpha', 'Beta', 'Gamma', 'Delta'];
const TRANSLATION_TITLES = ['French', 'German', 'Spanish'];
const ROLES: (MemberRole | null)[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', null];
const TEAM_ROLES: TeamRole[] = ['owner', 'member'];

const role = fc.constantFrom(...ROLES);
const teamRole = fc.constantFrom(...TEAM_ROLES);

/** An e-mail as a manifest may write it: sometimes with an upper-case first letter (identity is case-insensitive). */
const spelled = (email: string): fc.Arbitrary<string> =>
  fc.boolean().map((up) => (up ? email[0]!.toUpperCase() + email.slice(1) : email));

function membersOf(emails: readonly string[]): fc.Arbitrary<WorldMember[]> {
  return fc
    .subarray([...emails])
    .chain((picked) => fc.tuple(...picked.map((e) => fc.record({ email: spelled(e), role }))))
    .map((ms) => [...ms]);
}

function teamsOf(
  titles: readonly string[],
  memberEmails: readonly string[],
  desired: boolean,
): fc.Arbitrary<WorldTeam[]> {
  const team = (title: string) =>
    fc.record({
      title: fc.constant(title),
      members: fc
        .subarray([...memberEmails])
        .chain((es) => fc.tuple(...es.map((e) => fc.record({ email: fc.constant(e), role: teamRole }))))
        .map((ms) => [...ms]),
      manageMembers: desired ? fc.boolean() : fc.constant(true),
    });
  return fc
    .subarray([...titles])
    .chain((ts) => fc.tuple(...ts.map(team)))
    .map((ts) => [...ts]);
}

const translationsOf = fc.subarray(TRANSLATION_TITLES).map((ts) => ts.map((title) => ({ title })));

/** The live organization: ada (admin, the token's user) plus a random subset of members, teams of them, translations. */
export const liveWorldArb: fc.Arbitrary<World> = membersOf(EMAILS).chain((ms) =>
  fc.record({
    members: fc.constant([
      { email: ADMIN_EMAIL, role: 'admin' as const },
      ...ms.map((m) => ({ ...m, email: m.email.toLowerCase() })),
    ]),
    teams: teamsOf(TEAM_TITLES, [ADMIN_EMAIL, ...ms.map((m) => m.email.toLowerCase())], false),
    translations: translationsOf,
  }),
);

/** What manifests ask for; every team member is listed in the Members document (the loader requires it). */
export const desiredWorldArb: fc.Arbitrary<World> = membersOf(EMAILS).chain((ms) => {
  const all = [{ email: ADMIN_EMAIL, role: 'admin' as const }, ...ms];
  return fc.record({
    members: fc.constant(all),
    teams: teamsOf(
      TEAM_TITLES,
      all.map((m) => m.email.toLowerCase()),
      true,
    ),
    translations: translationsOf,
  });
});

export interface Options {
  prune: Record<'Members' | 'Team' | 'Translation', boolean>;
  invite: boolean;
}

export const optionsArb: fc.Arbitrary<Options> = fc.record({
  prune: fc.record({ Members: fc.boolean(), Team: fc.boolean(), Translation: fc.boolean() }),
  invite: fc.boolean(),
});
