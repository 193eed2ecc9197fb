/**
 * Site in the delete journal and in undo. A site's delete takes its sections, section groups, site spaces,
 * share links, adaptive schema and customization along; the snapshot reads all of them through the Site fetch,
 * as export does (a probe entry pinned to the site that writes every field: also its redirects and sign-in settings,
 * and its `published` flag comes with the site), plus what the fetch does not keep but undo must report: its custom
 * hostname and type, and whether it was the
 * organization's default content. Share links are kept by name and active flag only: their URLs carry the
 * secret, which a recreated link never gets back. Its grants go with it: the snapshot reads them, and the
 * recreated site gets them back through its `access:` list.
 */
import type {
  DesiredEntry,
  FetchContext,
  KindUndo,
  LiveObject,
  Snapshot,
  UndoLoss,
  UndoRefs,
} from '../../model/kind.js';
import type { ManifestDocument } from '../../model/document.js';
import { relinkAccess } from '../access/export.js';
import { snapshotAccess } from '../access/snapshot.js';
import { isRecord, orgPath } from '../common.js';
import { titledEntry } from '../match.js';
import type { SiteManifestSpec } from '../generated/site.js';
import { parseSiteSpec } from './desired.js';
import { fetchSites } from './fetch.js';
import { PUBLICATION_KIND, REDIRECT_KIND } from './live-model.js';
import {
  EMPTY_ADAPTIVE_SCHEMA,
  SITE_KIND,
  sitePath,
  type SiteAux,
  type SiteExtras,
  type SiteSpec,
  type SiteState,
  type SiteStateObject,
  type SiteStructure,
  SITE_ACCESS,
} from './model.js';

/** A desired entry pinned to the site, from a document that writes every structural field, so the fetch reads all of them. */
function probeEntry(object: LiveObject): DesiredEntry<SiteSpec> {
  const file = `(journal snapshot of site ${object.id})`;
  const doc: ManifestDocument<SiteManifestSpec> = {
    file,
    index: 0,
    apiVersion: 'docops/v1',
    kind: SITE_KIND,
    metadata: { organization: object.org },
    spec: {
      title: object.key,
      id: object.id,
      sections: [],
      sectionGroups: [],
      spaces: [],
      shareLinks: [],
      adaptiveSchema: EMPTY_ADAPTIVE_SCHEMA,
      customization: {},
      redirects: [],
      publishingAuth: {},
      externalLinks: [],
    },
    pos: () => ({ file, line: 1, column: 1 }),
  };
  return titledEntry(SITE_KIND, doc, parseSiteSpec(doc));
}

export async function snapshotSite(ctx: FetchContext, object: SiteStateObject): Promise<Snapshot> {
  const [state, raw, org, access] = await Promise.all([
    fetchSites(ctx, object.org, [probeEntry(object)]),
    ctx.get<unknown>(sitePath(object.org, object.id)),
    ctx.get<unknown>(orgPath(object.org)),
    snapshotAccess(ctx, object.org, SITE_ACCESS, [object.id]),
  ]);
  const site = state.objects.find((o) => o.kind === SITE_KIND && o.id === object.id);
  if (!site) throw new Error(`site ${object.id} is not in the sites list of ${object.org}`);
  const aux = state.aux;
  const r = isRecord(raw) ? raw : {};
  const content = isRecord(org) && isRecord(org['defaultContent']) ? org['defaultContent'] : {};
  const extras: SiteExtras = {
    published: r['published'] === true,
    hostname: typeof r['hostname'] === 'string' ? r['hostname'] : null,
    type: typeof r['type'] === 'string' ? r['type'] : null,
    defaultContent: content['site'] === object.id,
  };
  const part: SiteAux = {
    structures: { [object.id]: aux.structures[object.id]! },
    spaces: aux.spaces,
    extras: { [object.id]: extras },
    ...access,
  };
  const snapshot: SiteState = { objects: [site], aux: part };
  return { [SITE_KIND]: snapshot };
}

/**
 * Site spaces of spaces undo recreates name them by title: their new ids are known only after apply; so do the
 * grants to teams undo recreates (sites are always recreated, so every grant is listed).
 */
