/**
 * Members: organization members by e-mail (case-insensitive). Role changes and SSO marking per member,
 * invites for missing members batched per organization, removal only under prune.
 *
 * Other kinds find members through ctx.resolve('Members', org, email): a live user id, or — for a member
 * invited in the same plan — a ref to the invite step. That ref only means "exists after that step"
 * (the invite response does not map e-mails to ids): address such a member by e-mail and depend on the step.
 */
import type { SourcePos } from '../../model/errors.js';
import type { DesiredEntry, DiffContext, DiffResult, FetchContext, KindDefinition } from '../../model/kind.js';
import type { Step } from '../../model/plan.js';
import { ref } from '../../model/refs.js';
import type { ManifestDocument } from '../../model/document.js';
import { accessNote, knownGrants } from '../access/cascades.js';
import { blockEntry, makeStep, orgPath, seg, stepId } from '../common.js';
import { unmatchedLive } from '../unmatched.js';
import { membersSchema, type MembersManifestSpec } from '../generated/members.js';
import { memberCascades, readLeavingMembers, teamsHandledByTeamKind } from '../team-cascades.js';
import { exportMembers } from './export.js';
import { memberGuards } from './guard.js';
import {
  MEMBERS_DEPTH as DEPTH,
  MEMBERS_KIND as KIND,
  memberObject,
  membersPath,
  type MemberObject,
  type MembersAux,
  type MemberSpec,
  type MembersState,
} from './model.js';
import { membersUndo, snapshotMember } from './snapshot.js';
import { membersInformer } from './informer.js';

/** What an invite step's `after` shows for an address invited without a role. */
const DEFAULT_ROLE = "(the organization's default role)";

/**
 * A member's entry. Its source position is looked up on first read: one Members document may list 60,000
 * members, and a plan needs the positions of the few that get a step (or of duplicates), not of all.
 */
class MemberEntry implements DesiredEntry<MemberSpec> {
  readonly kind = KIND;
  private position: SourcePos | undefined;
  constructor(
    readonly org: string,
    readonly key: string,
    readonly spec: MemberSpec,
    readonly doc: ManifestDocument<unknown>,
    private readonly index: number,
  ) {}

  get source(): SourcePos {
    return (this.position ??= this.doc.pos(['spec', 'members', this.index]));
  }
}

function toDesired(doc: ManifestDocument<MembersManifestSpec>): DesiredEntry<MemberSpec>[] {
  const org = doc.metadata.organization;
  const invite = doc.spec.invite === true;
  return doc.spec.members.map(
    (m, i) => new MemberEntry(org, m.email.toLowerCase(), invite ? { ...m, invite } : m, doc, i),
  );
}

async function fetch(ctx: FetchContext, org: string, desired: DesiredEntry<MemberSpec>[]): Promise<MembersState> {
  const items = await ctx.list(membersPath(org));
  const objects: MemberObject[] = [];
  // Under prune, the members no document lists are removed: read which teams each of them leaves with it.
  const wanted = ctx.prune(KIND, org) ? new Set(desired.map((e) => e.key)) : undefined;
  const leaving: [string, unknown][] = [];
  for (const m of items) {
    const o = memberObject(org, m);
    if (!o) continue;
    objects.push(o);
    if (wanted && !wanted.has(o.key)) leaving.push([o.id, m]);
  }
  if (leaving.length === 0) return { objects };
  return { objects, aux: { leaving: await readLeavingMembers(ctx, membersPath(org), leaving) } };
}

/** Step id of the invite request for one SSO setting; Team uses it through resolve(). */
export function inviteStepId(org: string, sso: boolean): string {
  return stepId(KIND, org, sso ? 'invite-sso' : 'invite', 'create');
}

function diff(ctx: DiffContext, org: string, desired: DesiredEntry<MemberSpec>[], live: MembersState): DiffResult {
  const result: DiffResult = { steps: [], unmanaged: [], warnings: [], blocked: [] };
  // Key → index of the first live member with it (the one ctx.resolve gives other kinds); one pass, no
  // [key, object] pair per member. Live members need no registering: ctx.resolve knows live ids.
  const objects = live.objects;
  const byKey = new Map<string, number>();
  for (let i = 0; i < objects.length; i++) if (!byKey.has(objects[i]!.key)) byKey.set(objects[i]!.key, i);

  const toInvite = new Map<boolean, DesiredEntry<MemberSpec>[]>();
  // wanted[i]: a desired entry has the key of objects[i] (set at the index byKey holds for that key). A
  // flag array instead of a Set of 60,000 desired keys; `unmatched` below reads it.
  const wanted = new Uint8Array(objects.length);
  let wantedCount = 0;
  for (const entry of desired) {
    const spec = entry.spec;
    const i = byKey.get(entry.key);
    const current = i === undefined ? undefined : objects[i];
    if (i !== undefined && wanted[i] === 0) {
      wanted[i] = 1;
      wantedCount++;
    }
    if (!current) {
      if (spec.invite || ctx.options.invite) {
        const sso = spec.sso === true;
        toInvite.set(sso, [...(toInvite.get(sso) ?? []), entry]);
        ctx.register(KIND, org, entry.key, ref(inviteStepId(org, sso), 'users'));
      } else {
        // The manifest says this person is a member; without an invite no request makes it so.
        blockEntry(
          result,
          entry,
          entry.source,
          'not a member of the organization: write invite: true (or run with --invite) to invite, or remove the entry',
        );
      }
      continue;
    }
    const step = updateStep(org, entry, current, result);
    if (step) result.steps.push(step);
  }

  for (const sso of [false, true]) {
    const entries = toInvite.get(sso);
    if (entries) result.steps.push(inviteStep(org, sso, entries));
  }

  // Keys are lower-cased e-mails, unique already.
  const leaving = live.aux?.leaving;
  let handled: Set<string> | undefined;
  unmatchedLive(result, {
    kind: KIND,
    org,
    prune: ctx.prune(KIND, org),
    objects: wantedCount === objects.length ? [] : objects.filter((o) => wanted[byKey.get(o.key)!] === 0),
    key: (o) => o.key,
    wave: () => DEPTH,
    path: (o) => `${membersPath(org)}/${seg(o.id)}`,
    before: (o) => ({ role: o.fields.role }),
    note: (o) =>
      [
        'remove from the organization',
        accessNote(leaving?.[o.id]?.spaces, knownGrants(ctx, org, 'user', o.id), 'their'),
      ]
        .filter(Boolean)
        .join('; '),
    // Their team memberships (read under prune), and their grants on the objects whose access lists this plan read.
    cascades: (o: MemberObject) => [
      ...(leaving ? memberCascades(org, o.key, leaving[o.id], (handled ??= teamsHandledByTeamKind(ctx, org))) : []),
      ...knownGrants(ctx, org, 'user', o.id).cascades,
    ],
  });
  return result;
}

