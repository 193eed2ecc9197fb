/** Shapes of the SamlProvider kind shared by its manifest side (kind.ts), diff, export and snapshot. */
import type { LiveKindState, LiveObject } from '../../model/kind.js';
import { isRecord, orgPath, seg } from '../common.js';
import type { SamlProviderManifestSpec } from '../generated/samlprovider.js';
import { certificateFingerprint } from '../certificate.js';

export const SAML_KIND = 'SamlProvider';
/** After teams (20, their member step 21): a provider names its default team by id. */
export const SAML_DEPTH = 22;

/** A certificate as a manifest gives it: the text to send, where it came from, and what plans show. */
export interface SamlCertificate {
  /** Trimmed, line endings as LF (certificateText). */
  text: string;
  /** The file it was read from, relative to the manifest (absent: written inline or through `${VAR}`). */
  file?: string;
  /** certificateFingerprint of the text. */
  fingerprint: string;
}

/** The spec as written (`defaultTeam`: a Team manifest title, a live team title or a team id), with its certificate read. */
export type SamlSpec = Omit<SamlProviderManifestSpec, 'certificate'> & { certificate?: SamlCertificate };

export interface TeamRef {
  id: string;
  title: string;
}

export interface SamlFields {
  label: string;
  /** '' until set (the API answers "" for a provider created with a label only). */
  entityID: string;
  ssoURL: string;
  /** The certificate's fingerprint ('' when none); its text is kept in aux.certificates, never in the fields. */
  certificate: string;
  /** Absent in the API's answer when none is set or the team was deleted since. */
  defaultTeam: TeamRef | null;
  /** As the API answers it: a member role, null (none), or a newer API's role kept as it is (never read as none). */
  defaultRole: string | null;
}

export type SamlObject = LiveObject<SamlFields>;

/** What the service-provider side of a provider is (the platform's URLs the IdP is configured with). */
export interface SamlService {
  acsURL?: string;
  entityID?: string;
}

/** Lookup data of the diff and export, and what a journal snapshot keeps beside the providers. */
export interface SamlAux {
  /**
   * Provider id → the certificate text as the API answers it: export writes it to a file and undo sends it again;
   * plans, logs and the journal's `fields` only ever show the fingerprint.
   */
  certificates?: Record<string, string>;
  /** The organization's teams, read when a document writes defaultTeam (export: to name a team by a unique title). */
  teams?: TeamRef[];
  /** Snapshot: provider id → its service-provider side, which a recreated provider does not keep. */
  service?: Record<string, SamlService>;
  /** Undo (relink): provider id → how its document names its default team (a recreated team's title, else the id). */
  undoTeams?: Record<string, string>;
}

export type SamlState = LiveKindState<SamlObject, SamlAux>;

export const samlPath = (org: string): string => `${orgPath(org)}/saml`;
export const samlProviderPath = (org: string, id: string): string => `${samlPath(org)}/${seg(id)}`;

export function teamRef(v: unknown): TeamRef | null {
  return isRecord(v) && typeof v['id'] === 'string'
    ? { id: v['id'], title: typeof v['title'] === 'string' ? v['title'] : v['id'] }
    : null;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
/**
 * The answer's `ssoURL`, '' when none is set. The spec requires a URI there even before one is set, so the sandbox
 * answers `about:blank` (a URI that names nothing) for a provider created with a label only; '' reads the same.
 */
const ssoUrl = (v: unknown): string => (v === 'about:blank' ? '' : text(v));

/** A SAML provider as the API answers it → the live object, and its certificate text (kept apart: see SamlAux). */
export function samlObject(org: string, item: unknown): { object: SamlObject; certificate: string } | undefined {
  if (!isRecord(item) || typeof item['id'] !== 'string' || typeof item['label'] !== 'string') return undefined;
  const certificate = text(item['certificate']);
  const fields: SamlFields = {
    label: item['label'],
    entityID: text(item['entityID']),
    ssoURL: ssoUrl(item['ssoURL']),
    certificate: certificateFingerprint(certificate),
    defaultTeam: teamRef(item['defaultTeam']),
    defaultRole: typeof item['defaultRole'] === 'string' ? item['defaultRole'] : null,
  };
  return { object: { kind: SAML_KIND, org, key: item['label'], id: item['id'], fields }, certificate };
}

export function serviceOf(item: unknown): SamlService {
  const s = isRecord(item) && isRecord(item['service']) ? item['service'] : {};
  const out: SamlService = {};
  if (typeof s['acsURL'] === 'string') out.acsURL = s['acsURL'];
  if (typeof s['entityID'] === 'string') out.entityID = s['entityID'];
  return out;
}
