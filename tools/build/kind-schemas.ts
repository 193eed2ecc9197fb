/**
 * Build step, after tsc and before the validators are generated (package.json "build"): the parts of the published
 * schemas that list the kinds, written from the kind registry (src/kinds/index.ts) — never kept by hand:
 * - schemas/document.schema.json: the `kind` enum, and per kind an `allOf` rule naming its spec schema, refusing
 *   `prune` on a kind docops never deletes and `allowEmpty` on a kind that declares no lists;
 * - schemas/config.schema.json: the kinds the daemon config's `prune` may name.
 * The rest of each file is edited by hand. test/build/kind-schemas.test.ts fails when a committed file differs
 * from what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { KindDefinition } from '#src/model/kind.js';
import { KINDS } from '#src/kinds/index.js';

const SCHEMAS_DIR = new URL('../../schemas/', import.meta.url);

type JsonObject = { [k: string]: unknown };

/** The schema file of a kind's spec (its name in lower case): what the kind loads and the validators are named by. */
export const specSchemaFile = (kind: string): string => `${kind.toLowerCase()}.schema.json`;

function kindRule(k: KindDefinition): JsonObject {
  const then: JsonObject = { spec: { $ref: `./${specSchemaFile(k.kind)}` } };
  if (k.prunable === false)
    then['prune'] = { const: false, description: `docops never deletes ${k.kind} objects: prune means nothing here.` };
  if ((k.lists ?? []).length === 0)
    then['allowEmpty'] = {
      const: false,
      description: `${k.kind} documents write no list of an object's sub-objects: allowEmpty means nothing here.`,
    };
  return { if: { properties: { kind: { const: k.kind } }, required: ['kind'] }, then: { properties: then } };
}

/** schemas/document.schema.json as hand-written (`current`), with its kind enum and rules from `kinds`. */
export function documentSchemaOf(current: JsonObject, kinds: readonly KindDefinition[]): JsonObject {
  const properties = current['properties'] as { kind: JsonObject };
  return {
    ...current,
    properties: { ...properties, kind: { ...properties.kind, enum: kinds.map((k) => k.kind) } },
    allOf: kinds.map(kindRule),
  };
}

/** schemas/config.schema.json as hand-written, with the prunable kinds as the names `prune` takes. */
export function configSchemaOf(current: JsonObject, kinds: readonly KindDefinition[]): JsonObject {
  const properties = current['properties'] as { prune: { propertyNames: JsonObject } };
  const prune = {
    ...properties.prune,
    propertyNames: {
      ...properties.prune.propertyNames,
      enum: kinds.filter((k) => k.prunable !== false).map((k) => k.kind),
    },
  };
  return { ...current, properties: { ...properties, prune } };
}

const read = (file: string): JsonObject => JSON.parse(readFileSync(new URL(file, SCHEMAS_DIR), 'utf8')) as JsonObject;
const text = (schema: JsonObject): string => `${JSON.stringify(schema, null, 2)}\n`;

/** The two files as this step writes them, by file name under schemas/. */
export function kindListingSchemas(kinds: readonly KindDefinition[] = KINDS): Map<string, string> {
  return new Map([
    ['document.schema.json', text(documentSchemaOf(read('document.schema.json'), kinds))],
    ['config.schema.json', text(configSchemaOf(read('config.schema.json'), kinds))],
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const written: string[] = [];
  for (const [file, content] of kindListingSchemas()) {
    if (readFileSync(new URL(file, SCHEMAS_DIR), 'utf8') === content) continue;
    writeFileSync(new URL(file, SCHEMAS_DIR), content);
    written.push(file);
  }
  process.stdout.write(
    `listed the ${KINDS.length} registered kinds in schemas/document.schema.json and config.schema.json${written.length > 0 ? ` (rewrote ${written.join(', ')})` : ''}\n`,
  );
}
