/**
 * SamlProvider: the SAML identity providers of an organization. Identity by label, or a pinned id (which allows
 * renaming). The certificate may be written inline, through `${VAR}`, or as `{file: certs/idp.pem}` next to the
 * manifest; it is compared by fingerprint and never shown (src/kinds/certificate.ts). The diff lives in diff.ts; this file
 * holds the manifest side and fetching.
 */
import type { DesiredEntry, FetchContext, KindDefinition, Report } from '../../model/kind.js';
import type { ManifestDocument } from '../../model/document.js';
import { samlproviderSchema, type SamlProviderManifestSpec } from '../generated/samlprovider.js';
import { mustExistLive, namesManifest } from '../manifest-refs.js';
import { identifiedEntry } from '../match.js';
import { teamsPath } from '../team/model.js';
import { certificateDer, certificateFingerprint, certificateText } from '../certificate.js';
import { diffSaml } from './diff.js';
import { exportSaml } from './export.js';
import {
  SAML_DEPTH,
  SAML_KIND,
  samlObject,
  samlPath,
  teamRef,
  type SamlAux,
  type SamlCertificate,
  type SamlObject,
  type SamlSpec,
  type SamlState,
  type TeamRef,
} from './model.js';
import { samlUndo, snapshotSaml } from './snapshot.js';
import { samlInformer } from './informer.js';
import type { CrossValidate } from '../common.js';

/** The API's limit on a certificate, in characters. */
export const CERTIFICATE_MAX = 10000;
/**
 * The largest certificate file read: room for the API's 10,000 characters several times over (line endings,
 * whitespace around the PEM blocks), so only a file that cannot be a certificate is refused unread; what is read
 * is then held to the API's limit in characters (readCertificate).
 */
export const CERTIFICATE_FILE_MAX_BYTES = 64 * 1024;

/**
 * The certificate as written: a string (inline or `${VAR}`: the schema checked its length), or what the loader
 * made of `{file}` (`{file, text, sha256}`; export's documents carry `{file, text}`), whose length is checked here.
 */
function readCertificate(doc: ManifestDocument<SamlProviderManifestSpec>, report: Report): SamlCertificate | undefined {
  const raw = doc.spec.certificate;
  if (typeof raw === 'string') {
    const text = certificateText(raw);
    return { text, fingerprint: certificateFingerprint(text) };
  }
  // `text` is what the loader added to the `{file}` the schema checked.
  if (raw === undefined || !('text' in raw) || typeof raw.text !== 'string') return undefined;
  const file = raw.file;
  const text = certificateText(raw.text);
  const length = [...text].length;
  if (length > CERTIFICATE_MAX) {
    report(
      doc.pos(['spec', 'certificate', 'file']),
      `certificate file "${file}" holds ${length} characters; the API takes at most ${CERTIFICATE_MAX}`,
    );
  }
  return { text, fingerprint: certificateFingerprint(text), file };
}

function toDesired(doc: ManifestDocument<SamlProviderManifestSpec>, report: Report): DesiredEntry<SamlSpec>[] {
  const { certificate: _written, ...written } = doc.spec;
  const certificate = readCertificate(doc, report);
  const spec: SamlSpec = certificate ? { ...written, certificate } : written;
  return [identifiedEntry(SAML_KIND, doc, spec, spec.label)];
}

/**
 * A defaultTeam naming no Team manifest must name a live team (a warning offline; plan blocks the provider
 * otherwise), and a certificate that holds no certificate is sent and compared as text (a warning). Duplicate
 * labels and pinned ids are checked generically by the loader.
 */
const crossValidate: CrossValidate<SamlSpec> = (entries, all, _report, index, warn) => {
  if (!warn) return;
  const known = namesManifest(all, 'Team', index);
  for (const e of entries) {
    const team = e.spec.defaultTeam;
    if (team !== undefined && !known(e.org, team))
      warn(e.doc.pos(['spec', 'defaultTeam']), mustExistLive('defaultTeam', team, 'Team', e.org));
    const cert = e.spec.certificate;
    if (cert && cert.text !== '' && certificateDer(cert.text) === undefined) {
      const at = cert.file !== undefined ? ['spec', 'certificate', 'file'] : ['spec', 'certificate'];
      warn(
        e.doc.pos(at),
        'certificate holds neither PEM blocks nor the base64 of a DER certificate: it is sent as written and compared as text',
      );
    }
  }
};

/** The providers, and the teams when a document names a default team. */
async function fetch(ctx: FetchContext, org: string, desired: DesiredEntry<SamlSpec>[]): Promise<SamlState> {
  const namesTeam = desired.some((e) => e.spec.defaultTeam !== undefined);
  const [items, teamItems] = await Promise.all([
    ctx.list(samlPath(org)),
    namesTeam ? ctx.list(teamsPath(org)) : Promise.resolve(undefined),
  ]);
  const objects: SamlObject[] = [];
  const certificates: Record<string, string> = {};
  for (const item of items) {
    const read = samlObject(org, item);
    if (!read) continue;
    objects.push(read.object);
    certificates[read.object.id] = read.certificate;
  }
  const aux: SamlAux = { certificates };
  if (teamItems) aux.teams = teamItems.map(teamRef).filter((t): t is TeamRef => t !== null);
  return { objects, aux };
}

export const samlKind: KindDefinition<SamlSpec, SamlObject, SamlAux, SamlProviderManifestSpec> = {
  kind: SAML_KIND,
  identity: 'label, or the pinned spec.id (which allows renaming)',
  fileFields: [
    {
      path: ['certificate'],
      holds: 'a certificate',
      maxBytes: CERTIFICATE_FILE_MAX_BYTES,
      limitReason: `the API takes a certificate of at most ${CERTIFICATE_MAX} characters`,
    },
  ],
  schema: samlproviderSchema,
  depth: SAML_DEPTH,
  // The API's MemberRoleOrGuest: members signing in through it become guests.
  nullMeanings: { SamlProvider: { defaultRole: 'guest' } },
  // defaultTeam may name a Team manifest by title: diff after Team so its id (or create ref) is registered.
  needs: ['Team'],
  // Scoped reconciles: `needs` says it all (reads Team's ids and live teams, affected by Team's plan).
  scope: {},
  toDesired,
  crossValidate,
  fetch,
  diff: diffSaml,
  export: (org, live) => exportSaml(org, live),
  snapshot: snapshotSaml,
  undo: samlUndo,
  informer: samlInformer,
};
