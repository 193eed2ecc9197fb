// Generated from schemas/collection.schema.json by tools/build/spec-types.ts (npm run build): edit the schema, not this file.
import type { SpecSchema } from '../../model/kind.js';
import { loadSchema } from '../schema.js';

/**
 * One collection of spaces, identified by title, or by a pinned id (which allows renaming).
 */
export type CollectionManifestSpec = {
  /**
   * Collection title (1..50 characters).
   */
  title: string;
  /**
   * Pinned collection id: found by id and renamed when its live title differs.
   */
  id?: string;
  /**
   * Description (≤100 characters).
   */
  description?: string;
  /**
   * Default role of organization members on the collection; null = none.
   */
  defaultLevel?: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | null;
  /**
   * Parent collection: another Collection manifest title or a collection id; null = top level.
   */
  parent?: string | null;
  /**
   * When written, the complete list of teams and organization members holding a role on the collection: grants not listed are removed (whatever the document's prune setting), listed ones are granted or get the written role. Left out: grants are neither read nor changed.
   */
  access?: (
    | {
        /**
         * A Team manifest title, a live team title or a team id.
         */
        team: string;
        /**
         * Role on the collection.
         */
        role: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';
      }
    | {
        /**
         * An organization member's e-mail address (case-insensitive).
         */
        email: string;
        /**
         * Role on the collection.
         */
        role: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';
      }
  )[];
};

/** schemas/collection.schema.json, whose valid documents have the type CollectionManifestSpec. */
export const collectionSchema: SpecSchema<CollectionManifestSpec> = loadSchema('collection');
