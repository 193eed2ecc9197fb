/**
 * What the platform does with a submitted OpenAPI source, simulated deterministically and synchronously (the
 * sandbox never reaches the internet):
 * - `{url}`: a host under the reserved TLD `.invalid` (RFC 2606) cannot be fetched — `timeout.invalid` and its
 *   subdomains ⇒ FETCH_TIMEOUT, any other `.invalid` host or a scheme other than http(s) ⇒ FETCH_ERROR;
 *   every other URL is taken as a valid document (its content is not known to the sandbox).
 * - `{text}`: JSON, else YAML, whose root is an object with an `openapi` or `swagger` field; anything else ⇒
 *   PARSE_ERROR with the parser's message.
 * YAML is loaded on first use: only specs sent as text need it.
 */
import type { OpenApiErrorCode, OpenApiProcessError } from './openapi-records.js';

export type OpenApiSource = { url: string } | { text: string };

export type Processed =
  { ok: true; format?: 'json' | 'yaml' } | { ok: false; code: OpenApiErrorCode; errors: OpenApiProcessError[] };

type ParseYaml = (text: string) => unknown;
let yamlParse: Promise<ParseYaml> | undefined;
export const loadYaml = (): Promise<ParseYaml> =>
  (yamlParse ??= import('yaml').then((m) => (text: string) => m.parse(text)));

export function processUrl(url: string): Processed {
  const { protocol, hostname } = new URL(url); // the body validator checked it is an absolute URI
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const fail = (code: OpenApiErrorCode, message: string): Processed => ({
    ok: false,
    code,
    errors: [{ message, code: code.toLowerCase() }],
  });
  if (protocol !== 'http:' && protocol !== 'https:')
    return fail('FETCH_ERROR', `cannot fetch ${url}: only http and https URLs can be fetched`);
  if (host === 'timeout.invalid' || host.endsWith('.timeout.invalid'))
    return fail('FETCH_TIMEOUT', `fetching ${url} timed out`);
  if (host === 'invalid' || host.endsWith('.invalid'))
    return fail('FETCH_ERROR', `cannot fetch ${url}: host ${host} does not resolve`);
  return { ok: true };
}

/** `parseYaml` comes from loadYaml(), awaited by the caller before it touches the store. */
export function processText(text: string, parseYaml: ParseYaml): Processed {
  const fail = (message: string, code: string): Processed => ({
    ok: false,
    code: 'PARSE_ERROR',
    errors: [{ message, code }],
  });
  let doc: unknown;
  let format: 'json' | 'yaml';
  try {
    doc = JSON.parse(text);
    format = 'json';
  } catch {
    try {
      doc = parseYaml(text);
      format = 'yaml';
    } catch (err) {
      return fail(`the text is neither JSON nor YAML: ${(err as Error).message}`, 'invalid-syntax');
    }
  }
  if (!isOpenApiDocument(doc))
    return fail('the document is not an OpenAPI specification: it has no "openapi" or "swagger" field', 'not-openapi');
  return { ok: true, format };
}

/** The parsed document of a stored text version (it parsed when the version was made). */
export function parseStored(text: string, format: 'json' | 'yaml', parseYaml: ParseYaml): unknown {
  return format === 'json' ? JSON.parse(text) : parseYaml(text);
}

function isOpenApiDocument(doc: unknown): boolean {
  return typeof doc === 'object' && doc !== null && !Array.isArray(doc) && ('openapi' in doc || 'swagger' in doc);
}
