/**
 * Stored SAML providers of organizations. `ssoURL`, `entityID` and `certificate` are stored as written and
 * empty until set (the response schema requires all three); a provider with all three set is `active`. An unset
 * `ssoURL` is answered as UNSET_SSO_URL: the spec requires a URI there, and "" is none.
 * `defaultTeam` is the team id as written; a team deleted later is no longer shown (see routes/saml.ts).
 */
import type { MemberRole } from './records.js';
import type { SandboxStore, Table } from './store.js';

export interface SamlProviderRec {
  id: string;
  orgId: string;
  label: string;
  ssoURL: string;
  entityID: string;
  certificate: string;
  defaultTeam?: string;
  defaultRole: MemberRole | null;
  createdAt: string;
}

/** What a provider answers as its `ssoURL` before one is set: a URI that names nothing. */
export const UNSET_SSO_URL = 'about:blank';

export const samlProviders = (s: SandboxStore): Table<SamlProviderRec> => s.table('samlProviders');

/** Usable for logging in: the identity provider's URL, entity id and certificate are all known. */
export const isSamlActive = (p: SamlProviderRec): boolean =>
  p.ssoURL !== '' && p.entityID !== '' && p.certificate !== '';
