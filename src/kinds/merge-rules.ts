/**
 * Merge rules — who must review a change request before it merges — on the organization and on spaces (the
 * official spec's `mergeRules`: `{type: none}`, `{type: inherit}` (a space follows its organization) or
 * `{type: rules, rules: [...]}`). A manifest names the reviewers of a rule by e-mail, as access lists do: each
 * resolves through the Members documents (a member invited in the same plan has no user id yet) or the live member
 * list, and one that names no member blocks the document. Rules are compared as a set, their users as sets; plans
 * show e-mails, requests send user ids.
 */
import type { DiffContext } from '../model/kind.js';
import { isRef } from '../model/refs.js';
import type { DocPath } from '../manifests/paths.js';
import { isRecord } from './common.js';
import type { OrganizationManifestSpec } from './generated/organization.js';
import type { SpaceManifestSpec } from './generated/space.js';

/** One rule as written: its kind, and the reviewers (e-mails, lower-cased), expression and message when it has them. */
export interface MergeRuleSpec {
  rule: string;
  users?: string[];
  expression?: string;
  message?: string;
  at: DocPath;
}

export type MergeRulesSpec = { type: 'none' | 'inherit' } | { type: 'rules'; rules: MergeRuleSpec[] };

/** The API's form (user ids). */
export type ApiMergeRules = { type: 'none' | 'inherit' } | { type: 'rules'; rules: Record<string, unknown>[] };

/** `mergeRules` as an Organization or a Space document writes it (a space may also inherit). */
export type WrittenMergeRules = NonNullable<OrganizationManifestSpec['mergeRules'] | SpaceManifestSpec['mergeRules']>;

/**
 * The written rules with their reviewers lower-cased and each rule's position (`at` is the field's path), or
 * undefined when not written.
 */
export function readMergeRules(written: WrittenMergeRules | undefined, at: DocPath): MergeRulesSpec | undefined {
  if (written === undefined) return undefined;
  if (written.type !== 'rules') return { type: written.type };
  const rules = written.rules.map((r, i): MergeRuleSpec => ({
    rule: r.rule,
    at: [...at, 'rules', i],
    ...('users' in r ? { users: r.users.map((u) => u.toLowerCase()) } : {}),
    ...('expression' in r ? { expression: r.expression } : {}),
    ...('message' in r && r.message !== undefined ? { message: r.message } : {}),
  }));
  return { type: 'rules', rules };
}

/** The live value an API object carries, or null when it has none. */
export function liveMergeRules(raw: unknown): ApiMergeRules | null {
  if (!isRecord(raw)) return null;
  if (raw['type'] === 'none' || raw['type'] === 'inherit') return { type: raw['type'] };
  if (raw['type'] === 'rules' && Array.isArray(raw['rules']))
    return { type: 'rules', rules: raw['rules'].filter(isRecord).map((r) => ({ ...r })) };
  return null;
}

/**
 * Merge rules liveMergeRules cannot read (a type a newer API added): the value as the API sent it, never read as
 * none; null when there is no object at all.
 */
export const unknownMergeRules = (raw: unknown): Record<string, unknown> | null =>
  isRecord(raw) ? structuredClone(raw) : null;

/** Whether a spec writes `mergeRules` (any value: export's probe writes `{}`): its fetch reads the members. */
export const writesMergeRules = (spec: { mergeRules?: unknown }): boolean => spec.mergeRules !== undefined;

/**
 * The API form of the written rules, e-mails resolved to user ids, or where and why one names no member (a member
 * invited in this plan has no user id until they accept).
 */
