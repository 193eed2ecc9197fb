/**
 * SamlProvider export: one document per provider, sorted by label then id, its id pinned, values the API leaves
 * unset omitted, `defaultTeam` by its title when no other team has it (else by id). The certificate goes to a file
 * next to the manifest, `saml/<label slug>.pem` (`-2`, `-3` … when slugs collide): the document holds
 * `{file, text}` and the writer (export's, undo's) writes `text` to that file and keeps `{file}`
 * (src/manifests/attachments.ts).
 */
import { manifestDoc } from '../common.js';
import { SAML_KIND, type SamlAux, type SamlObject, type SamlState } from './model.js';

/** `Okta (EU)` → `okta-eu`. */
function slug(label: string): string {
  const s = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s === '' ? 'provider' : s;
}

/** How a document names a provider's default team. */
function teamName(o: SamlObject, aux: SamlAux | undefined): string | undefined {
  const team = o.fields.defaultTeam;
  if (!team) return undefined;
  const undo = aux?.undoTeams?.[o.id];
  if (undo !== undefined) return undo;
  const teams = aux?.teams ?? [];
  const unique = teams.filter((t) => t.title === team.title).length === 1 && !teams.some((t) => t.id === team.title);
  return unique ? team.title : team.id;
}

export function exportSaml(org: string, live: SamlState): object[] {
  const used = new Set<string>();
  return [...live.objects]
    .sort((a, b) => a.key.localeCompare(b.key) || a.id.localeCompare(b.id))
    .map((o) => {
      const f = o.fields;
      const spec: Record<string, unknown> = { label: f.label, id: o.id };
      if (f.entityID !== '') spec['entityID'] = f.entityID;
      if (f.ssoURL !== '') spec['ssoURL'] = f.ssoURL;
      const text = live.aux?.certificates?.[o.id] ?? '';
      if (text.trim() !== '') {
        let name = slug(f.label);
        for (let n = 2; used.has(name); n++) name = `${slug(f.label)}-${n}`;
        used.add(name);
        spec['certificate'] = { file: `saml/${name}.pem`, text: text.endsWith('\n') ? text : `${text}\n` };
      }
      const team = teamName(o, live.aux);
      if (team !== undefined) spec['defaultTeam'] = team;
      if (f.defaultRole !== null) spec['defaultRole'] = f.defaultRole;
      return manifestDoc(SAML_KIND, org, spec);
    });
}
