/** Build-time standalone validators: same verdicts and errors as ajv's run-time compile, used only for their own schema. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { afterAll, describe, expect, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { shippedSchemas, writeValidators } from '../../tools/build/precompile-validators.js';
import { ENV_OVERRIDES } from '../../src/config/overrides.js';
import { configSchema } from '../../src/config/schema.js';
import { KINDS } from '../../src/kinds/index.js';
import { compileSchema, createAjv } from '../../src/manifests/schema.js';

// Inside node_modules so the generated code resolves ajv's runtime modules as it does from dist/.
const dir = mkdtempSync(join(new URL('../../node_modules/', import.meta.url).pathname, '.docops-validators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeValidators(shippedSchemas(), dir);
const generated = new Map(createRequire(import.meta.url)(join(dir, 'index.cjs')) as [string, () => ValidateFunction][]);
/** The generated validator of a schema (its module loaded on demand), if any. */
const generatedFor = (schema: object | undefined): ValidateFunction | undefined =>
  generated.get(JSON.stringify(schema))?.();

/** Specs of kinds the examples do not show (the examples plan against the demo seed). */
const EXTRA_SPECS: Record<string, Record<string, unknown>[]> = {
  SamlProvider: [
    {
      label: 'Okta',
      entityID: 'http://www.okta.com/exk1',
      ssoURL: 'https://acme.okta.test/sso',
      certificate: { file: 'certs/okta.pem' },
      defaultTeam: 'Platform',
      defaultRole: 'read',
    },
    { label: 'Azure', id: 'saml-2', certificate: 'MIIB', defaultRole: null },
  ],
};

/** Every spec of config.example by kind (and EXTRA_SPECS), plus broken variants of each. */
function samples(kind: string): unknown[] {
  const root = new URL('../../config.example/manifests/', import.meta.url);
  const specs: Record<string, unknown>[] = [...(EXTRA_SPECS[kind] ?? [])];
  for (const f of readdirSync(root)) {
    for (const d of parseAllDocuments(readFileSync(new URL(f, root), 'utf8'))) {
      const doc = d.toJS() as { kind?: string; spec?: Record<string, unknown> } | null;
      if (doc?.kind === kind && doc.spec) specs.push(doc.spec);
    }
  }
  const broken = specs.flatMap((s) => [
    { ...s, unknownField: 1 },
    Object.fromEntries(Object.keys(s).map((k) => [k, 42])),
  ]);
  return [
    ...specs,
    ...broken,
    {},
    null,
    'text',
    [],
    { members: [{ email: 'not an e-mail', role: 'boss' }] },
    { title: '' },
  ];
}

describe('precompiled kind validators', () => {
  test.each(KINDS.map((k) => [k.kind, k] as const))(
    '%s: same verdict and errors as the run-time compile',
    (_name, kind) => {
      const pre = generatedFor(kind.schema);
      expect(pre).toBeDefined();
      const runtime = createAjv(kind.schema).compile(kind.schema);
      const values = samples(kind.kind);
      expect(values.length).toBeGreaterThan(6);
      for (const v of values) {
        expect(pre!(v)).toBe(runtime(v));
        expect(pre!.errors ?? null).toEqual(runtime.errors ?? null);
      }
    },
  );

  test('compileSchema uses a generated validator only for a schema with the same JSON text', () => {
    const kind = KINDS[0]!;
    const pre = generatedFor(kind.schema)!;
    expect(compileSchema(structuredClone(kind.schema), generated)).toBe(pre);
    const changed = { ...structuredClone(kind.schema), description: 'changed' };
    const v = compileSchema(changed, generated);
    expect(v).not.toBe(pre);
    expect(v({})).toBe(pre({}));
  });
});

describe('precompiled config validators', () => {
  const config = configSchema() as { properties: Record<string, object> };
  const example = parseAllDocuments(
    readFileSync(new URL('../../config.example/docops.yaml', import.meta.url), 'utf8'),
  )[0]!.toJS() as Record<string, unknown>;

  test('docops.yaml: same verdict and errors as the run-time compile', () => {
    const pre = generatedFor(config);
    expect(pre).toBeDefined();
    const runtime = createAjv(config).compile(config);
    const broken = [
      { ...example, unknownField: 1 },
      { ...example, mode: 'sometimes' },
      { ...example, concurrency: 0 },
      { ...example, safety: { deletes: 'all' } },
      {},
      null,
      [],
    ];
    for (const v of [example, ...broken]) {
      expect(pre!(v)).toBe(runtime(v));
      expect(pre!.errors ?? null).toEqual(runtime.errors ?? null);
    }
    expect(pre!({ ...example, mode: 'sometimes' })).toBe(false);
  });

  test('every field a DOCOPS_* variable overrides has its own validator', () => {
    for (const field of new Set(Object.values(ENV_OVERRIDES))) {
      const pre = generatedFor(config.properties[field]);
      expect(pre, field).toBeDefined();
      const runtime = createAjv(config).compile(config.properties[field]!);
      for (const v of ['text', 42, ['a'], '', -1]) {
        expect(pre!(v)).toBe(runtime(v));
        expect(pre!.errors ?? null).toEqual(runtime.errors ?? null);
      }
    }
  });
});
