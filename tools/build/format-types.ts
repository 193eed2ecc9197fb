/**
 * Build step, run with spec-types.ts before tsc: the TypeScript types of the files docops writes and reads back —
 * the plan's JSON form (schemas/plan.schema.json) and the delete journal's lines (schemas/journal.schema.json) —
 * generated from their schemas into src/model/generated/. Each format is described once, by its schema: the types
 * are generated from it, the reader is its validator (src/plan-file/read-plan.ts, src/undo/journal-read.ts) and
 * the printer orders a plan's members as the schema lists them (src/render/json.ts). docs/dev/formats.md says how
 * to change a format.
 *
 * The output is committed and reproducible: test/build/format-types.test.ts fails when a committed file is not what
 * this writes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { asTypeAliases } from './type-aliases.js';

const ROOT = new URL('../../', import.meta.url);
const SCHEMAS_DIR = new URL('schemas/', ROOT);
export const FORMAT_TYPES_DIR = new URL('src/model/generated/', ROOT);

/** A format: its schema's name, the name of the type of a whole document, and what the generated module imports. */
export interface Format {
  name: string;
  type: string;
  /** Types the schema names with `tsType` (json-schema-to-typescript's keyword), imported by the module. */
  imports?: string[];
}

export const FORMATS: readonly Format[] = [
  { name: 'plan', type: 'PlanDocument' },
  { name: 'journal', type: 'JournalRecord', imports: ["import type { Snapshot } from '../kind.js';"] },
];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const isObject = (v: Json | undefined): v is { [k: string]: Json } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** Holds only presence rules (`required`, and the message a reader gives when they fail): no shape of its own. */
const presenceOnly = (v: Json): boolean =>
  isObject(v) &&
  Object.keys(v).every((k) => k === 'required' || k === 'x-message' || k === 'items') &&
  (v['items'] === undefined || presenceOnly(v['items']));

/**
 * The schema as json-schema-to-typescript should type it. It ignores `if`/`then`/`else`: a value valid there is
 * valid under `then` or under `else`, so it is typed as their union; a rule that only says which members must be
 * present together (an `if` without `else`, an `anyOf`/`oneOf` of `required` lists) is no type and is dropped.
 * A description beside a `$ref` is dropped too (the referenced definition's is the type's).
 */
export function typingSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(typingSchema);
  if (!isObject(node)) return node;
  // Draft-07 ignores what stands beside a `$ref`; json-schema-to-typescript would name a copy of the type for it.
  if (typeof node['$ref'] === 'string') return { $ref: node['$ref'] };
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(node)) out[k] = typingSchema(v);
  for (const k of ['anyOf', 'oneOf'])
    if (Array.isArray(out[k]) && (out[k] as Json[]).every(presenceOnly)) delete out[k];
  if ('if' in out && (!('else' in out) || (presenceOnly(out['then']!) && presenceOnly(out['else']!)))) {
    const { if: _if, then: _then, else: _else, ...rest } = out;
    return rest;
  }
  if ('if' in out) {
    const { if: _if, then, else: otherwise, ...rest } = out;
    return { ...rest, anyOf: [then!, otherwise!] };
  }
  return out;
}

/** The generated module of one format: the type of each definition of its schema, and of a whole document. */
export async function formatModule(format: Format): Promise<string> {
  const file = `${format.name}.schema.json`;
  const schema = JSON.parse(readFileSync(new URL(file, SCHEMAS_DIR), 'utf8')) as Json;
  const input = typingSchema(schema) as { [k: string]: Json };
  input['title'] = format.type;
  const body = await compile(input as JSONSchema, format.type, {
    bannerComment: '',
    cwd: fileURLToPath(SCHEMAS_DIR),
    ignoreMinAndMaxItems: true,
    // A map's values are its values (`Record<string, string>`): code reads them by the keys it has.
    style: { singleQuote: true, printWidth: 120, trailingComma: 'all' },
  });
  return [
    `// Generated from schemas/${file} by tools/build/format-types.ts (npm run build): edit the schema, not this file.`,
    ...(format.imports ?? []),
    '',
    asTypeAliases(body.trimEnd()),
    '',
  ].join('\n');
}

/** Write the modules that changed; the names of the files written. */
export async function writeFormatModules(): Promise<string[]> {
  mkdirSync(FORMAT_TYPES_DIR, { recursive: true });
  const written: string[] = [];
  for (const format of FORMATS) {
    const text = await formatModule(format);
    const target = new URL(`${format.name}.ts`, FORMAT_TYPES_DIR);
    if (existsSync(target) && readFileSync(target, 'utf8') === text) continue;
    writeFileSync(target, text);
    written.push(`${format.name}.ts`);
  }
  return written;
}
