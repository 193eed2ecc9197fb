/**
 * Which part of the official spec (npm `@gitbook/api`, openapi.json) checks the body of a sandbox route, and
 * the ajv set-up both the build (tools/build/precompile-spec-bodies.ts) and a run from src/ compile it with.
 * Nothing here loads the spec or ajv: callers pass them in.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';

/** `POST /v1/orgs/:organizationId/sites`: how routes are named in the generated index. */
export const routeKey = (method: string, pattern: string): string => `${method} ${pattern}`;

/** The id the spec is registered under in ajv. */
export const SPEC_ID = 'gitbook-openapi.json';

type Json = Record<string, unknown>;
const pointer = (...parts: string[]): string => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const shape = (path: string): string => path.replace(/\{[^}]+\}/g, '{}').replace(/:[A-Za-z]+/g, '{}');

/**
 * The `$ref` (into SPEC_ID) of the JSON request-body schema of the spec operation a route implements, or
 * undefined when the spec has no such operation or it takes no JSON body.
 */
export function specBodyRef(spec: Json, method: string, pattern: string): string | undefined {
  const paths = spec['paths'] as Record<string, Record<string, Json>>;
  const wanted = shape(pattern.replace(/^\/v1/, ''));
  const specPath = Object.keys(paths).find((p) => shape(p) === wanted);
  const op = specPath === undefined ? undefined : paths[specPath]?.[method.toLowerCase()];
  let body = op?.['requestBody'] as Json | undefined;
  if (!op || !body || specPath === undefined) return undefined;
  let ref = `#/${pointer('paths', specPath, method.toLowerCase(), 'requestBody')}`;
  if (typeof body['$ref'] === 'string') {
    ref = body['$ref'];
    const components = (spec['components'] as Json)['requestBodies'] as Record<string, Json>;
    body = components[ref.split('/').pop() ?? ''];
  }
  const content = body?.['content'] as Record<string, Json> | undefined;
  return content?.['application/json']?.['schema'] ? `${SPEC_ID}${ref}/content/application~1json/schema` : undefined;
}

/** Formats the spec uses that ajv-formats does not define; they constrain nothing checkable. */
export const OPAQUE_FORMATS = ['emoji', 'icon', 'int32', 'byte'];

/** Options of the ajv that compiles the spec's body schemas (first error only: a 400 names one). */
export const SPEC_AJV_OPTIONS = { strict: false, allErrors: false, validateSchema: false } as const;

export function prepareSpecAjv(ajv: Ajv2020, addFormats: (ajv: Ajv2020) => unknown, spec: Json): Ajv2020 {
  addFormats(ajv);
  for (const f of OPAQUE_FORMATS) ajv.addFormat(f, true);
  ajv.addSchema({ ...spec, $id: SPEC_ID });
  return ajv;
}
