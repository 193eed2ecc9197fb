/**
 * Generated validators with shared subschemas (tools/build/shared-subschemas.ts): the Site schema's validator
 * shares its repeated parts (link targets, fonts, code themes, colour pairs) instead of inlining each copy, and
 * still reports exactly the errors — list, order, schema paths — and so the messages of ajv's compile of the
 * schema as written, for bad values at every place of the customization block, several at once included.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import { standaloneValidator } from '../../tools/build/precompile-validators.js';
import { factorRepeats } from '../../tools/build/shared-subschemas.js';
import { KINDS } from '../../src/kinds/index.js';
import { describeError, selectErrors } from '../../src/manifests/ajv-messages.js';
import { createAjv } from '../../src/manifests/schema.js';

// Inside node_modules so the generated code resolves ajv's runtime modules as it does from dist/.
const dir = mkdtempSync(join(new URL('../../node_modules/', import.meta.url).pathname, '.docops-shared-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let written = 0;
function generated(schema: object): { validate: ValidateFunction; size: number } {
  const file = join(dir, `v${++written}.cjs`);
  const code = standaloneValidator(schema);
  writeFileSync(file, code);
  return { validate: createRequire(import.meta.url)(file) as ValidateFunction, size: code.length };
}

// ajv's standalone module is CommonJS with `exports.default`; depending on the loader the import is either.
type Standalone = (ajv: Ajv, validate: unknown) => string;
const standaloneModule = standaloneCode as Standalone | { default: Standalone };
const toCode: Standalone = typeof standaloneModule === 'function' ? standaloneModule : standaloneModule.default;

type Schema = Record<string, unknown>;
const siteSchema = KINDS.find((k) => k.kind === 'Site')!.schema as Schema;
const customization = (siteSchema['definitions'] as Record<string, Schema>)['customization']!;

/** A value the schema probably accepts (enough that bad values deeper down are reached). */
function good(s: Schema): unknown {
  if (Array.isArray(s['enum'])) return s['enum'][0];
  if ('const' in s) return s['const'];
  const branches = (s['oneOf'] ?? s['anyOf']) as Schema[] | undefined;
  if (branches) return good(branches[0]!);
  const type = Array.isArray(s['type']) ? s['type'][0] : s['type'];
  if (type === 'object' || s['properties']) {
    const props = (s['properties'] ?? {}) as Record<string, Schema>;
    return Object.fromEntries(Object.entries(props).map(([k, p]) => [k, good(p)]));
  }
  if (type === 'array') return [good((s['items'] ?? {}) as Schema)];
  if (type === 'integer' || type === 'number') return typeof s['minimum'] === 'number' ? s['minimum'] : 1;
  if (type === 'boolean') return true;
  if (type === 'string') {
    const pattern = typeof s['pattern'] === 'string' ? new RegExp(s['pattern']) : undefined;
    return ['https://a.test/x', '#FF6600', 'Acme docs', 'x'].find((v) => !pattern || pattern.test(v)) ?? 'x';
  }
  return 'x';
}

const BAD: unknown[] = [42, 'nope', null, {}, [], { bogus: 1 }, '#12345', 'x'.repeat(3000)];

/** `value` (good for `s`) with one bad value at each place `s` describes, each branch of a oneOf taken too. */
function mutations(s: Schema, value: unknown, depth = 0): unknown[] {
  const out: unknown[] = BAD.filter((b) => JSON.stringify(b) !== JSON.stringify(value));
  if (depth > 8) return out;
  const branches = (s['oneOf'] ?? s['anyOf']) as Schema[] | undefined;
  if (branches) for (const b of branches) out.push(...mutations(b, good(b), depth + 1).slice(BAD.length - 1), good(b));
  const props = s['properties'] as Record<string, Schema> | undefined;
  if (props && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    out.push({ ...value, unknownField: 1 });
    for (const req of (s['required'] ?? []) as string[])
      out.push(Object.fromEntries(Object.entries(value).filter(([k]) => k !== req)));
    for (const [k, p] of Object.entries(props)) {
      for (const m of mutations(p, (value as Record<string, unknown>)[k], depth + 1)) out.push({ ...value, [k]: m });
    }
  }
  if (s['type'] === 'array' && Array.isArray(value) && s['items'])
    for (const m of mutations(s['items'] as Schema, value[0], depth + 1)) out.push([m]);
  return out;
}

const messages = (errors: readonly ErrorObject[] | null | undefined, value: unknown): string[] =>
  selectErrors(errors ?? []).map((e) => {
    const p = describeError(e, value);
    return `${p.path.join('.')}: ${p.message}`;
  });

