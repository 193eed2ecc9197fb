/** The walk from a schema's `x-secret` marks to the secret places of a value (src/manifests/secret-fields.ts). */
import { beforeEach, describe, expect, it } from 'vitest';
import { markedValues, registerMarkedValues, secretMarkAt } from '../../src/manifests/secret-fields.js';
import { validateWithSchema } from '../../src/manifests/schema.js';
import {
  REDACTED,
  clearSecretsForTests,
  redactText,
  registeredSecretCount,
  withoutUserinfo,
} from '../../src/secrets.js';

beforeEach(() => clearSecretsForTests());

/** A schema with an embedded resource (own $id, internal refs), a recursive definition and pattern properties. */
const SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://x.test/root.json',
  type: 'object',
  properties: {
    hooks: {
      type: 'object',
      patternProperties: { '^h-': { type: 'string', 'x-secret': 'credential' } },
      additionalProperties: { type: 'string' },
    },
    tree: { $ref: '#/definitions/node' },
    embedded: { $ref: 'other.json' },
  },
  definitions: {
    node: {
      type: 'object',
      properties: { key: { type: 'string', 'x-secret': 'credential' }, child: { $ref: '#/definitions/node' } },
    },
    other: {
      $id: 'other.json',
      type: 'object',
      properties: { inner: { $ref: '#/definitions/deep' } },
      definitions: { deep: { type: 'string', 'x-secret': 'payload' } },
    },
  },
};

describe('markedValues', () => {
  it('follows pattern properties, recursive refs and refs into an embedded resource', () => {
    const value = {
      hooks: { 'h-1': 'secret-one-value', plain: 'not-a-secret' },
      tree: { key: 'k-level-one', child: { child: { key: 'k-level-three' } } },
      embedded: { inner: 'payload-value' },
    };
    const found = markedValues(SCHEMA, value).map((m) => [m.path.join('.'), m.mark, m.value]);
    expect(found).toEqual([
      ['hooks.h-1', 'credential', 'secret-one-value'],
      ['tree.key', 'credential', 'k-level-one'],
      ['tree.child.child.key', 'credential', 'k-level-three'],
      ['embedded.inner', 'payload', 'payload-value'],
    ]);
  });

  it('a scalar where a list or object of secrets belongs counts as one; a false mark unmarks a part', () => {
    expect(secretMarkAt(SCHEMA, { hooks: 'https://hooks.test/abc' }, ['hooks'])).toBe('credential');
    expect(secretMarkAt(SCHEMA, { tree: 42 }, ['tree'])).toBe('credential');
    const cert = {
      type: 'object',
      properties: {
        c: {
          'x-secret': 'payload',
          oneOf: [{ type: 'string' }, { type: 'object', properties: { file: { type: 'string', 'x-secret': false } } }],
        },
      },
    };
    registerMarkedValues(markedValues(cert, { c: { file: 'certs/idp.pem', other: 'other-part-value' } }));
    expect(redactText('certs/idp.pem')).toBe('certs/idp.pem');
    expect(redactText('other-part-value')).toBe(REDACTED);
  });

  it('registers env-named and userinfo secrets; a URL is shown without its credentials, parseable or not', () => {
    const schema = {
      type: 'object',
      properties: { keyEnv: { type: 'string', 'x-secret': 'env' }, url: { type: 'string', 'x-secret': 'userinfo' } },
    };
    registerMarkedValues(markedValues(schema, { keyEnv: 'SIGNING', url: 'http://me:p%40ss-word-1@not a host/v1' }), {
      env: { SIGNING: 'signing-key-value-1' },
    });
    expect(redactText('signing-key-value-1 p@ss-word-1 p%40ss-word-1')).toBe(`${REDACTED} ${REDACTED} ${REDACTED}`);
    expect(withoutUserinfo('ftp://u:p@h/x')).toBe(`ftp://${REDACTED}@h/x`);
    // Unencoded `/` or `@` in a password: everything up to the last `@` goes.
    expect(withoutUserinfo('http://u:pa/s@s@h/x')).toBe(`http://${REDACTED}@h/x`);
    expect(withoutUserinfo('https://h/x')).toBe('https://h/x');
  });

  it('a schema without marks registers nothing and walks nothing', () => {
    const issues = validateWithSchema(
      { a: 'a-long-enough-value' },
      { type: 'object', properties: { a: { type: 'integer' } } },
      () => ({ file: 'f', line: 1, column: 1 }),
      '',
    );
    expect(issues[0]!.message).toBe('a: must be integer (got string "a-long-enough-value")');
    expect(registeredSecretCount()).toBe(0);
  });
});
