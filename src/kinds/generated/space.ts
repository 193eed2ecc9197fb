// Generated from schemas/space.schema.json by tools/build/spec-types.ts (npm run build): edit the schema, not this file.
import type { SpecSchema } from '../../core/kind.js';
import { loadSchema } from '../schema.js';

/**
 * One space of the organization, identified by title, or by a pinned id (which allows renaming).
 */
export type SpaceManifestSpec = {
  /**
   * Space title (1..50 characters).
   */
  title: string;
  /**
   * Pinned space id: found by id and renamed when its live title differs.
   */
  id?: string;
  /**
   * Emoji of the space.
   */
  emoji?: string;
  /**
   * live: direct edits; locked: all edits locked.
   */
  editMode?: 'live' | 'locked';
  /**
   * Default role of organization members on the space; null = none.
   */
  defaultLevel?: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | null;
  /**
   * Parent collection: a Collection manifest title or a collection id; null = not in a collection.
   */
  parent?: string | null;
  /**
   * When written, the complete list of teams and organization members holding a role on the space: grants not listed are removed (whatever the document's prune setting), listed ones are granted or get the written role. Left out: grants are neither read nor changed.
   */
  access?: (
    | {
        /**
         * A Team manifest title, a live team title or a team id.
         */
        team: string;
        /**
         * Role on the space.
         */
        role: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';
      }
    | {
        /**
         * An organization member's e-mail address (case-insensitive).
         */
        email: string;
        /**
         * Role on the space.
         */
        role: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';
      }
  )[];
};

/** schemas/space.schema.json, whose valid documents have the type SpaceManifestSpec. */
export const spaceSchema: SpecSchema<SpaceManifestSpec> = loadSchema('space');
