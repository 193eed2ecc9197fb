// Generated from schemas/translation.schema.json by tools/build/spec-types.ts (npm run build): edit the schema, not this file.
import type { SpecSchema } from '../../model/kind.js';
import { loadSchema } from '../schema.js';

/**
 * Translation settings of the organization, identified by title, or by a pinned id (which allows renaming).
 */
export type TranslationManifestSpec = {
  /**
   * Title of the translation settings (1..100 characters).
   */
  title: string;
  /**
   * Pinned id: found by id and renamed when its live title differs.
   */
  id?: string;
  /**
   * Read-only here: the API cannot change languages. When written, a difference is reported as a plan warning and nothing is sent.
   */
  languages?: string[];
};

/** schemas/translation.schema.json, whose valid documents have the type TranslationManifestSpec. */
export const translationSchema: SpecSchema<TranslationManifestSpec> = loadSchema('translation');