describe('generated validators with shared subschemas', () => {
  const site = generated(siteSchema);
  const runtime = createAjv(siteSchema).compile(siteSchema);
  const base = { title: 'Docs' };

  it("share what the Site schema repeats: the customization block's validator is under half the size of one inlining every copy", () => {
    expect(factorRepeats(siteSchema).shared.length).toBeGreaterThan(3);
    const inlinedSize = (schema: Schema): number => {
      const ajv = createAjv(schema, { source: true, optimize: true });
      return toCode(ajv as Ajv, ajv.compile(schema)).length;
    };
    // The repeats are the customization block's; the Site's other fields each appear once and cost the same either way.
    const block = { ...customization, definitions: siteSchema['definitions'] };
    expect(generated(block).size).toBeLessThan(inlinedSize(block) / 2);
    expect(inlinedSize(siteSchema) - site.size).toBeGreaterThan(inlinedSize(block) / 2);
  });

  it('give the errors and messages of the schema as written for a bad value anywhere in customization', () => {
    const values = mutations(customization, good(customization));
    expect(values.length).toBeGreaterThan(1000);
    let failing = 0;
    for (const c of values) {
      const spec = { ...base, customization: c };
      const verdict = runtime(spec);
      expect(site.validate(spec)).toBe(verdict);
      expect(site.validate.errors ?? null).toEqual(runtime.errors ?? null);
      expect(messages(site.validate.errors, spec)).toEqual(messages(runtime.errors, spec));
      if (!verdict) failing++;
    }
    expect(failing).toBeGreaterThan(values.length / 2);
  });

  it('bad fonts, code themes, colours and link targets in several places at once read the same', () => {
    const badFont = { fontFamily: '', fontFaces: [{ weight: 0, sources: [{ url: 'not a uri' }] }], extra: true };
    const cases: unknown[] = [
      { styling: { font: badFont, headingFont: 'Comic', monospaceFont: { ...badFont, custom: 'yes' } } },
      {
        styling: {
          codeTheme: { default: { light: 'nope', dark: 42 }, openapi: { light: 'default-light', dark: 'solarized' } },
        },
      },
      {
        styling: {
          primaryColor: { light: 'orange', dark: '#12' },
          infoColor: { light: 1 },
          tint: { color: { dark: 'x' } },
          dangerColor: 'red',
        },
      },
      {
        header: {
          primaryLink: { kind: 'page' },
          links: [{ title: 'A', to: { kind: 'nope' }, links: [{ title: 'B', to: { kind: 'url', url: 1 } }] }],
        },
        footer: { groups: [{ title: 'G', links: [{ title: 'C', to: { kind: 'space' } }] }] },
        announcement: { link: { title: 'D', to: { kind: 'file', file: 2, extra: 1 } } },
      },
      { localizedTitle: { xx: 'a' }, announcement: { localizedMessage: { en: 1, zz: 'b' } } },
    ];
    for (const c of cases) {
      const spec = { ...base, customization: c };
      expect(runtime(spec)).toBe(false);
      expect(site.validate(spec)).toBe(false);
      expect(site.validate.errors).toEqual(runtime.errors);
      expect(messages(site.validate.errors, spec)).toEqual(messages(runtime.errors, spec));
    }
  });
});

describe('factorRepeats', () => {
  it('shares a repeated subschema under definitions, leaves the argument alone, and keeps references of its own', () => {
    const big = {
      type: 'object',
      additionalProperties: false,
      properties: {
        light: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
        dark: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
      },
    };
    const schema = {
      definitions: { one: { type: 'string' } },
      properties: { a: big, b: { items: big }, c: { oneOf: [big, { $ref: '#/definitions/one' }] } },
    };
    const before = JSON.stringify(schema);
    const { schema: out, shared } = factorRepeats(schema, 50);
    expect(JSON.stringify(schema)).toBe(before);
    expect(shared).toEqual(['docops-shared-0']);
    expect(out).toEqual({
      definitions: { one: { type: 'string' }, 'docops-shared-0': big },
      properties: {
        a: { $ref: '#/definitions/docops-shared-0' },
        b: { items: { $ref: '#/definitions/docops-shared-0' } },
        c: { oneOf: [{ $ref: '#/definitions/docops-shared-0' }, { $ref: '#/definitions/one' }] },
      },
    });
    // and its validator reports what the schema as written does
    const v = generated(schema).validate;
    const runtime = createAjv(schema).compile(schema);
    for (const value of [
      { a: { light: 'x' }, b: [{ dark: 1 }, 2], c: { light: '#000000', x: 1 } },
      { c: 3 },
      { a: 1 },
    ]) {
      expect(v(value)).toBe(runtime(value));
      expect(v.errors).toEqual(runtime.errors);
    }
  });

  it('leaves a schema without big repeats as it is', () => {
    expect(factorRepeats({ properties: { a: { type: 'string' }, b: { type: 'string' } } }).shared).toEqual([]);
  });
});