export function resolveMergeRules(
  ctx: DiffContext,
  org: string,
  spec: MergeRulesSpec,
  members: Readonly<Record<string, string>>,
): ApiMergeRules | { at: DocPath; message: string } {
  if (spec.type !== 'rules') return { type: spec.type };
  const rules: Record<string, unknown>[] = [];
  for (const r of spec.rules) {
    const users: string[] = [];
    for (const [i, email] of (r.users ?? []).entries()) {
      const known = ctx.resolve('Members', org, email);
      if (known !== undefined && isRef(known)) {
        return {
          at: [...r.at, 'users', i],
          message: `merge rules: ${email} is invited in this plan and has no user id until they accept; the first plan after they joined sets the rule`,
        };
      }
      const id = known ?? members[email];
      if (id === undefined)
        return {
          at: [...r.at, 'users', i],
          message: `merge rules: ${email} is not an organization member; add them to a Members document, or take them out of the rule`,
        };
      users.push(id);
    }
    rules.push({
      rule: r.rule,
      ...(r.users ? { users } : {}),
      ...(r.expression !== undefined ? { expression: r.expression } : {}),
      ...(r.message !== undefined ? { message: r.message } : {}),
    });
  }
  return { type: 'rules', rules };
}

/** One rule in a canonical form: members sorted, its users sorted. */
const canonicalRule = (r: Record<string, unknown>): string =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(r)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, x]) => [k, k === 'users' && Array.isArray(x) ? [...x].map(String).sort() : x]),
    ),
  );

/** A canonical form: rules sorted, each rule's users sorted (order means nothing to the API). */
export function canonicalMergeRules(v: unknown): unknown {
  const rules = liveMergeRules(v);
  if (!rules) return unknownMergeRules(v);
  if (rules.type !== 'rules') return rules;
  return { type: 'rules', rules: rules.rules.map(canonicalRule).sort() };
}

/**
 * A change between two sets of rules as a delta (`{type: rules, rules: {add, remove}}`, MergeSpec `sets` at
 * MERGE_RULES_SET): apply lays it over the rules it reads right before the PATCH, so a rule another actor added
 * after the plan stays. Undefined when either side is not a set of rules (a change of type is sent as written).
 */
export function mergeRulesDelta(live: unknown, want: ApiMergeRules): Record<string, unknown> | undefined {
  const have = liveMergeRules(live);
  if (have?.type !== 'rules' || want.type !== 'rules') return undefined;
  const had = new Set(have.rules.map(canonicalRule));
  const wanted = new Set(want.rules.map(canonicalRule));
  return {
    type: 'rules',
    rules: {
      add: want.rules.filter((r) => !had.has(canonicalRule(r))),
      remove: have.rules.filter((r) => !wanted.has(canonicalRule(r))),
    },
  };
}

/** Where a merge-rules delta sits in a PATCH body. */
export const MERGE_RULES_SET = '/mergeRules/rules';

/**
 * The manifest form of an API value: user ids as e-mails (`emailOf`); undefined when a user has no known e-mail
 * (a manifest could not name them: export leaves the rules unmanaged rather than write a list without them).
 */
export function manifestMergeRules(
  v: ApiMergeRules,
  emailOf: Readonly<Record<string, string>>,
): Record<string, unknown> | undefined {
  if (v.type !== 'rules') return { type: v.type };
  const rules: Record<string, unknown>[] = [];
  for (const r of v.rules) {
    const users = Array.isArray(r['users']) ? r['users'].map((id) => emailOf[String(id)]) : undefined;
    if (users?.some((u) => u === undefined)) return undefined;
    rules.push({ ...r, ...(users ? { users } : {}) });
  }
  return { type: 'rules', rules };
}

/** What a plan shows for a live value: e-mails where known, else the user id. */
export function shownMergeRules(v: unknown, emailOf: Readonly<Record<string, string>>): unknown {
  const rules = liveMergeRules(v);
  if (!rules) return unknownMergeRules(v);
  if (rules.type !== 'rules') return rules;
  return {
    type: 'rules',
    rules: rules.rules.map((r) =>
      Array.isArray(r['users']) ? { ...r, users: r['users'].map((id) => emailOf[String(id)] ?? String(id)) } : r,
    ),
  };
}

/** e-mail → user id, reversed. */
export function byId(members: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(members).map(([email, id]) => [id, email]));
}
