/**
 * A space's merge rules (src/kinds/merge-rules.ts): the written value resolved to user ids and compared with the
 * live one; a space that sets none answers `{type: inherit}`.
 */
import type { DesiredEntry, DiffContext } from '../../model/kind.js';
import type { DocPath } from '../../manifests/paths.js';
import {
  byId,
  canonicalMergeRules,
  readMergeRules,
  resolveMergeRules,
  shownMergeRules,
  type ApiMergeRules,
} from '../merge-rules.js';
import type { SpaceFields, SpaceSpec } from './model.js';

export interface MergeRulesChange {
  /** What the plan shows (reviewers by e-mail). */
  before: unknown;
  after: unknown;
  /** What the PATCH sends. */
  body: ApiMergeRules;
}

/** The change a space needs (undefined: none written, or already so), or where and why the rules name no member. */
export function mergeRulesChange(
  ctx: DiffContext,
  org: string,
  entry: DesiredEntry<SpaceSpec>,
  have: SpaceFields | undefined,
  members: Readonly<Record<string, string>>,
): MergeRulesChange | { at: DocPath; message: string } | undefined {
  const written = entry.spec.mergeRules;
  const rules = readMergeRules(written, ['spec', 'mergeRules']);
  if (!rules) return undefined;
  const api = resolveMergeRules(ctx, org, rules, members);
  if ('message' in api) return api;
  const live = have?.mergeRules ?? { type: 'inherit' };
  if (JSON.stringify(canonicalMergeRules(api)) === JSON.stringify(canonicalMergeRules(live))) return undefined;
  return { before: have ? shownMergeRules(live, byId(members)) : null, after: written, body: api };
}
