/**
 * Between SamlProvider and Team (shared by both kinds, so neither reaches into the other): a provider's
 * `defaultTeam`, and the teams a plan deletes. The kind is diffed after Team (`needs`), so a Team
 * manifest title resolves to the team's id or to a ref to its create step; else a live team by title (two with
 * it: ConflictError, docops never guesses), else a live team id.
 *
 * Deleting a team a provider names leaves the provider without a default team (the API drops it, and cannot set
 * another unless a manifest names one). The Team kind reads, for the teams it prunes, which providers name them
 * (`providersNaming`) and says so on the delete step (`providersLosingTeam`), also when no SamlProvider document
 * manages them; a provider whose document names a team this plan deletes is blocked by this kind's diff.
 */
import { ConflictError } from '../model/errors.js';
import type { DesiredEntry, DiffContext, LiveObject } from '../model/kind.js';
import { isRef } from '../model/refs.js';
import { isRecord } from './common.js';
import { withDisplayKeys, matchByIdOrTitle } from './match.js';
import { SAML_KIND, teamRef, type TeamRef } from './saml/model.js';

const TEAM = 'Team';

/** `defaultTeam` → a team id or a ref to a Team create step; undefined: it names nothing. */
export function resolveTeam(
  ctx: DiffContext,
  org: string,
  name: string,
  teams: readonly TeamRef[],
): string | undefined {
  const known = ctx.resolve(TEAM, org, name);
  if (known !== undefined && isRef(known)) return known;
  const titled = teams.filter((t) => t.title === name);
  if (titled.length > 1) {
    throw new ConflictError(
      `defaultTeam "${name}" of a SAML provider in organization ${org} matches ${titled.length} live teams (${titled.map((t) => t.id).join(', ')}); name the one you mean by id`,
    );
  }
  return known ?? titled[0]?.id ?? teams.find((t) => t.id === name)?.id;
}

/** Ids of the live teams the Team kind deletes in this plan (prune on, no Team manifest describes them). */
export function teamsPrunedByPlan(ctx: DiffContext, org: string): Set<string> {
  const live = ctx.live(TEAM, org);
  if (!live || !ctx.prune(TEAM, org)) return new Set();
  const teams = live.objects.filter((o) => o.kind === TEAM);
  const { unmatched } = matchByIdOrTitle(TEAM, withDisplayKeys(ctx.desired(TEAM, org)), teams);
  return new Set(unmatched.map((o) => o.id));
}

/** A live provider naming a team as its default team. */
export interface NamingProvider {
  id: string;
  label: string;
  team: string;
}

/** The providers of a SAML list (`GET /orgs/{org}/saml` items) with a default team. */
export function providersNaming(items: readonly unknown[]): NamingProvider[] {
  return items.flatMap((p) => {
    if (!isRecord(p) || typeof p['id'] !== 'string' || typeof p['label'] !== 'string') return [];
    const team = teamRef(p['defaultTeam']);
    return team ? [{ id: p['id'], label: p['label'], team: team.id }] : [];
  });
}

/**
 * Of the providers naming a team the Team kind deletes, those that still name it when the delete runs: not one a
 * SamlProvider document writes `defaultTeam` for (its PATCH runs in the update phase, before any prune, or the
 * provider is blocked), and not one this kind prunes (deletes run deepest kind first: the provider goes before).
 */
export function providersLosingTeam(
  ctx: DiffContext,
  org: string,
  providers: readonly NamingProvider[],
): NamingProvider[] {
  if (providers.length === 0) return [];
  const entries = ctx.desired(SAML_KIND, org);
  const objects: LiveObject[] = providers.map((p) => ({ kind: SAML_KIND, org, key: p.label, id: p.id, fields: {} }));
  // Matching never guesses: two live providers with a label an unpinned document asks for is that kind's conflict
  // (its own diff reports it); here such a document counts as managing neither.
  let matched: Map<DesiredEntry, LiveObject>;
  try {
    matched = matchByIdOrTitle(SAML_KIND, withDisplayKeys(entries), objects).matched;
  } catch (e) {
    if (!(e instanceof ConflictError)) throw e;
    matched = new Map();
  }
  const repointed = new Set<string>();
  // SamlProvider specs are typed only inside this kind's diff: read the one field this needs, with a check.
  for (const [entry, o] of matched)
    if (isRecord(entry.spec) && typeof entry.spec['defaultTeam'] === 'string') repointed.add(o.id);
  const managed = new Set([...matched.values()].map((o) => o.id));
  const pruned = entries.length > 0 && ctx.prune(SAML_KIND, org);
  return providers.filter((p) => !repointed.has(p.id) && !(pruned && !managed.has(p.id)));
}

/** The note on a team's delete step for the providers that lose it as their default team. */
export function losingTeamNote(providers: readonly NamingProvider[]): string | undefined {
  if (providers.length === 0) return undefined;
  const names = providers.map((p) => `"${p.label}"`).join(', ');
  return `SAML provider${providers.length === 1 ? '' : 's'} ${names} ${providers.length === 1 ? 'names' : 'name'} it as default team and keep${providers.length === 1 ? 's' : ''} none`;
}
