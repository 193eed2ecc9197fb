/**
 * Build-time only (tools/build/precompile-validators.ts): a smaller standalone validator for a schema that repeats
 * big subschemas. ajv's standalone code inlines every copy — the Site schema's official customization block
 * repeats a link target's nine-form `oneOf` ×5, font objects ×3, the code theme enum ×4, colour pairs ×6, and
 * its validator was 499 KB. Here each repeated subschema becomes one shared definition the copies call.
 *
 * The errors must stay exactly those of ajv's compile of the schema as written (what a run without a generated
 * validator reports, and what ajv-messages.ts groups `oneOf` errors by): the same list, in the same order, with
 * the same `schemaPath`. A called schema's errors carry paths relative to its own root, so every call site
 * rewrites the `#` of the errors the call added to the path the schema as written reports there:
 * - a shared definition: the call site's own path (where the copy stood);
 * - a `$ref` of the schema as written that ajv inlined (its target has no `$ref`): the `$ref` itself, the path
 *   ajv gives the errors of an inlined reference;
 * - a `$ref` ajv called already: unchanged.
 * Every `$ref` is compiled as a call (`inlineRefs: false`) so the rule is the same everywhere.
 */
import { createRequire } from 'node:module';
import type { Ajv, AnySchemaObject, CodeKeywordDefinition, KeywordCxt } from 'ajv';
import type * as Codegen from 'ajv/dist/compile/codegen/index.js';
import type { Code, Name } from 'ajv/dist/compile/codegen/index.js';
import type * as Resolve from 'ajv/dist/compile/resolve.js';

// ajv's internals are CommonJS: required, so `default` and named exports read the same under every loader.
const load = createRequire(import.meta.url);
const { _ } = load('ajv/dist/compile/codegen/index.js') as typeof Codegen;
const { inlineRef } = load('ajv/dist/compile/resolve.js') as typeof Resolve;
const N = (load('ajv/dist/compile/names.js') as { default: { errors: Name; vErrors: Name } }).default;

/** Where a schema keeps its definitions, and the prefix of the shared ones' names (never one of the schema's own). */
const DEFINITIONS = 'definitions';
const SHARED = 'docops-shared-';
/** Subschemas shorter than this (as JSON text) are left inline: a call costs more code than it saves. */
export const MIN_SHARED_CHARS = 200;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type SchemaObject = { [k: string]: Json };

const isObject = (v: Json | undefined): v is SchemaObject => typeof v === 'object' && v !== null && !Array.isArray(v);

// Keywords whose value is a schema, an array of schemas, or a map of schemas (draft-07 and later). Not
// `propertyNames`: ajv's inline code of its subschema adds `propertyName` to each error, a call does not.
const SCHEMA_KEYWORDS = [
  'additionalProperties',
  'additionalItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentSchema',
];
const ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas', DEFINITIONS, '$defs'];

/** Every subschema object of `schema` (not the root) with a function that replaces it in place. */
function subschemas(
  schema: SchemaObject,
  visit: (node: SchemaObject, replace: (by: SchemaObject) => void) => void,
): void {
  const at = (parent: SchemaObject | Json[], key: string | number): void => {
    const node = (parent as Record<string | number, Json>)[key];
    if (!isObject(node)) return;
    visit(node, (by) => void ((parent as Record<string | number, Json>)[key] = by));
    subschemas(node, visit);
  };
  for (const k of SCHEMA_KEYWORDS) if (k in schema) at(schema, k);
  if (Array.isArray(schema['items'])) schema['items'].forEach((_v, i) => at(schema['items'] as Json[], i));
  else if ('items' in schema) at(schema, 'items');
  for (const k of ARRAY_KEYWORDS)
    if (Array.isArray(schema[k])) (schema[k] as Json[]).forEach((_v, i) => at(schema[k] as Json[], i));
  for (const k of MAP_KEYWORDS) {
    const map = schema[k];
    if (isObject(map)) for (const name of Object.keys(map)) at(map, name);
  }
}

export interface Factored {
  /** The schema with each repeated subschema replaced by a `$ref` to a shared definition. */
  schema: AnySchemaObject;
  /** Names of the shared definitions (under `definitions`). */
  shared: string[];
}

