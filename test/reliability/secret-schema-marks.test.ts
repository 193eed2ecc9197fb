/**
 * Which fields hold secrets is said in one place: the schemas, by the `x-secret` keyword
 * (src/manifests/secret-fields.ts registers and hides what it marks). A field that looks like it could hold a
 * secret — by its name, by its description, or any URL of the daemon config (webhook URLs are credentials) —
 * must carry the keyword, `false` included, so a field added later is a decision, not an oversight.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { KINDS } from '../../src/kinds/index.js';
import { SECRET_KEYWORD, SECRET_MARKS, secretMarkAt } from '../../src/manifests/secret-fields.js';

/** Names a secret would go by. */
const SECRET_NAME =
  /secret|token|password|passwd|passphrase|credential|private_?key|api_?key|certificate|signing|hmac|webhook|bearer|auth/i;
/** Descriptions that say the value is (or leads to) one. */
const SECRET_DESCRIPTION = /secret|credential|token|password/i;
/** In the daemon config, every URL is an endpoint docops calls or posts to: it may carry credentials. */
const URL_NAME = /url|uri|endpoint|hook/i;

interface Field {
  at: string;
  name: string;
  schema: Record<string, unknown>;
}

/** Every property schema of `schema`, wherever it is declared (definitions, combinators, items …). */
function properties(schema: unknown, at = ''): Field[] {
  if (schema === null || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap((s, i) => properties(s, `${at}/${i}`));
  const out: Field[] = [];
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if ((k === 'properties' || k === 'patternProperties') && v !== null && typeof v === 'object') {
      for (const [name, s] of Object.entries(v as Record<string, unknown>)) {
        out.push({ at: `${at}/${k}/${name}`, name, schema: s as Record<string, unknown> });
        out.push(...properties(s, `${at}/${k}/${name}`));
      }
    } else out.push(...properties(v, `${at}/${k}`));
  }
  return out;
}

/** The fields that look secret-bearing but say nothing about it. */
function unmarked(schema: object, options: { urls: boolean }): string[] {
  return properties(schema)
    .filter(
      ({ name, schema: s }) =>
        SECRET_NAME.test(name) ||
        SECRET_DESCRIPTION.test(String(s['description'] ?? '')) ||
        (options.urls && URL_NAME.test(name)),
    )
    .filter(({ schema: s }) => !(SECRET_KEYWORD in s))
    .map((f) => f.at);
}

const SCHEMA_FILES = readdirSync('schemas').filter((f) => f.endsWith('.schema.json'));
const read = (file: string): object => JSON.parse(readFileSync(`schemas/${file}`, 'utf8')) as object;

describe('secret-bearing schema fields are marked', () => {
  it.each(SCHEMA_FILES)('%s: every secret-looking field carries x-secret, with a known value', (file) => {
    const schema = read(file);
    expect(unmarked(schema, { urls: file === 'config.schema.json' })).toEqual([]);
    for (const { at, schema: s } of properties(schema))
      if (SECRET_KEYWORD in s) expect(SECRET_MARKS, at).toContain(s[SECRET_KEYWORD]);
  });

  it('the check fails for a field added without the keyword (a signing key, a token, a webhook URL)', () => {
    const schema = structuredClone(read('config.schema.json')) as { properties: Record<string, object> };
    const notify = schema.properties['notify'] as { items: { properties: Record<string, unknown> } };
    notify.items.properties['signingKey'] = { type: 'string' };
    schema.properties['alertWebhook'] = { type: 'string', description: 'where alerts go' };
    schema.properties['ha'] = { type: 'object', properties: { apiToken: { type: 'string' } } };
    expect(unmarked(schema, { urls: true }).sort()).toEqual([
      '/properties/alertWebhook',
      '/properties/ha/properties/apiToken',
      '/properties/notify/items/properties/signingKey',
    ]);
    // A manifest schema too: a private key, and a field whose description says it holds a secret.
    const saml = structuredClone(read('samlprovider.schema.json')) as { properties: Record<string, unknown> };
    saml.properties['privateKey'] = { type: 'string' };
    saml.properties['clientId'] = { type: 'string', description: 'the OAuth client secret' };
    expect(unmarked(saml, { urls: false })).toEqual(['/properties/privateKey', '/properties/clientId']);
  });

  it('the schemas docops validates with mark the secrets it knows, and the walk finds them where the values are', () => {
    const config = configSchema();
    const value = {
      apiUrl: 'https://u:p@h/v1',
      reconcileSecret: 'x'.repeat(16),
      notify: [{ type: 'webhook', url: 'https://h/x', secretEnv: 'KEY' }],
      tokenFile: 't',
    };
    expect(secretMarkAt(config, value, ['notify', 0, 'url'])).toBe('credential');
    expect(secretMarkAt(config, value, ['notify', 0, 'secretEnv'])).toBe('env');
    expect(secretMarkAt(config, value, ['reconcileSecret'])).toBe('credential');
    expect(secretMarkAt(config, value, ['apiUrl'])).toBe('userinfo');
    expect(secretMarkAt(config, value, ['tokenFile'])).toBe(false);
    expect(secretMarkAt(config, value, ['notify', 0, 'type'])).toBeUndefined();
    const saml = KINDS.find((k) => k.kind === 'SamlProvider')!.schema;
    expect(secretMarkAt(saml, { label: 'x', certificate: 'PEM' }, ['certificate'])).toBe('payload');
    // The file a certificate is read from is a path, not the secret (its text is: file-refs.ts registers it).
    expect(secretMarkAt(saml, { label: 'x', certificate: { file: 'certs/idp.pem' } }, ['certificate', 'file'])).toBe(
      false,
    );
  });
});
