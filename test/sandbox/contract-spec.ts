/**
 * The official OpenAPI spec (npm @gitbook/api, OpenAPI 3.1 ⇒ JSON Schema 2020-12) as validators for the contract
 * tests: what the sandbox answers (responseValidator) and what docops sends (requestValidator).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { Json } from './helpers.js';

const require = createRequire(import.meta.url);
export const spec = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8')) as Json;
const SPEC_ID = 'gitbook-openapi.json';

// ajv-formats is CommonJS; under NodeNext its default import is the module object in types, the function at runtime.
type AddFormats = (ajv: Ajv2020) => unknown;
const formatsModule = addFormatsImport as unknown as AddFormats | { default: AddFormats };
const addFormats: AddFormats = typeof formatsModule === 'function' ? formatsModule : formatsModule.default;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// Formats the spec uses that ajv-formats does not define; they constrain nothing we can check.
for (const f of ['emoji', 'icon', 'int32', 'byte']) ajv.addFormat(f, true);
ajv.addSchema({ ...spec, $id: SPEC_ID });

const pointer = (...parts: string[]): string => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function operation(method: string, specPath: string): Json {
  const op = spec.paths[specPath]?.[method.toLowerCase()];
  if (!op) throw new Error(`spec has no ${method} ${specPath}`);
  return op;
}

/** The validator of an operation's response body for `status`, following a `$ref` to components/responses. */
export function responseValidator(method: string, specPath: string, status: number) {
  const op = operation(method, specPath);
  let response = op.responses[String(status)];
  if (!response) throw new Error(`spec declares no ${status} for ${method} ${specPath}`);
  let ref = `#/${pointer('paths', specPath, method.toLowerCase(), 'responses', String(status))}`;
  if (response.$ref) {
    ref = response.$ref as string;
    response = spec.components.responses[ref.split('/').pop() as string];
  }
  if (!response.content?.['application/json']?.schema)
    throw new Error(`${method} ${specPath} ${status} has no JSON body schema`);
  return ajv.compile({ $ref: `${SPEC_ID}${ref}/content/application~1json/schema` });
}

/** The validator of an operation's JSON request body (following a `$ref` to components/requestBodies). */
export function requestValidator(method: string, specPath: string) {
  const op = operation(method, specPath);
  let body = op.requestBody;
  if (!body) throw new Error(`spec declares no request body for ${method} ${specPath}`);
  let ref = `#/${pointer('paths', specPath, method.toLowerCase(), 'requestBody')}`;
  if (body.$ref) {
    ref = body.$ref as string;
    body = spec.components.requestBodies[ref.split('/').pop() as string];
  }
  if (!body.content?.['application/json']?.schema)
    throw new Error(`${method} ${specPath} has no JSON request body schema`);
  return ajv.compile({ $ref: `${SPEC_ID}${ref}/content/application~1json/schema` });
}
