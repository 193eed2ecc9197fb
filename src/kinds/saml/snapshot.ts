/**
 * SamlProvider in the delete journal and in undo. The snapshot reads the provider right before its delete: its
 * fields (the certificate as a fingerprint, like everywhere a provider is shown), and beside them, in `aux`, what
 * undo needs to bring it back — the certificate text (public: the IdP publishes it in its metadata; the journal is
 * a 0600 file, never printed) and the service-provider side, which a recreated provider does not keep.
 *
 * Undo recreates the provider from a document like export's — the certificate in a file beside it — with the
 * default team by the title of a team undo recreates, else by id.
 */
import type { FetchContext, KindUndo, Snapshot, UndoLoss, UndoRefs } from '../../model/kind.js';
import { exportSaml } from './export.js';
import {
  SAML_KIND,
  samlObject,
  samlProviderPath,
  serviceOf,
  type SamlAux,
  type SamlObject,
  type SamlState,
} from './model.js';

export async function snapshotSaml(ctx: FetchContext, object: SamlObject): Promise<Snapshot> {
  const item = await ctx.get<unknown>(samlProviderPath(object.org, object.id));
  const read = samlObject(object.org, item);
  const fresh = read ? { ...read.object, key: object.key } : object;
  const aux: SamlAux = {
    certificates: { [object.id]: read?.certificate ?? '' },
    service: { [object.id]: serviceOf(item) },
    teams: fresh.fields.defaultTeam ? [fresh.fields.defaultTeam] : [],
  };
  const part: SamlState = { objects: [fresh], aux };
  return { [SAML_KIND]: part };
}

/** A default team undo recreates is named by its title (its new id is known only after apply); any other by id. */
function relink(org: string, state: SamlState, refs: UndoRefs): SamlState {
  const undoTeams: Record<string, string> = {};
  for (const o of state.objects) {
    const team = o.fields.defaultTeam;
    if (team) undoTeams[o.id] = refs.recreated('Team', org, team.id) ?? team.id;
  }
  return { ...state, aux: { ...state.aux, undoTeams } };
}

function documents(org: string, state: SamlState): object[] {
  return exportSaml(org, state);
}

function losses(org: string, state: SamlState, refs: UndoRefs): UndoLoss[] {
  return state.objects
    .filter((o) => refs.fate(SAML_KIND, org, o.id)?.state !== 'live')
    .map((o) => {
      const s = state.aux?.service?.[o.id] ?? {};
      const urls = [
        s.acsURL !== undefined ? `ACS URL ${s.acsURL}` : undefined,
        s.entityID !== undefined ? `entity ID ${s.entityID}` : undefined,
      ].filter((x) => x !== undefined);
      return {
        key: o.key,
        id: o.id,
        message:
          `its service-provider side changes with the new id${urls.length > 0 ? ` (was ${urls.join(', ')})` : ''}: ` +
          'configure the identity provider with the new ACS URL and entity ID (shown in the app) before anyone signs in through it',
      };
    });
}

export const samlUndo: KindUndo<SamlObject, SamlAux> = { relink, documents, losses };
