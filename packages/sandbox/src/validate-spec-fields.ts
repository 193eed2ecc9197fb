/**
 * Validators of fields that only the official spec describes (management-api.md's "further variants exist"):
 * default levels with `inherit`, merge rules, languages, localized strings. The spec's own request schema has
 * already checked each body (spec-bodies.ts); these type what the handlers store and keep unknown fields out.
 */
import { badRequest } from './http.js';
import type { DefaultLevel, MergeRules } from './records.js';
import { MEMBER_ROLES, TRANSLATION_LANGUAGES } from './records.js';
import { array, isPlainObject, literal, nullable, object, oneOf, string, type Validator } from './validate.js';
import { keyedBy } from './validate-extra.js';

/** MemberRole | null | "inherit" (the spec's DefaultLevel). */
export const defaultLevel: Validator<DefaultLevel> = (v, path) =>
  v === 'inherit' ? 'inherit' : nullable(oneOf(MEMBER_ROLES))(v, path);

export const language = oneOf(TRANSLATION_LANGUAGES);

/** A map language → text of at most `max` characters (LocalizedString128 / 256). */
export const localized = (max: number): Validator<Record<string, string>> =>
  keyedBy(TRANSLATION_LANGUAGES, string({ max }));

const RULE_NAMES = [
  'require_specific_reviewers',
  'require_one_of_specific_reviewers',
  'allow_bypass',
  'require_at_least_one_review',
  'require_at_least_one_approved_review',
  'require_all_reviews_approved',
  'require_agent_review',
  'require_up_to_date_change_request',
  'require_change_request_subject',
  'require_change_request_description',
  'require_author_to_merge',
  'custom',
] as const;

/** One MergeRule: its `rule` name checked here; the rest of its shape by the spec's schema. Stored as sent. */
const mergeRule: Validator<Record<string, unknown>> = (v, path) => {
  if (!isPlainObject(v)) throw badRequest(`${path}: must be an object`);
  oneOf(RULE_NAMES)(v['rule'], `${path}.rule`);
  if ('users' in v) array(string())(v['users'], `${path}.users`);
  return structuredClone(v);
};

/** `{type: rules, rules}` | `{type: none}`, and `{type: inherit}` where `withInherit` (a space's). */
export function mergeRules(withInherit: boolean): Validator<MergeRules> {
  const rules = object({ type: literal('rules'), rules: array(mergeRule) }, ['type', 'rules']);
  return (v, path) => {
    const type = isPlainObject(v) ? v['type'] : undefined;
    if (type === 'rules') return rules(v, path) as MergeRules;
    if (type === 'none') return object({ type: literal('none') }, ['type'])(v, path);
    if (type === 'inherit' && withInherit) return object({ type: literal('inherit') }, ['type'])(v, path);
    throw badRequest(
      `${path}.type: must be one of rules, none${withInherit ? ', inherit' : ''} (got ${JSON.stringify(type) ?? 'nothing'})`,
    );
  };
}
