/**
 * The manifest side of access lists: a schema-valid `spec.access` → AccessEntry[], duplicates reported at the
 * second occurrence, and the checks across documents (members must be organization members; a team must exist,
 * and must not be one a pruning Team manifest set would delete).
 */
import type { DesiredEntry, IdentityLookup, Report } from '../../core/kind.js';
import type { ManifestDocument } from '../../manifests/document.js';
import { isRecord } from '../common.js';
import { mustExistLive, namesManifest } from '../manifest-refs.js';
import { isAccessRole, type AccessEntry, type GrantRole } from './model.js';

/** A role as the schema lets it through: a role name, or null (a site's override without access). */
const roleOf = (v: unknown): GrantRole => (isAccessRole(v) ? v : null);

/**
 * `spec.access` of a schema-valid document (undefined: not written, so not managed). An entry naming a team or
 * an e-mail a second time is reported (when `report` is given) and left out.
 */
export function parseAccess(doc: ManifestDocument, report?: Report): AccessEntry[] | undefined {
  const raw = doc.spec['access'];
  if (!Array.isArray(raw)) return undefined;
  const out: AccessEntry[] = [];
  const seen = new Map<string, number>();
  raw.forEach((item: unknown, i) => {
    if (!isRecord(item)) return;
    const role = roleOf(item['role']);
    let entry: AccessEntry;
    if (typeof item['team'] === 'string') entry = { principal: 'team', name: item['team'], role, at: ['spec', 'access', i, 'team'] };
    else if (typeof item['email'] === 'string') entry = { principal: 'user', name: item['email'].toLowerCase(), role, at: ['spec', 'access', i, 'email'] };
    else return;
    const label = `${entry.principal === 'team' ? 'team' : 'e-mail'} "${entry.name}"`;
    const first = seen.get(`${entry.principal}:${entry.name}`);
    if (first !== undefined) {
      report?.(doc.pos(entry.at), `${label} is listed twice in access (first at access[${first}])`);
      return;
    }
    seen.set(`${entry.principal}:${entry.name}`, i);
    out.push(entry);
  });
  return out;
}

/** The access list of any kind's entry (ctx.desired hands them with their spec's type forgotten): parsed again from its document. */
export function accessOf(entry: DesiredEntry): AccessEntry[] | undefined {
  return parseAccess(entry.doc);
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
    if (p === undefined) pruning.set(org, (p = (all.get('Team') ?? []).some((t) => t.org === org && t.doc.prune === true)));
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
        if (members && !members.has(a.name)) report(pos, `${a.name} is not listed in the Members documents of organization ${e.org}; access lists name organization members`);
        continue;
      }
      if (knownTeam(e.org, a.name)) continue;
      if (teamsPrune(e.org)) report(pos, `team "${a.name}" is not in the Team manifests of ${e.org}, which prune every other team`);
      else warn?.(pos, mustExistLive('team', a.name, 'Team', e.org));
    }
  }
}
