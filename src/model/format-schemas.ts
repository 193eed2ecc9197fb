/**
 * The schemas of the files docops writes and reads back, loaded from schemas/ at the package root (the path is
 * relative to this module: src/model under vitest, dist/model compiled, dist/cli bundled). Each describes its format
 * once (docs/dev/formats.md): the types are generated from it, its validator reads the file back, and the plan's
 * printer lists members in its order.
 */
import { readFileSync } from 'node:fs';

/** A JSON Schema node, as far as the code that walks one reads it. */
export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minimum?: number;
  minItems?: number;
  if?: SchemaNode;
  then?: SchemaNode;
  else?: SchemaNode;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  definitions?: Record<string, SchemaNode>;
  /** What a reader says when this subschema fails, instead of describing the rule (a rule over several members). */
  'x-message'?: string;
}

const loaded = new Map<string, SchemaNode>();

function load(name: string): SchemaNode {
  let schema = loaded.get(name);
  if (!schema) {
    const url = new URL(`../../schemas/${name}.schema.json`, import.meta.url);
    loaded.set(name, (schema = JSON.parse(readFileSync(url, 'utf8')) as SchemaNode));
  }
  return schema;
}

/** schemas/plan.schema.json: the plan's JSON form. */
export const planSchema = (): SchemaNode => load('plan');

/** schemas/journal.schema.json: one line of the delete journal. */
export const journalSchema = (): SchemaNode => load('journal');

/** The node a `$ref` (`#/definitions/Name`) of `root` names, or `node` itself when it is no reference. */
export function resolveRef(root: SchemaNode, node: SchemaNode): SchemaNode {
  const ref = node.$ref;
  if (ref === undefined) return node;
  const name = ref.slice('#/definitions/'.length);
  const target = root.definitions?.[name];
  if (!ref.startsWith('#/definitions/') || !target) throw new Error(`schema reference ${ref} names no definition`);
  return resolveRef(root, target);
}
