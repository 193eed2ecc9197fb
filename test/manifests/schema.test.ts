/** validateWithSchema: readable messages for the JSON Schema keywords kinds and config use. */
import { describe, expect, test } from 'vitest';
import type { SourcePos } from '../../src/model/errors.js';
import { compileSchema, validateWithSchema, type DocPath } from '../../src/manifests/index.js';

/** A fake locator that encodes the path it was asked for, so tests can see where each issue points. */
const locate = (p: DocPath): SourcePos => ({ file: p.join('.') || '<root>', line: 1, column: 1 });
const locateKey = (p: DocPath): SourcePos => ({ file: 'key:' + p.join('.'), line: 1, column: 1 });
const check = (value: unknown, schema: object, prefix = 'spec') =>
  validateWithSchema(value, schema, locate, prefix, locateKey).map((i) => `${i.file} | ${i.message} | ${i.path}`);

describe('validateWithSchema', () => {
  test('valid values give no issues', () => {
    expect(check({ a: 'x' }, { type: 'object', properties: { a: { type: 'string' } } })).toEqual([]);
  });

  test('all errors are reported, each at its own path', () => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      properties: {
        n: { type: 'integer', minimum: 1, maximum: 9 },
        tags: { type: 'array', uniqueItems: true, maxItems: 2, items: { type: 'string' } },
        mode: { const: 'strict' },
        either: { type: ['string', 'null'] },
        when: { type: 'string', format: 'date-time' },
      },
    };
    expect(check({ n: 0, tags: ['a', 'b', 'a'], mode: 'lax', either: 3, when: 'soon', extra: {} }, schema)).toEqual([
      'key:extra | spec: unknown field "extra" | /spec',
      'n | spec.n: must be >= 1 (got 0) | /spec/n',
      'tags | spec.tags: must have at most 2 items (got 3) | /spec/tags',
      'tags.2 | spec.tags[2]: duplicate item (same as item [0]) | /spec/tags/2',
      'mode | spec.mode: must be "strict" (got "lax") | /spec/mode',
      'either | spec.either: must be string or null (got integer 3) | /spec/either',
      'when | spec.when: must be a valid date-time (got "soon") | /spec/when',
    ]);
  });

  test('oneOf reports the errors of the closest alternative only', () => {
    const schema = {
      type: 'object',
      properties: {
        member: {
          oneOf: [
            {
              type: 'object',
              required: ['email'],
              additionalProperties: false,
              properties: { email: { type: 'string' }, role: { enum: ['read', 'edit'] } },
            },
            { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string' } } },
          ],
        },
      },
    };
    expect(check({ member: { email: 'a@b.c', role: 'owner' } }, schema)).toEqual([
      'member.role | spec.member.role: must be one of read, edit (got "owner") | /spec/member/role',
    ]);
    expect(check({ member: { email: 'x', id: 'y' } }, schema)).toEqual([
      'key:member.id | spec.member: unknown field "id" | /spec/member',
    ]);
  });

  test('if/then: only the failing then-errors are shown', () => {
    const schema = {
      type: 'object',
      if: { properties: { kind: { const: 'a' } }, required: ['kind'] },
      then: { required: ['a'] },
    };
    expect(check({ kind: 'a' }, schema)).toEqual(['<root> | spec: missing required field "a" | /spec']);
  });

  test('propertyNames errors name the bad key and point at it', () => {
    const schema = {
      type: 'object',
      properties: { labels: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } } },
    };
    expect(check({ labels: { ok: 1, Bad: 2 } }, schema)).toEqual([
      'key:labels.Bad | spec.labels: invalid field name "Bad": must match the pattern ^[a-z]+$ (got "Bad") | /spec/labels',
    ]);
  });

  test('keys that look like numbers are keys; odd keys are quoted in messages', () => {
    const schema = { type: 'object', additionalProperties: { type: 'string' } };
    expect(check({ '7': 1, 'a b': 2 }, schema, '')).toEqual([
      '7 | ["7"]: must be string (got integer 1) | /7',
      'a b | ["a b"]: must be string (got integer 2) | /a b',
    ]);
  });

  test('an empty prefix validates a whole file (e.g. docops.yaml)', () => {
    const schema = { type: 'object', required: ['organization'], properties: { port: { type: 'integer' } } };
    expect(check({ port: 'x' }, schema, '')).toEqual([
      '<root> | missing required field "organization" | ',
      'port | port: must be integer (got string "x") | /port',
    ]);
  });

  test('draft 2020-12 schemas are validated with the 2020 dialect', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] } },
      dependentRequired: { a: ['b'] },
    };
    expect(check({ pair: ['x', 'y'], a: 1 }, schema)).toEqual([
      'pair.1 | spec.pair[1]: must be integer (got string "y") | /spec/pair/1',
      '<root> | spec: missing field "b" (required when "a" is set) | /spec',
    ]);
  });

  test('editor-only keywords are allowed and validators are compiled once per schema object', () => {
    const schema = { $id: 'https://example.test/x.json', type: 'string', markdownDescription: '**x**' };
    expect(compileSchema(schema)).toBe(compileSchema(schema));
    // A second schema object with the same $id does not clash.
    expect(check(5, { ...schema }, 'x')).toEqual(['<root> | x: must be string (got integer 5) | /x']);
  });
});