/** Role change and/or SSO marking of one existing member, as one step (or none when nothing differs). */
function updateStep(
  org: string,
  entry: DesiredEntry<MemberSpec>,
  current: MemberObject,
  result: DiffResult,
): Step | undefined {
  const spec = entry.spec;
  const have = current.fields;
  // The common case on a large org: nothing differs. Decide that before building anything.
  // A role left out is not managed (export writes a role docops does not know that way).
  const role = spec.role === undefined || spec.role === have.role;
  if (role && (spec.sso === undefined || spec.sso === have.sso)) return undefined;
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const path = `${membersPath(org)}/${seg(current.id)}`;
  const requests: Step['requests'] = [];
  if (!role) {
    before['role'] = have.role;
    after['role'] = spec.role;
    requests.push({ method: 'PATCH', path, body: { role: spec.role } });
  }
  if (spec.sso === false && have.sso) {
    // Nothing the API offers unsets SSO: the member can never match the manifest, so nothing of it is planned.
    blockEntry(
      result,
      entry,
      entry.source,
      'is an SSO member and the API cannot unset SSO: write sso: true (or leave sso out), or unset it in the app',
    );
    return undefined;
  }
  if (spec.sso === true && !have.sso) {
    before['sso'] = false;
    after['sso'] = true;
    requests.push({ method: 'POST', path: `${path}/sso`, idempotent: true });
  }
  if (requests.length === 0) return undefined;
  return makeStep({
    id: stepId(KIND, org, entry.key, 'update'),
    action: 'update',
    phase: 'update',
    kind: KIND,
    org,
    key: entry.key,
    wave: DEPTH,
    before,
    after,
    requests,
    entry,
  });
}

/** One invite request for every missing member with this SSO setting; each address carries its role. */
function inviteStep(org: string, sso: boolean, entries: DesiredEntry<MemberSpec>[]): Step {
  // Without a role, the invitation gives the organization's default role.
  const emails = entries.map((e) =>
    e.spec.role === undefined ? { email: e.spec.email } : { email: e.spec.email, role: e.spec.role },
  );
  const first = entries[0];
  return makeStep({
    id: inviteStepId(org, sso),
    action: 'create',
    phase: 'create',
    kind: KIND,
    org,
    key: sso ? 'invite-sso' : 'invite',
    wave: DEPTH,
    before: null,
    after: {
      members: Object.fromEntries(emails.map((m) => [m.email.toLowerCase(), 'role' in m ? m.role : DEFAULT_ROLE])),
      sso,
    },
    // Each address becomes a member: found again by e-mail in the members list.
    requests: [
      {
        method: 'POST',
        path: `${orgPath(org)}/invites`,
        body: { emails, sso },
        joins: { list: membersPath(org), ids: '/users' },
        recover: {
          path: membersPath(org),
          each: '/emails',
          match: [{ field: 'user.email', body: '/email', ignoreCase: true }],
        },
      },
    ],
    ...(first ? { entry: first } : {}),
    note: `invite ${entries.length} by e-mail${sso ? ' as SSO members' : ''}: ${entries.map((e) => e.key).join(', ')}`,
  });
}

export const membersKind: KindDefinition<MemberSpec, MemberObject, MembersAux, MembersManifestSpec> = {
  kind: KIND,
  identity: 'e-mail address, case-insensitive',
  schema: membersSchema,
  guard: memberGuards,
  snapshot: snapshotMember,
  undo: membersUndo,
  depth: DEPTH,
  // The API's MemberRoleOrGuest: a member whose role is null is a guest.
  nullMeanings: { Members: { role: 'guest' } },
  // Scoped reconciles: the diff reads no other kind. Team resolves members, but a Members change does not change
  // Team's plan: every e-mail a team lists must be in the Members documents (crossValidate), before and after.
  scope: {},
  toDesired,
  fetch,
  diff,
  export: exportMembers,
  informer: membersInformer,
};
