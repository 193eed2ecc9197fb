/**
 * The spec types in src/kinds/generated/ are committed, and must be exactly what the build generates from the kind
 * schemas (docs/dev/architecture.md, "Kinds: one shape"). A failure here means a schema changed without `npm run build`:
 * run it and commit what it rewrote.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asTypeAliases, GENERATED_DIR, kindSpecSchemas, specModules, typeName } from '../../tools/build/spec-types.js';
import { KINDS } from '../../src/kinds/index.js';

const schemaFile = (name: string) => new URL(`../../schemas/${name}.schema.json`, import.meta.url);

describe('spec types generated from the kind schemas', () => {
  it('src/kinds/generated holds exactly the spec types the build generates from schemas/', async () => {
    const modules = await specModules();
    expect(readdirSync(GENERATED_DIR).sort()).toEqual([...modules.keys()].sort());
    for (const [file, text] of modules)
      expect(readFileSync(new URL(file, GENERATED_DIR), 'utf8'), `src/kinds/generated/${file}: run npm run build`).toBe(
        text,
      );
  }, 60_000);

  it('every registered kind validates with its spec schema, typed by the type generated from it, and every spec schema is a kind’s', () => {
    // A schema in schemas/ that is no kind's spec: add it to NOT_KIND_SPECS in tools/build/spec-types.ts.
    expect(kindSpecSchemas()).toEqual(KINDS.map((k) => k.kind.toLowerCase()).sort());
    for (const k of KINDS) {
      const name = k.kind.toLowerCase();
      const schema: unknown = JSON.parse(readFileSync(schemaFile(name), 'utf8'));
      expect(k.schema, `${k.kind} validates with schemas/${name}.schema.json`).toEqual(schema);
      expect(typeName(`${name}.schema.json`, schema as Parameters<typeof typeName>[1])).toBe(`${k.kind}ManifestSpec`);
    }
  });

  it('names the type after the kind its title names, and refuses a title that names none', () => {
    expect(typeName('x.schema.json', { title: 'OpenAPISpec spec' })).toBe('OpenAPISpecManifestSpec');
    expect(() => typeName('x.schema.json', { title: 'Some schema' })).toThrow(/title must be "<Kind> spec"/);
  });

  it('makes every interface a type alias, so a written object is also a JSON record', () => {
    const ts =
      'export interface A {\n  b: {\n    c: string;\n  };\n}\nexport type B = string;\nexport interface C {\n  [k: string]: unknown;\n}\n';
    expect(asTypeAliases(ts)).toBe(
      'export type A = {\n  b: {\n    c: string;\n  };\n};\nexport type B = string;\nexport type C = {\n  [k: string]: unknown;\n};\n',
    );
    expect(() => asTypeAliases('export interface A extends B {\n}\n')).toThrow(/cannot make a type alias/);
  });
});
