/**
 * The kind lists of schemas/document.schema.json and schemas/config.schema.json are written by the build from the
 * kind registry (tools/build/kind-schemas.ts) and committed: they must be exactly what the build writes. A failure
 * here means the registry changed without `npm run build`: run it and commit what it rewrote.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kindListingSchemas } from '../../tools/build/kind-schemas.js';
import { KINDS } from '../../src/kinds/index.js';

const schemaFile = (file: string) => new URL(`../../schemas/${file}`, import.meta.url);

describe('the kinds listed in the published schemas', () => {
  it('are the registry’s, in document.schema.json and config.schema.json', () => {
    for (const [file, text] of kindListingSchemas())
      expect(readFileSync(schemaFile(file), 'utf8'), `schemas/${file}: run npm run build`).toBe(text);
  });

  it('follow the registry: a kind added is listed, with the rules its definition implies', () => {
    const extra = { ...KINDS[0]!, kind: 'Example', prunable: true, lists: [] };
    const listed = kindListingSchemas([...KINDS, extra]);
    const doc = JSON.parse(listed.get('document.schema.json')!) as {
      properties: { kind: { enum: string[] } };
      allOf: { then: { properties: Record<string, unknown> } }[];
    };
    expect(doc.properties.kind.enum).toEqual([...KINDS.map((k) => k.kind), 'Example']);
    expect(doc.allOf.at(-1)!.then.properties).toEqual({
      spec: { $ref: './example.schema.json' },
      allowEmpty: expect.objectContaining({ const: false }),
    });
    const config = JSON.parse(listed.get('config.schema.json')!) as {
      properties: { prune: { propertyNames: { enum: string[] } } };
    };
    expect(config.properties.prune.propertyNames.enum.at(-1)).toBe('Example');
    const never = kindListingSchemas([{ ...extra, prunable: false, lists: ['items'] }]);
    const rule = (JSON.parse(never.get('document.schema.json')!) as typeof doc).allOf[0]!.then.properties;
    expect(rule).toEqual({ spec: { $ref: './example.schema.json' }, prune: expect.objectContaining({ const: false }) });
    expect((JSON.parse(never.get('config.schema.json')!) as typeof config).properties.prune.propertyNames.enum).toEqual(
      [],
    );
  });
});
