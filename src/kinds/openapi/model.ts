/**
 * Shapes of the OpenAPISpec kind shared by its manifest side (kind.ts), diff, export and snapshot: the spec a
 * manifest writes, the live spec as docops reads it, the API paths, and how a source's text is compared (by
 * digest, never by content in a plan).
 */
import type { LiveKindState, LiveObject } from '../../model/kind.js';
import { ApiError } from '../../model/errors.js';
import type { FetchContext } from '../../model/kind.js';
import { sha256Hex } from '../../manifests/file-refs.js';
import { isRecord, orgPath, seg } from '../common.js';
import type { OpenAPISpecManifestSpec } from '../generated/openapispec.js';

export const OPENAPI_KIND = 'OpenAPISpec';
/** Versions a spec's delete takes along (Step.cascades); read-only, never a kind of its own. */
export const OPENAPI_VERSION_KIND = 'OpenAPISpecVersion';
export const OPENAPI_DEPTH = 20;

/**
 * Where a spec's content comes from, as the manifest writes it:
 * - `url`: `source: {url}` — the platform fetches it;
 * - `text`: `source: {file}` read by the loader (`file` set), or `source: {text}` written inline (undo writes
 *   those): sent as the official `{text}` source; `sha256` is the digest of exactly the text sent;
 * - `unread`: a `{file}` the loader did not read (only export's probe documents have one): never planned.
 */
export type SpecSource =
  | { type: 'url'; url: string }
  | { type: 'text'; text: string; sha256: string; file?: string }
  | { type: 'unread'; file: string };

/** The spec as written, with its source read (SpecSource). `source` is absent only in export's first probe. */
export type OpenApiSpecSpec = Omit<OpenAPISpecManifestSpec, 'source'> & { source?: SpecSource };

export interface OpenApiFields {
  slug: string;
  /** The URL of the last `{url}` source submitted (also when it failed); null after a `{text}` source. */
  sourceURL: string | null;
  /** `pending` | `progress` | `complete` (the platform processes a source after answering). */
  processingState: string;
  /** Id of the latest version; null when no source was ever processed successfully. */
  lastVersion: string | null;
  /** Set when the last processing failed (FETCH_TIMEOUT, FETCH_ERROR, PARSE_ERROR); null otherwise. */
  lastProcessErrorCode: string | null;
  /** The first message of `lastProcessedErrors`, when it failed. */
  lastProcessError: string | null;
  visibility: string | null;
  /** When the spec last changed (every publish changes it); absent when the API did not say. */
  updatedAt?: string;
  /**
   * sha256 (hex) of the latest version's raw text; null when it has none (a URL version, no version); absent when
   * not read (fetch reads it only for specs a manifest gives a text or file source, export and snapshots for all).
   */
  latestSha256?: string | null;
}

export type OpenApiObject = LiveObject<OpenApiFields>;

/** A latest version's raw text as the API answers it (`…/versions/latest/content/raw`). */
export interface RawContent {
  text: string;
  format: 'json' | 'yaml';
}

export interface OpenApiAux {
  /** The latest raw texts read, by spec id: what export writes as files and undo recreates a spec from. */
  texts?: Record<string, RawContent>;
  /** Version ids of the specs a prune would delete (what their delete takes along), by spec id. */
  versions?: Record<string, string[]>;
}

export type OpenApiState = LiveKindState<OpenApiObject, OpenApiAux>;

export const specsPath = (org: string): string => `${orgPath(org)}/openapi`;
export const specPath = (org: string, slug: string): string => `${specsPath(org)}/${seg(slug)}`;

/** sha256 (hex) of a text as UTF-8: what is sent, and what the platform answers "exactly as submitted". */
export const digestOf = (text: string): string => sha256Hex(text);

/** How a plan shows a digest: `sha256:` and the first 12 hex digits (the comparison uses all of it). */
export const shortDigest = (hex: string): string => `sha256:${hex.slice(0, 12)}`;

const stringOr = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** An OpenAPISpec as the API answers it → a live object keyed by slug. */
export function specObject(org: string, item: unknown): OpenApiObject | undefined {
  if (!isRecord(item) || typeof item['id'] !== 'string' || typeof item['slug'] !== 'string') return undefined;
  const errors = Array.isArray(item['lastProcessedErrors']) ? item['lastProcessedErrors'] : [];
  const first: unknown = errors[0];
  const fields: OpenApiFields = {
    slug: item['slug'],
    sourceURL: stringOr(item['sourceURL']),
    processingState: typeof item['processingState'] === 'string' ? item['processingState'] : 'complete',
    lastVersion: stringOr(item['lastVersion']),
    lastProcessErrorCode: stringOr(item['lastProcessErrorCode']),
    lastProcessError: isRecord(first) ? stringOr(first['message']) : null,
    visibility: stringOr(item['visibility']),
    ...(typeof item['updatedAt'] === 'string' ? { updatedAt: item['updatedAt'] } : {}),
  };
  return { kind: OPENAPI_KIND, org, key: item['slug'], id: item['id'], fields };
}

/** Whether the spec's latest version can have a raw text: it has a version, and its last source was not a URL. */
export const mayHaveRawText = (f: OpenApiFields): boolean => f.lastVersion !== null && f.sourceURL === null;

/**
 * The latest version's raw text, or null when the API has none for it (404: a URL version, no version yet, the
 * platform's legacy versions). One GET; not sent when the spec cannot have one.
 */
export async function readLatestRaw(ctx: FetchContext, o: OpenApiObject): Promise<RawContent | null> {
  if (!mayHaveRawText(o.fields)) return null;
  let body: unknown;
  try {
    body = await ctx.get(`${specPath(o.org, o.key)}/versions/latest/content/raw`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
  if (!isRecord(body) || typeof body['text'] !== 'string') return null;
  return { text: body['text'], format: body['format'] === 'yaml' ? 'yaml' : 'json' };
}

/** Version ids of a version list. */
export const versionIds = (items: readonly unknown[]): string[] =>
  items.flatMap((v) => (isRecord(v) && typeof v['id'] === 'string' ? [v['id']] : []));
