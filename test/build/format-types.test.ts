/**
 * The plan's and the journal's types in src/model/generated/ are committed, and must be exactly what the build
 * generates from schemas/plan.schema.json and schemas/journal.schema.json (docs/dev/formats.md). A failure here means
 * a schema changed without `npm run build`: run it and commit what it rewrote.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FORMAT_TYPES_DIR, FORMATS, formatModule, typingSchema } from '../../tools/build/format-types.js';
import { OWNERSHIP_MODES, PHASES } from '../../src/model/plan.js';
import { planSchema } from '../../src/model/format-schemas.js';

describe('the types of the plan and the journal, generated from their schemas', () => {
  it('src/model/generated holds exactly what the build generates', async () => {
    expect(readdirSync(FORMAT_TYPES_DIR).sort()).toEqual(FORMATS.map((f) => `${f.name}.ts`).sort());
    for (const format of FORMATS)
      expect(
        readFileSync(new URL(`${format.name}.ts`, FORMAT_TYPES_DIR), 'utf8'),
        `src/model/generated/${format.name}.ts: run npm run build`,
      ).toBe(await formatModule(format));
  }, 60_000);

  it('types a conditional as the union of its branches and drops rules that only say which members are present', () => {
    expect(
      typingSchema({
        type: 'object',
        properties: { a: { if: { type: 'array' }, then: { type: 'array' }, else: { type: 'string' } } },
        anyOf: [{ required: ['a'] }, { required: ['b'] }],
        if: { properties: { a: { const: 1 } } },
        then: { required: ['a'] },
        else: { required: ['b'] },
      }),
    ).toEqual({ type: 'object', properties: { a: { anyOf: [{ type: 'array' }, { type: 'string' }] } } });
    expect(typingSchema({ $ref: '#/definitions/A', description: 'd' })).toEqual({ $ref: '#/definitions/A' });
  });

  it('the code’s lists of phases and ownership modes are the schema’s', () => {
    const defs = planSchema().definitions!;
    expect(PHASES).toEqual(defs['Phase']!.enum);
    expect(OWNERSHIP_MODES).toEqual(defs['OwnershipMode']!.enum);
  });
});
