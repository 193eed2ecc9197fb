/**
 * Access lists in exported documents (and in undo's, which are exports of journal snapshots): for each object
 * whose grants were read, `access:` with teams first, then members, each sorted by name. A team is named by its
 * title when no other team of the organization has it (when the team list was read; else when its title is
 * not empty), else by id; a member by e-mail. A snapshot's grants to a team undo recreates name it by title
 * (`relinkAccess`): its new id is known only after apply.
 */
import type { UndoRefs } from '../../model/kind.js';
import type { AccessAux, LiveGrant } from './model.js';

function teamNamer(aux: AccessAux): (g: LiveGrant) => string {
  const teams = aux.accessTeams;
  if (!teams) return (g) => (g.name !== '' ? g.name : g.id);
  const count = new Map<string, number>();
  for (const t of teams) count.set(t.title, (count.get(t.title) ?? 0) + 1);
  return (g) => (g.name !== '' && count.get(g.name) === 1 ? g.name : g.id);
}

const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The `access:` list of an object (undefined when its grants were not read). */
export function exportAccess(aux: AccessAux | undefined, objectId: string): Record<string, unknown>[] | undefined {
  const grants = aux?.access?.[objectId];
  if (!aux || !grants) return undefined;
  const name = teamNamer(aux);
  const teams = grants
    .filter((g) => g.principal === 'team')
    .map((g) => ({ name: name(g), role: g.role }))
    .sort(byName)
    .map((t) => ({ team: t.name, role: t.role }));
  // A member the API showed without an e-mail cannot be written: it is left out (the next plan would remove it).
  const users = grants
    .filter((g) => g.principal === 'user' && g.name !== '')
    .sort(byName)
    .map((g) => ({ email: g.name, role: g.role }));
  return [...teams, ...users];
}

/** `{access: […]}` to spread into an exported spec, or nothing. */
export function accessSpec(aux: AccessAux | undefined, objectId: string): { access?: Record<string, unknown>[] } {
  const access = exportAccess(aux, objectId);
  return access ? { access } : {};
}

/**
 * A snapshot's access aux for undo's documents: grants to a team undo recreates name it by title (its key), and
 * the grants of objects undo restores are dropped — a restored object keeps its grants (a deleted space keeps
 * them until it is purged), and an `access:` list would make the plan read the permissions of an object that is
 * not restored yet. `fate` tells whether the object with that id is restored.
 */
export function relinkAccess<A extends AccessAux>(
  org: string,
  aux: A | undefined,
  restored: (objectId: string) => boolean,
  refs: UndoRefs,
): A | undefined {
  if (!aux?.access) return aux;
  const access: Record<string, LiveGrant[]> = {};
  for (const [objectId, grants] of Object.entries(aux.access)) {
    if (restored(objectId)) continue;
    access[objectId] = grants.map((g) => {
      if (g.principal !== 'team') return g;
      const title = refs.recreated('Team', org, g.id);
      return title === undefined ? g : { ...g, id: title, name: title };
    });
  }
  return { ...aux, access };
}

/**
 * What a restore does not bring back of an object's grants: those of teams and members the journal holds too
 * (their delete took their grants; undo recreates the team with a new id, invites the member again).
 */
export function restoreLosses(org: string, aux: AccessAux | undefined, objectId: string, refs: UndoRefs): string[] {
  return (aux?.access?.[objectId] ?? []).flatMap((g) => {
    const kind = g.principal === 'team' ? 'Team' : 'Members';
    if (refs.fate(kind, org, g.id) === undefined) return [];
    const who = g.principal === 'team' ? `team "${g.name || g.id}"` : `member ${g.name || g.id}`;
    return [
      `its grant to ${who} (${g.role ?? 'no access'}) is not restored: that ${g.principal === 'team' ? 'team' : 'member'} was deleted too; list it in the access of its manifest again`,
    ];
  });
}
