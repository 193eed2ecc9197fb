/**
 * Stored records of the core resources and their tables. Records are plain JSON (they are snapshotted);
 * API objects are computed from them by the presenters in routes/*.ts.
 */
import type { SandboxStore, Table } from './store.js';

export const MEMBER_ROLES = ['admin', 'create', 'edit', 'review', 'comment', 'read'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
/** A content default level (the official spec's DefaultLevel): a member role, none (null), or the parent's. */
export type DefaultLevel = MemberRole | null | 'inherit';
export const TRANSLATION_LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'zh-tw',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const;
export type Language = (typeof TRANSLATION_LANGUAGES)[number];
/** Merge rules as written (the official spec's MergeRules / MergeRulesSpaceConfiguration); stored as sent. */
export type MergeRules = { type: 'none' } | { type: 'inherit' } | { type: 'rules'; rules: Record<string, unknown>[] };
export const TEAM_ROLES = ['owner', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export interface UserRec {
  id: string;
  displayName: string;
  email: string;
  photoURL?: string;
}

export interface OrgRec {
  id: string;
  title: string;
  createdAt: string;
  emailDomains: string[];
  hostname?: string;
  type: 'business' | 'community';
  defaultRole: MemberRole | null;
  defaultContent?: { type: 'site'; site: string };
  logo?: string;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  plan: string;
  /** Absent: `{type: none}`. */
  mergeRules?: MergeRules;
}

/** id = `${orgId}/${userId}`. */
export interface MemberRec {
  id: string;
  orgId: string;
  userId: string;
  role: MemberRole | null;
  disabled: boolean;
  joinedAt: string;
  lastSeenAt?: string;
  sso: boolean;
}

export interface TeamRec {
  id: string;
  orgId: string;
  title: string;
  createdAt: string;
}

/** id = `${teamId}/${userId}`. */
export interface TeamMemberRec {
  id: string;
  orgId: string;
  teamId: string;
  userId: string;
  role: TeamRole;
}

export interface TranslationRec {
  id: string;
  orgId: string;
  title: string;
  languages: string[];
  createdAt: string;
  updatedAt: string;
}

export interface CollectionRec {
  id: string;
  orgId: string;
  title: string;
  description?: string;
  parent?: string;
  defaultLevel: DefaultLevel;
}

export interface SpaceRec {
  id: string;
  orgId: string;
  title: string;
  emoji: string;
  visibility: 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';
  editMode: 'live' | 'locked';
  parent?: string;
  defaultLevel: DefaultLevel;
  language?: Language;
  /** Icon URL (answered as `urls.icon`); a space has an emoji or an icon, not both. */
  icon?: string;
  /** Absent: `{type: inherit}`. */
  mergeRules?: MergeRules;
  revision: string;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
}

/** An invite link of an organization (management-api.md lists only its delete). */
export interface LinkInviteRec {
  id: string;
  orgId: string;
  role: MemberRole | null;
  createdAt: string;
}

export const users = (s: SandboxStore): Table<UserRec> => s.table('users');
export const orgs = (s: SandboxStore): Table<OrgRec> => s.table('orgs');
export const members = (s: SandboxStore): Table<MemberRec> => s.table('members');
export const teams = (s: SandboxStore): Table<TeamRec> => s.table('teams');
export const teamMembers = (s: SandboxStore): Table<TeamMemberRec> => s.table('teamMembers');
export const translations = (s: SandboxStore): Table<TranslationRec> => s.table('translations');
export const collections = (s: SandboxStore): Table<CollectionRec> => s.table('collections');
export const spaces = (s: SandboxStore): Table<SpaceRec> => s.table('spaces');
export const linkInvites = (s: SandboxStore): Table<LinkInviteRec> => s.table('linkInvites');

export const memberKey = (orgId: string, userId: string): string => `${orgId}/${userId}`;
export const teamMemberKey = (teamId: string, userId: string): string => `${teamId}/${userId}`;
