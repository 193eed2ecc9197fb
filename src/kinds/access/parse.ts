/**
 * The manifest side of access lists: a schema-valid `spec.access` → AccessEntry[], duplicates reported at the
 * second occurrence, and the checks across documents (members must be organization members; a team must exist,
 * and must not be one a pruning Team manifest set would delete).
 */
import type { DesiredEntry, IdentityLookup, Report } from '../../model/kind.js';
import type { ManifestDocument } from '../../model/document.js';
import { mustExistLive, namesManifest } from '../manifest-refs.js';
import type { AccessEntry, GrantRole, WithAccessEntries } from './model.js';

/** An `access:` list as the Collection, Space and Site schemas write it (only a site's roles may be null). */
type WrittenAccess = readonly ({ team: string; role: GrantRole } | { email: string; role: GrantRole })[];

/** The lists parseAccess read, by document: how another kind reads an entry's list (accessOf). */
const parsed = new WeakMap<object, AccessEntry[]>();

/**
 * `spec.access` of a schema-valid document (undefined: not written, so not managed). An entry naming a team or
 * an e-mail a second time is reported (when `report` is given) and left out.
 */
export function parseAccess(
  doc: ManifestDocument<{ access?: WrittenAccess }>,
  report?: Report,
): AccessEntry[] | undefined {
  const written = doc.spec.access;
  if (written === undefined) return undefined;
  const out: AccessEntry[] = [];
  const seen = new Map<string, number>();
  written.forEach((item, i) => {
    const entry: AccessEntry =
      'team' in item
        ? { principal: 'team', name: item.team, role: item.role, at: ['spec', 'access', i, 'team'] }
        : { principal: 'user', name: item.email.toLowerCase(), role: item.role, at: ['spec', 'access', i, 'email'] };
    const label = `${entry.principal === 'team' ? 'team' : 'e-mail'} "${entry.name}"`;
    const first = seen.get(`${entry.principal}:${entry.name}`);
    if (first !== undefined) {
      report?.(doc.pos(entry.at), `${label} is listed twice in access (first at access[${first}])`);
      return;
    }
    seen.set(`${entry.principal}:${entry.name}`, i);
    out.push(entry);
  });
  parsed.set(doc, out);
  return out;
}

/** A document's spec as written, with its `access:` list read by parseAccess. */
export function withAccessEntries<T extends { access?: WrittenAccess }>(
  doc: ManifestDocument<T>,
  report?: Report,
): WithAccessEntries<T> {
  const { access: _written, ...spec } = doc.spec;
  const access = parseAccess(doc, report);
  return access === undefined ? spec : { ...spec, access };
}

/** The access list of any kind's entry (ctx.desired hands them with their spec's type forgotten), as its kind read it. */
export function accessOf(entry: DesiredEntry): AccessEntry[] | undefined {
  return parsed.get(entry.doc);
}

/**
 * Checks across documents, for the entries of one kind that may write `access`:
 * - an e-mail must be listed in the organization's Members documents when it has any (an error: a grant goes to
 *   an organization member); without any, one warning per document (each must be a member live);
 * - a team that names no Team manifest (title or pinned id) is an error when the organization's Team documents
 *   prune (that team would be deleted), else a warning (it must exist live).
 */
export function crossValidateAccess(
  entries: readonly DesiredEntry<{ access?: AccessEntry[] }>[],
  all: ReadonlyMap<string, DesiredEntry[]>,
  report: Report,
  index: IdentityLookup,
  warn?: Report,
): void {
  const knownTeam = namesManifest(all, 'Team', index);
  const pruning = new Map<string, boolean>();
  const teamsPrune = (org: string): boolean => {
    let p = pruning.get(org);
    if (p === undefined)
      pruning.set(org, (p = (all.get('Team') ?? []).some((t) => t.org === org && t.doc.prune === true)));
    return p;
  };
  for (const e of entries) {
    const access = e.spec.access ?? [];
    const members = index.keys('Members', e.org);
    const emails = access.filter((a) => a.principal === 'user');
    if (!members && emails.length > 0) {
      warn?.(
        e.doc.pos(emails[0]!.at),
        `access names members by e-mail, and organization ${e.org} has no Members documents: each must be an organization member live, else plan blocks this document`,
      );
    }
    for (const a of access) {
      const pos = e.doc.pos(a.at);
      if (a.principal === 'user') {
        if (members && !members.has(a.name))
          report(
            pos,
            `${a.name} is not listed in the Members documents of organization ${e.org}; access lists name organization members`,
          );
        continue;
      }
      if (knownTeam(e.org, a.name)) continue;
      if (teamsPrune(e.org))
        report(pos, `team "${a.name}" is not in the Team manifests of ${e.org}, which prune every other team`);
      else warn?.(pos, mustExistLive('team', a.name, 'Team', e.org));
    }
  }
}