/**
 * Factor the repeated subschemas of `schema` (a copy; the argument is not changed) out into shared definitions,
 * largest saving first, until no subschema of at least `minChars` of JSON text occurs twice. Copies are equal
 * when their JSON texts are (keyword order included, so the code generated for each is the same). Subschemas
 * under `propertyNames` stay inline. A schema with `$id`s inside, `$dynamicRef`s or `$recursiveRef`s, or a
 * `$ref` under `propertyNames`, is left as it is (a call would change what they resolve, or the errors).
 */
export function factorRepeats(schema: object, minChars = MIN_SHARED_CHARS): Factored {
  const copy = structuredClone(schema) as SchemaObject;
  const text = JSON.stringify(copy);
  if (/"\$(id|dynamicRef|dynamicAnchor|recursiveRef|recursiveAnchor)"/.test(text.slice(1)))
    return { schema: copy, shared: [] };
  // Nor one with a `$ref` under propertyNames: every `$ref` becomes a call, whose errors lack `propertyName`.
  const nodes: SchemaObject[] = [copy];
  subschemas(copy, (node) => void nodes.push(node));
  if (nodes.some((node) => 'propertyNames' in node && JSON.stringify(node['propertyNames']).includes('"$ref"')))
    return { schema: copy, shared: [] };
  const shared: string[] = [];
  for (;;) {
    const counts = new Map<string, number>();
    subschemas(copy, (node) => {
      const t = JSON.stringify(node);
      // a bare reference (one the last round made, too) stays: sharing it would only add a call
      if (t.length >= minChars && !(Object.keys(node).length === 1 && '$ref' in node))
        counts.set(t, (counts.get(t) ?? 0) + 1);
    });
    let best: string | undefined;
    let saving = 0;
    for (const [t, n] of counts) if (n > 1 && (n - 1) * t.length > saving) [best, saving] = [t, (n - 1) * t.length];
    if (best === undefined) break;
    const name = `${SHARED}${shared.length}`;
    shared.push(name);
    const ref: SchemaObject = { $ref: `#/${DEFINITIONS}/${name}` };
    subschemas(copy, (node, replace) => {
      if (JSON.stringify(node) === best) replace({ ...ref });
    });
    const defs = isObject(copy[DEFINITIONS]) ? copy[DEFINITIONS] : (copy[DEFINITIONS] = {});
    defs[name] = JSON.parse(best) as Json;
  }
  return { schema: copy, shared };
}

/**
 * Make `ajv` (made with `inlineRefs: false`) compile `factored` so that its errors read as those of `original`
 * compiled with ajv's defaults: each `$ref` call rewrites the schema paths of the errors it added (see above).
 */
export function keepOriginalErrorPaths(ajv: Ajv, original: object): void {
  const defs = (original as SchemaObject)[DEFINITIONS];
  const rule = ajv.RULES.all['$ref'];
  if (typeof rule !== 'object' || !('definition' in rule)) throw new Error('ajv has no $ref keyword to wrap');
  const refDef = rule.definition as CodeKeywordDefinition;
  const code = refDef.code;
  /** The path the errors of a call of `$ref` at `site` get in the original schema's compile; undefined: as they are. */
  const prefixOf = ($ref: string, site: string): string | undefined => {
    const name = $ref.startsWith(`#/${DEFINITIONS}/`)
      ? decodeURIComponent($ref.slice(DEFINITIONS.length + 3))
          .replace(/~1/g, '/')
          .replace(/~0/g, '~')
      : undefined;
    if (name?.startsWith(SHARED)) return site;
    const target = name !== undefined && isObject(defs) ? defs[name] : undefined;
    // ajv's default (inlineRefs: true) inlines a reference whose target holds no reference, under the $ref's path.
    if (target !== undefined && inlineRef(target as AnySchemaObject, true)) return $ref;
    return undefined;
  };
  refDef.code = (cxt: KeywordCxt): void => {
    const prefix = prefixOf(String(cxt.schema), cxt.it.errSchemaPath);
    if (prefix === undefined) return code(cxt);
    const { gen } = cxt;
    const before = gen.const('errorsBefore', N.errors);
    code(cxt);
    gen.forRange('i', before, N.errors, (i: Code) => {
      gen.assign(_`${N.vErrors}[${i}].schemaPath`, _`${prefix} + ${N.vErrors}[${i}].schemaPath.slice(1)`);
    });
  };
}
