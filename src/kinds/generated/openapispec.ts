// Generated from schemas/openapispec.schema.json by tools/build/spec-types.ts (npm run build): edit the schema, not this file.
import type { SpecSchema } from '../../model/kind.js';
import { loadSchema } from '../schema.js';

/**
 * An OpenAPI specification of the organization, identified by its slug. A new version is published only when the source differs from the latest published one (a URL by its address, a file or text by the digest of its content).
 */
export type OpenAPISpecManifestSpec = {
  /**
   * The spec's slug (its identity; 1..100 lower-case letters and digits in words joined by single hyphens).
   */
  slug: string;
  /**
   * Where the spec's content comes from: exactly one of `url`, `file` or `text`.
   */
  source:
    | {
        /**
         * An http(s) URL the platform fetches the spec from (at most 2048 characters).
         */
        url: string;
      }
    | {
        /**
         * A JSON or YAML file relative to this manifest, inside the manifests directory; its text is sent as the spec's source. The plan shows its digest, never its content.
         */
        file: string;
      }
    | {
        /**
         * The spec's content written inline (what `docops undo` writes); prefer `file`.
         */
        text: string;
      };
};

/** schemas/openapispec.schema.json, whose valid documents have the type OpenAPISpecManifestSpec. */
export const openapispecSchema: SpecSchema<OpenAPISpecManifestSpec> = loadSchema('openapispec');
