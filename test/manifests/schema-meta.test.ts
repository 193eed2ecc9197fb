/**
 * The validator compiles schemas without checking them against their meta-schema (a cold-start cost paid by
 * every plan), so every schema docops ships is checked here instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';

const dir = new URL('../../schemas/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.schema.json'));

describe('shipped JSON Schemas are valid against their meta-schema', () => {
  test('there are schemas to check', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  test.each(files)('%s', (file) => {
    const schema = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as { $schema?: string };
    const dialect = String(schema.$schema ?? '');
    const ajv = dialect.includes('2020-12')
      ? new Ajv2020({ strict: false })
      : dialect.includes('2019-09')
        ? new Ajv2019({ strict: false })
        : new Ajv({ strict: false });
    const valid = ajv.validateSchema(schema);
    expect(ajv.errors ?? [], file).toEqual([]);
    expect(valid).toBe(true);
  });

  test('a broken schema is caught by this check', () => {
    expect(new Ajv({ strict: false }).validateSchema({ type: 'no-such-type' })).toBe(false);
  });
});
