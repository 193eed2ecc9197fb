/**
 * What a no-op plan of a generated organization must read, derived from the organization's sizes and from
 * what each manifest kind's diff has to compare — not from docops's own fetch code:
 * - Organization: its settings (one GET); Members: the member list;
 * - Team: the team list, the member list (e-mail → user id), and each managed team's member list;
 * - Translation: the translation list; Space: the space list (collections only when a parent is written);
 * - Site: the site list, the space list (space names), and per managed site its sections, its section groups
 *   (when the manifest writes them) and its site spaces.
 * Lists shared by several kinds count once.
 */
import type { ListNeed } from './bounds.js';
import type { GenOrg } from './org-model.js';

export function planNeeds(org: GenOrg, kinds: ReadonlySet<string>): ListNeed[] {
  const needs = new Map<string, ListNeed>();
  const need = (n: ListNeed): void => void (needs.has(n.name) ? undefined : needs.set(n.name, n));
  if (kinds.has('Organization')) need({ name: 'organization', items: 1, single: true });
  if (kinds.has('Members') || kinds.has('Team')) need({ name: 'members', items: org.members.length });
  if (kinds.has('Team')) {
    need({ name: 'teams', items: org.teams.length });
    for (const t of org.teams) need({ name: `team ${t.id} members`, items: t.members.length, after: 'teams' });
  }
  if (kinds.has('Translation') && org.translations.length > 0)
    need({ name: 'translations', items: org.translations.length });
  if ((kinds.has('Space') && org.spaces.length > 0) || (kinds.has('Site') && org.sites.length > 0))
    need({ name: 'spaces', items: org.spaces.length });
  if (kinds.has('Site') && org.sites.length > 0) {
    need({ name: 'sites', items: org.sites.length });
    for (const s of org.sites) {
      const siteSpaces = s.sections.reduce((n, x) => n + x.spaces.length, 0);
      need({ name: `site ${s.id} sections`, items: s.sections.length, after: 'sites' });
      if (s.group) need({ name: `site ${s.id} section-groups`, items: 1, after: 'sites' });
      need({ name: `site ${s.id} site-spaces`, items: siteSpaces, after: 'sites' });
    }
  }
  return [...needs.values()];
}

/**
 * The tighter bound: a site's sections list already carries each section's site spaces, so a site with
 * sections needs no separate site-spaces list (docops reads it because the contract does not mark the
 * embedded array as required).
 */
export function strictPlanNeeds(org: GenOrg, kinds: ReadonlySet<string>): ListNeed[] {
  const withSections = new Set(org.sites.filter((s) => s.sections.length > 0).map((s) => `site ${s.id} site-spaces`));
  return planNeeds(org, kinds).filter((n) => !withSections.has(n.name));
}

/** Per-resource refresh (one GET per managed object, as Terraform providers do), by object type. */
export function refreshBaseline(org: GenOrg, kinds: ReadonlySet<string>): Record<string, number> {
  const out: Record<string, number> = {};
  if (kinds.has('Organization')) out['organization'] = 1;
  if (kinds.has('Members')) out['members'] = org.members.length;
  if (kinds.has('Team')) {
    out['teams'] = org.teams.length;
    out['teamMemberships'] = org.teams.reduce((n, t) => n + t.members.length, 0);
  }
  if (kinds.has('Translation')) out['translations'] = org.translations.length;
  if (kinds.has('Space')) out['spaces'] = org.spaces.length;
  if (kinds.has('Site')) {
    out['sites'] = org.sites.length;
    out['sections'] = org.sites.reduce((n, s) => n + s.sections.length, 0);
    out['sectionGroups'] = org.sites.filter((s) => s.group).length;
    out['siteSpaces'] = org.sites.reduce((n, s) => n + s.sections.reduce((m, x) => m + x.spaces.length, 0), 0);
  }
  return out;
}