function relink(org: string, state: SiteState, refs: UndoRefs): SiteState {
  const aux = relinkAccess(org, state.aux, () => false, refs);
  if (!aux?.structures) return aux === state.aux ? state : { ...state, aux };
  const structures: Record<string, SiteStructure> = {};
  for (const [id, s] of Object.entries(aux.structures)) {
    structures[id] = {
      ...s,
      siteSpaces: s.siteSpaces.map((ss) => ({
        ...ss,
        spaceId: refs.recreated('Space', org, ss.spaceId) ?? ss.spaceId,
      })),
    };
  }
  return { ...state, aux: { ...aux, structures } };
}

/** Share links and groups a manifest cannot name (site export leaves them out), by the same rules. */
function unexpressible(s: SiteStructure): string[] {
  const out: string[] = [];
  const links = new Map<string, number>();
  for (const l of s.shareLinks ?? []) links.set(l.name, (links.get(l.name) ?? 0) + 1);
  for (const l of s.shareLinks ?? []) {
    if (l.name === '' || links.get(l.name)! > 1)
      out.push(
        `share link ${l.id} is not recreated: a manifest names share links by a unique, non-empty name ("${l.name}")`,
      );
  }
  const groups = s.groups.filter((g) => g.sections.length > 0);
  if (s.sections.length > 0 && new Set(groups.map((g) => g.title)).size !== groups.length)
    out.push('its section groups are not recreated: two of them share a title');
  for (const g of s.groups.filter((x) => x.sections.length === 0))
    out.push(`section group "${g.title}" is not recreated: it had no sections`);
  return out;
}

function losses(_org: string, state: SiteState): UndoLoss[] {
  const aux = state.aux;
  const out: UndoLoss[] = [];
  for (const o of state.objects.filter((x) => x.kind === SITE_KIND)) {
    const at = { key: o.key, id: o.id };
    const s = aux?.structures?.[o.id];
    for (const l of s?.shareLinks ?? []) {
      if (l.name === '') continue;
      out.push({
        ...at,
        message: `share link "${l.name}" is recreated with a new secret URL: the old URL no longer works; share the new one (shown in the app)`,
      });
    }
    if (s) for (const m of unexpressible(s)) out.push({ ...at, message: m });
    const x = aux?.extras?.[o.id];
    if (!x) continue;
    if (o.fields.visibility === 'visitor-auth') {
      out.push({
        ...at,
        message:
          'its visitor sign-in private key does not come back: the recreated site has a new one; give your sign-in backend the new key (and write it where the manifest reads privateKey)',
      });
    }
    if (x.hostname !== null)
      out.push({
        ...at,
        message: `its custom hostname "${x.hostname}" cannot be set through the API; set it again in the app`,
      });
    if (x.type !== null && x.type !== 'basic')
      out.push({
        ...at,
        message: `was a "${x.type}" site; docops does not manage the site type, so it is recreated as "basic"`,
      });
    if (x.defaultContent) {
      out.push({
        ...at,
        message: `was the organization's default content: the organization still names the old id; set defaultContent: { type: site, site: "${o.key}" } in its Organization manifest`,
      });
    }
  }
  return out;
}

/**
 * A rule removed from a site's list, or a site unpublished, on its own: what to write to bring it back (its site
 * stays, so undo writes no document for it: a Site document would replace the site's whole list).
 */
function loose(o: LiveObject): string | undefined {
  const f = isRecord(o.fields) ? o.fields : {};
  if (o.kind === REDIRECT_KIND) {
    const { source, destination, permanent, captureWildcard, draft } = f;
    const rule = {
      source,
      destination,
      ...(permanent === true ? { permanent } : {}),
      ...(captureWildcard === true ? { captureWildcard } : {}),
      ...(draft === true ? { draft } : {}),
    };
    return `a redirect rule is part of its site's list, which undo does not rewrite: add ${JSON.stringify(rule)} back to the redirects of its Site manifest`;
  }
  if (o.kind === PUBLICATION_KIND)
    return `write published: true in the Site manifest of "${String(f['site'] ?? o.key)}" to publish it again`;
  return undefined;
}

export const siteUndo: KindUndo<SiteStateObject, SiteAux> = { relink, losses, loose };
