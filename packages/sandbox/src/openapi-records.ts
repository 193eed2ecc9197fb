/**
 * Stored OpenAPI specs (keyed in the API by their slug, unique per organization) and their versions. A version
 * exists only for a source whose processing succeeded; it keeps what the spec needs to answer the content
 * endpoints: the URL it came from, or the submitted text and its format.
 */
import type { SandboxStore, Table } from './store.js';

export const OPENAPI_VISIBILITIES = ['private', 'public'] as const;
export type OpenApiVisibility = (typeof OPENAPI_VISIBILITIES)[number];
export type OpenApiErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';

export interface OpenApiProcessError {
  message: string;
  code?: string;
}

export interface OpenApiSpecRec {
  id: string;
  orgId: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  /** The URL of the last `{url}` source; absent after a `{text}` source. */
  sourceURL?: string;
  visibility: OpenApiVisibility;
  processingState: 'pending' | 'progress' | 'complete';
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: OpenApiErrorCode;
  lastProcessedErrors?: OpenApiProcessError[];
}

export interface OpenApiVersionRec {
  id: string;
  specId: string;
  createdAt: string;
  /** `url` of a `{url}` source; absent for text (the version's URL is then computed from its ids). */
  sourceURL?: string;
  /** A `{text}` source as submitted, and whether it parsed as JSON or YAML. */
  text?: string;
  format?: 'json' | 'yaml';
}

export const openApiSpecs = (s: SandboxStore): Table<OpenApiSpecRec> => s.table('openApiSpecs');
export const openApiVersions = (s: SandboxStore): Table<OpenApiVersionRec> => s.table('openApiVersions');
