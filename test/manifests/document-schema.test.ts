/**
 * schemas/document.schema.json is for editors only; these tests keep it in step with the registered kinds
 * and with what the loader accepts.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import { OWNERSHIP_MODES } from '../../src/model/plan.js';
import { KINDS } from '../../src/kinds/index.js';
import { isFileContent } from '../../src/manifests/file-refs.js';
import { ALLOW_ENTRY, API_VERSION, ENVELOPE_FIELDS, loadManifests } from '../../src/manifests/index.js';

const schemaUrl = (name: string) => new URL(`../../schemas/${name}`, import.meta.url);
const readJson = (name: string) => JSON.parse(readFileSync(schemaUrl(name), 'utf8')) as Record<string, unknown>;

interface DocumentSchema {
  properties: Record<string, { const?: string; enum?: string[] }>;
  allOf: { if: { properties: { kind: { const: string } } }; then: { properties: { spec: { $ref: string } } } }[];
}
const documentSchema = readJson('document.schema.json') as unknown as DocumentSchema;

describe('document.schema.json', () => {
  test('lists exactly the registered kinds, each with its spec schema by relative $ref', () => {
    const registered = KINDS.map((k) => k.kind);
    // Written by the build from the registry (tools/build/kind-schemas.ts): after adding a kind, run npm run build.
    expect(documentSchema.properties.kind!.enum).toEqual(registered);
    expect(documentSchema.allOf.map((c) => [c.if.properties.kind.const, c.then.properties.spec.$ref])).toEqual(
      registered.map((k) => [k, `./${k.toLowerCase()}.schema.json`]),
    );
  });

  test('prune is refused exactly for the kinds that are not prunable, here and in the daemon config schema', () => {
    const never = KINDS.filter((k) => k.prunable === false).map((k) => k.kind);
    expect(never).toEqual(['Organization']);
    const pruneRule = (kind: string) =>
      (
        documentSchema.allOf.find((c) => c.if.properties.kind.const === kind)!.then.properties as Record<
          string,
          unknown
        >
      )['prune'];
    for (const k of KINDS)
      expect(pruneRule(k.kind), k.kind).toEqual(
        k.prunable === false ? expect.objectContaining({ const: false }) : undefined,
      );
    const config = readJson('config.schema.json') as { properties: { prune: { propertyNames: { enum: string[] } } } };
    expect(config.properties.prune.propertyNames.enum).toEqual(
      KINDS.filter((k) => k.prunable !== false).map((k) => k.kind),
    );
  });

  test('the daemon config names every registered kind under kinds:, and the ownership modes here and there are the same', () => {
    const config = readJson('config.schema.json') as {
      properties: {
        kinds: {
          propertyNames: { enum: string[] };
          additionalProperties: { properties: { mode: { enum: string[] } } };
        };
      };
    };
    expect(config.properties.kinds.propertyNames.enum).toEqual(KINDS.map((k) => k.kind));
    expect(config.properties.kinds.additionalProperties.properties.mode.enum).toEqual([...OWNERSHIP_MODES]);
    expect(documentSchema.properties.mode!.enum).toEqual([...OWNERSHIP_MODES]);
  });

  test('allowEmpty is refused exactly for the kinds that declare no lists', () => {
    const rule = (kind: string) =>
      (
        documentSchema.allOf.find((c) => c.if.properties.kind.const === kind)!.then.properties as Record<
          string,
          unknown
        >
      )['allowEmpty'];
    for (const k of KINDS)
      expect(rule(k.kind), k.kind).toEqual(
        (k.lists ?? []).length === 0 ? expect.objectContaining({ const: false }) : undefined,
      );
    const ajv = new Ajv({ allErrors: true, strict: false });
    for (const k of KINDS)
      ajv.addSchema(readJson(`${k.kind.toLowerCase()}.schema.json`), `${k.kind.toLowerCase()}.schema.json`);
    const validate = ajv.compile(documentSchema);
    const collection = {
      apiVersion: API_VERSION,
      kind: 'Collection',
      metadata: { organization: 'o' },
      spec: { title: 'Docs', access: [] },
    };
    expect(validate({ ...collection, allowEmpty: true })).toBe(true);
    expect(validate({ ...collection, allowEmpty: 'yes' })).toBe(false);
    expect(
      validate({
        apiVersion: API_VERSION,
        kind: 'Members',
        metadata: { organization: 'o' },
        allowEmpty: true,
        spec: { members: [] },
      }),
    ).toBe(false);
  });

  test('the daemon config’s allowEnv entries are the ones --allow-env accepts', () => {
    const config = readJson('config.schema.json') as { properties: { allowEnv: { items: { pattern: string } } } };
    expect(config.properties.allowEnv.items.pattern).toBe(ALLOW_ENTRY.source);
  });

  test('the envelope matches the loader’s', () => {
    expect(documentSchema.properties.apiVersion!.const).toBe(API_VERSION);
    expect(Object.keys(documentSchema.properties).sort()).toEqual([...ENVELOPE_FIELDS].sort());
  });

  test('accepts the example manifests the loader accepts, and rejects a bad spec', async () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    for (const k of KINDS)
      ajv.addSchema(readJson(`${k.kind.toLowerCase()}.schema.json`), `${k.kind.toLowerCase()}.schema.json`);
    const validate = ajv.compile(documentSchema);
    const { documents } = await loadManifests(
      fileURLToPath(new URL('../../config.example/manifests', import.meta.url)),
      KINDS,
      { env: {} },
    );
    expect(documents.length).toBeGreaterThan(0);
    for (const d of documents) {
      // A file the manifest names (`{file}`) reaches the kind as its content; the editor sees the `{file}` written.
      const spec: unknown = JSON.parse(
        JSON.stringify(d.spec, (_k, v: unknown) => (isFileContent(v) ? { file: v.file } : v)),
      );
      const plain = {
        apiVersion: d.apiVersion,
        kind: d.kind,
        metadata: d.metadata,
        spec,
        ...(d.prune === undefined ? {} : { prune: d.prune }),
      };
      expect(validate(plain), `${d.file}#${d.index}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(
      validate({ apiVersion: API_VERSION, kind: 'Team', metadata: { organization: 'o' }, spec: { titel: 'x' } }),
    ).toBe(false);
  });
});
