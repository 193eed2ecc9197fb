// Generated from schemas/samlprovider.schema.json by tools/build/spec-types.ts (npm run build): edit the schema, not this file.
import type { SpecSchema } from '../../model/kind.js';
import { loadSchema } from '../schema.js';

/**
 * A SAML identity provider of the organization, identified by its label, or by a pinned id (which allows renaming). Only the fields written here are compared and changed. The certificate is never printed: plans show its fingerprint.
 */
export type SamlProviderManifestSpec = {
  /**
   * Label shown on the login page (1..30 characters); unique per organization in the manifests unless ids are pinned.
   */
  label: string;
  /**
   * Pinned id: found by id and renamed when its live label differs.
   */
  id?: string;
  /**
   * The identity provider's entity id (at most 1024 characters).
   */
  entityID?: string;
  /**
   * The identity provider's single sign-on URL (at most 2048 characters).
   */
  ssoURL?: string;
  /**
   * The identity provider's signing certificate (PEM, or the base64 of its DER; at most 10000 characters), inline (`${VAR}` works) or read from a file next to the manifest. Compared by its DER bytes; plans show only its fingerprint.
   */
  certificate?:
    | string
    | {
        /**
         * Path relative to this manifest, inside the manifests directory, e.g. certs/idp.pem.
         */
        file: string;
      };
  /**
   * Team new SSO members join: a Team manifest title (also one created in the same plan), a live team title, or a team id. The API cannot clear it once set.
   */
  defaultTeam?: string;
  /**
   * Role given to members who join through this provider; null makes them guests.
   */
  defaultRole?: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | null;
};

/** schemas/samlprovider.schema.json, whose valid documents have the type SamlProviderManifestSpec. */
export const samlproviderSchema: SpecSchema<SamlProviderManifestSpec> = loadSchema('samlprovider');
