/**
 * A "world": the live state of one organization (members, teams with their members, translations) written
 * straight into a sandbox store, and the same shapes written as manifest files. Reliability tests build large
 * or random worlds with it; filling the store directly is fast (no HTTP) and leaves the request log empty.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { MemberRole, SandboxStore, TeamRole } from '@docops/sandbox';
import {
  DEMO_ORG_ID,
  memberKey,
  members,
  teamMemberKey,
  teamMembers,
  teams,
  translations,
  users,
} from '@docops/sandbox';

export const ORG = DEMO_ORG_ID;
/** The admin user of the `empty` seed; it is the token's own user, so worlds always keep it an admin. */
export const ADMIN_EMAIL = 'ada@acme.test';

export interface WorldMember {
  email: string;
  role: MemberRole | null;
}
export interface WorldTeamMember {
  email: string;
  role: TeamRole;
}
export interface WorldTeam {
  title: string;
  /** Live id (stores only); generated when absent. */
  id?: string;
  members: WorldTeamMember[];
  /** Manifests only: false leaves `members` out of the document (membership not managed). */
  manageMembers?: boolean;
}
export interface WorldTranslation {
  title: string;
  id?: string;
}
export interface World {
  members: WorldMember[];
  teams: WorldTeam[];
  translations: WorldTranslation[];
}

/** Lower-case e-mail → a stable user id (`u-` + a sanitised local part and domain). */
export function userIdOf(email: string): string {
  return `u-${email.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}

/**
 * Add the world to a store seeded with `empty` (which holds ORG and its admin ada). Members are added (ada
 * keeps her seeded record), team members must be members of the world or ada.
 */
export function fillStore(store: SandboxStore, world: World, org = ORG): void {
  const at = '2024-02-01T09:00:00.000Z';
  const userIds = new Map<string, string>();
  for (const u of users(store).all()) userIds.set(u.email.toLowerCase(), u.id);
  for (const m of world.members) {
    const email = m.email.toLowerCase();
    let id = userIds.get(email);
    if (id === undefined) {
      id = userIdOf(email);
      users(store).put({ id, displayName: email.split('@')[0] ?? email, email: m.email });
      userIds.set(email, id);
    }
    const existing = members(store).get(memberKey(org, id));
    members(store).put({
      id: memberKey(org, id),
      orgId: org,
      userId: id,
      role: m.role,
      disabled: false,
      joinedAt: existing?.joinedAt ?? at,
      sso: false,
    });
  }
  world.teams.forEach((t, i) => {
    const id = t.id ?? `team-w${i}`;
    teams(store).put({ id, orgId: org, title: t.title, createdAt: at });
    for (const tm of t.members) {
      const userId = userIds.get(tm.email.toLowerCase());
      if (userId === undefined) throw new Error(`world: team ${t.title} lists ${tm.email}, who is not a member`);
      teamMembers(store).put({ id: teamMemberKey(id, userId), orgId: org, teamId: id, userId, role: tm.role });
    }
  });
  world.translations.forEach((t, i) => {
    translations(store).put({
      id: t.id ?? `tr-w${i}`,
      orgId: org,
      title: t.title,
      languages: [],
      createdAt: at,
      updatedAt: at,
    });
  });
}

/** The live organization read back from the store, in the world's shape (sorted, for comparisons). */
export function readStore(store: SandboxStore, org = ORG): World & { teamIds: Record<string, string[]> } {
  const emailOf = new Map(
    users(store)
      .all()
      .map((u) => [u.id, u.email.toLowerCase()]),
  );
  const ms = members(store)
    .where((m) => m.orgId === org)
    .map((m) => ({ email: emailOf.get(m.userId) ?? m.userId, role: m.role }))
    .sort((a, b) => a.email.localeCompare(b.email));
  const ts = teams(store).where((t) => t.orgId === org);
  const teamIds: Record<string, string[]> = {};
  for (const t of ts) (teamIds[t.title] ??= []).push(t.id);
  return {
    members: ms,
    teams: ts
      .map((t) => ({
        title: t.title,
        id: t.id,
        members: teamMembers(store)
          .where((tm) => tm.teamId === t.id)
          .map((tm) => ({ email: emailOf.get(tm.userId) ?? tm.userId, role: tm.role }))
          .sort((a, b) => a.email.localeCompare(b.email)),
      }))
      .sort((a, b) => a.title.localeCompare(b.title)),
    translations: translations(store)
      .where((t) => t.orgId === org)
      .map((t) => ({ title: t.title, id: t.id }))
      .sort((a, b) => a.title.localeCompare(b.title)),
    teamIds,
  };
}

/** One manifest document as docops reads it. */
export function manifest(
  kind: string,
  spec: Record<string, unknown>,
  opts: { org?: string; prune?: boolean } = {},
): Record<string, unknown> {
  return {
    apiVersion: 'docops/v1',
    kind,
    metadata: { organization: opts.org ?? ORG },
    ...(opts.prune === undefined ? {} : { prune: opts.prune }),
    spec,
  };
}

/** Write documents into `dir`, one file per document (`NNN-kind.yaml`), so positions stay small and clear. */
export function writeManifests(dir: string, docs: readonly Record<string, unknown>[]): void {
  mkdirSync(dir, { recursive: true });
  docs.forEach((d, i) => {
    writeFileSync(
      join(dir, `${String(i).padStart(3, '0')}-${String(d['kind']).toLowerCase()}.yaml`),
      stringify(d, { lineWidth: 0 }),
    );
  });
}

/** The documents that ask for exactly `world` (Members lists every member; teams list their members). */
export function worldManifests(
  world: World,
  opts: { prune?: boolean; invite?: boolean } = {},
): Record<string, unknown>[] {
  const prune = opts.prune === true ? { prune: true } : {};
  const docs: Record<string, unknown>[] = [];
  if (world.members.length > 0) {
    docs.push(
      manifest(
        'Members',
        {
          ...(opts.invite ? { invite: true } : {}),
          members: world.members.map((m) => ({ email: m.email, role: m.role })),
        },
        prune,
      ),
    );
  }
  for (const t of world.teams) {
    const spec: Record<string, unknown> = { title: t.title };
    if (t.manageMembers !== false)
      spec['members'] = t.members.map((m) =>
        m.role === 'owner' ? { email: m.email, role: 'owner' } : { email: m.email },
      );
    if (t.id !== undefined) spec['id'] = t.id;
    docs.push(manifest('Team', spec, prune));
  }
  for (const t of world.translations)
    docs.push(manifest('Translation', t.id !== undefined ? { title: t.title, id: t.id } : { title: t.title }, prune));
  return docs;
}
