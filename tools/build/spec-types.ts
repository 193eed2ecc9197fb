/**
 * Build step, run before tsc (package.json "build"): the TypeScript type of every kind's spec, generated from its
 * JSON Schema. A kind's shape is written once, in schemas/<name>.schema.json (what editors, the validators and the
 * docs read); json-schema-to-typescript turns it into src/kinds/generated/<name>.ts, which the kind's code reads
 * its documents through (docs/dev/architecture.md, "Kinds: one shape"). Adding a field: edit the schema, rebuild.
 *
 * The output is committed and reproducible: test/build/spec-types.test.ts fails when a committed file is not
 * what this writes. It is compiled on its own first (tsconfig.spec-types.json), so a schema edit never has to pass
 * a type check against the types it is about to replace.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { writeFormatModules } from './format-types.js';
import { asTypeAliases } from './type-aliases.js';

export { asTypeAliases } from './type-aliases.js';

/** The package root, from tools/build (vitest) and dist-tools/build (the build) alike. */
const ROOT = new URL('../../', import.meta.url);
export const SCHEMAS_DIR = new URL('schemas/', ROOT);
export const GENERATED_DIR = new URL('src/kinds/generated/', ROOT);

/** Schemas in schemas/ that are not a kind's spec: the manifest envelope, the daemon config, its safety and policy blocks, the plan and the delete journal. */
export const NOT_KIND_SPECS: readonly string[] = ['document', 'config', 'safety', 'policy', 'plan', 'journal'];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const isObject = (v: Json | undefined): v is { [k: string]: Json } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * json-schema-to-typescript ignores `if`/`then`/`else` (the Site's `customization`: a `{file}` when it has `file`,
 * else the inline block); a value valid there is valid under `then` or under `else`, so it is typed as their union.
 */
function unionOfConditionals(node: Json): Json {
  if (Array.isArray(node)) return node.map(unionOfConditionals);
  if (!isObject(node)) return node;
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(node)) out[k] = unionOfConditionals(v);
  if ('if' in out && 'then' in out && 'else' in out) {
    const { if: _if, then, else: otherwise, ...rest } = out;
    return { ...rest, anyOf: [then!, otherwise!] };
  }
  return out;
}

/** `Team spec` → `TeamManifestSpec`: the spec of a Team manifest as written (kinds name their normalised spec `TeamSpec`). */
export function typeName(file: string, schema: Json): string {
  const title = isObject(schema) ? schema['title'] : undefined;
  const kind = typeof title === 'string' ? /^(\w+) spec$/.exec(title)?.[1] : undefined;
  if (kind === undefined)
    throw new Error(
      `schemas/${file}: its title must be "<Kind> spec" (it names the generated type), got ${JSON.stringify(title)}`,
    );
  return `${kind}ManifestSpec`;
}

/** The kind spec schemas, by name (`team` for schemas/team.schema.json), in name order. */
export function kindSpecSchemas(): string[] {
  return readdirSync(SCHEMAS_DIR)
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => f.slice(0, -'.schema.json'.length))
    .filter((name) => !NOT_KIND_SPECS.includes(name))
    .sort();
}

/** The generated module of one kind spec schema: its type, and the schema typed with it. */
export async function specModule(name: string): Promise<string> {
  const file = `${name}.schema.json`;
  const schema = JSON.parse(readFileSync(new URL(file, SCHEMAS_DIR), 'utf8')) as Json;
  const type = typeName(file, schema);
  const input = unionOfConditionals(schema) as { [k: string]: Json };
  input['title'] = type;
  const banner = `// Generated from schemas/${file} by tools/build/spec-types.ts (npm run build): edit the schema, not this file.`;
  const body = await compile(input as JSONSchema, type, {
    bannerComment: '',
    cwd: fileURLToPath(SCHEMAS_DIR),
    // Lists are typed as lists: how many items a list may hold is the schema's to check, like a string's length.
    ignoreMinAndMaxItems: true,
    strictIndexSignatures: true,
    style: { singleQuote: true, printWidth: 160, trailingComma: 'all' },
  });
  const schemaConst = `${name.replace(/\W/g, '_')}Schema`;
  return [
    banner,
    "import type { SpecSchema } from '../../model/kind.js';",
    "import { loadSchema } from '../schema.js';",
    '',
    asTypeAliases(body.trimEnd()),
    '',
    `/** schemas/${file}, whose valid documents have the type ${type}. */`,
    `export const ${schemaConst}: SpecSchema<${type}> = loadSchema('${name}');`,
    '',
  ].join('\n');
}

/** Every generated module, by file name under src/kinds/generated/. */
export async function specModules(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of kindSpecSchemas()) out.set(`${name}.ts`, await specModule(name));
  return out;
}

/** Write the modules that changed and remove those whose schema is gone; the names of the files written. */
export async function writeSpecModules(): Promise<string[]> {
  const modules = await specModules();
  mkdirSync(GENERATED_DIR, { recursive: true });
  for (const f of readdirSync(GENERATED_DIR)) if (!modules.has(f)) rmSync(new URL(f, GENERATED_DIR));
  const written: string[] = [];
  for (const [f, text] of modules) {
    const target = new URL(f, GENERATED_DIR);
    if (existsSync(target) && readFileSync(target, 'utf8') === text) continue;
    writeFileSync(target, text);
    written.push(f);
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const written = await writeSpecModules();
  process.stdout.write(
    `generated the spec types of ${kindSpecSchemas().length} kinds in src/kinds/generated${written.length > 0 ? ` (rewrote ${written.join(', ')})` : ''}\n`,
  );
  // The plan's and the journal's types too: the same step, so the build script runs one generator.
  const formats = await writeFormatModules();
  process.stdout.write(
    `generated the plan's and the journal's types in src/model/generated${formats.length > 0 ? ` (rewrote ${formats.join(', ')})` : ''}\n`,
  );
}
