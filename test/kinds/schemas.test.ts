/** The kind spec schemas accept what the kinds handle and reject the limits of management-api.md. */
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { compileSchema } from '../../src/manifests/schema.js';

const valid = (kind: string, spec: unknown): boolean => {
  const k = KINDS.find((x) => x.kind === kind)!;
  return compileSchema(k.schema)(spec);
};

describe('kind schemas', () => {
  it('registers every kind in depth order with their schemas', () => {
    expect(KINDS.map((k) => [k.kind, k.depth])).toEqual([
      ['Organization', 0],
      ['Members', 10],
      ['Team', 20],
      ['Translation', 20],
      ['OpenAPISpec', 20],
      ['SamlProvider', 22],
      ['Collection', 24],
      ['Space', 26],
      ['Site', 30],
    ]);
    for (const k of KINDS)
      expect(k.schema).toMatchObject({
        $schema: 'http://json-schema.org/draft-07/schema#',
        additionalProperties: false,
      });
  });

  it('Organization: limits, patterns and nullable fields', () => {
    expect(
      valid('Organization', {
        title: 'Acme',
        hostname: 'acme-docs',
        defaultRole: null,
        defaultContent: { type: 'site', site: 's1' },
        logo: null,
      }),
    ).toBe(true);
    expect(valid('Organization', { title: 'A' })).toBe(false);
    expect(valid('Organization', { title: 'x'.repeat(256) })).toBe(false);
    expect(valid('Organization', { hostname: '-acme' })).toBe(false);
    expect(valid('Organization', { hostname: 'ab' })).toBe(false);
    expect(valid('Organization', { defaultRole: 'owner' })).toBe(false);
    expect(valid('Organization', { logo: 'not a uri' })).toBe(false);
    expect(valid('Organization', { plan: 'free' })).toBe(false);
  });

  it('Members: e-mail, role enum (null = guest; left out: not managed), no unknown fields', () => {
    expect(valid('Members', { invite: true, members: [{ email: 'a@acme.test', role: null, sso: true }] })).toBe(true);
    expect(valid('Members', { members: [{ email: 'a@acme.test' }] })).toBe(true);
    expect(valid('Members', { members: [{ email: 'nope', role: 'read' }] })).toBe(false);
    expect(valid('Members', { members: [{ email: 'a@acme.test', role: 'owner' }] })).toBe(false);
    expect(valid('Members', { members: [{ email: 'a@acme.test', role: 'read', name: 'A' }] })).toBe(false);
  });

  it('Team: title 1..64, team roles only', () => {
    expect(
      valid('Team', {
        title: 'T',
        id: 'team-1',
        members: [{ email: 'a@acme.test', role: 'owner' }, { email: 'b@acme.test' }],
      }),
    ).toBe(true);
    expect(valid('Team', { title: '' })).toBe(false);
    expect(valid('Team', { title: 'x'.repeat(65) })).toBe(false);
    expect(valid('Team', { title: 'T', members: [{ email: 'a@acme.test', role: 'admin' }] })).toBe(false);
  });

  it('Translation: title 1..100', () => {
    expect(valid('Translation', { title: 'French', id: 'tr-fr', languages: ['fr'] })).toBe(true);
    expect(valid('Translation', { title: 'x'.repeat(101) })).toBe(false);
    expect(valid('Translation', { id: 'tr-fr' })).toBe(false);
  });

  it('SamlProvider: label 1..30, entityID ≤ 1024, certificate ≤ 10000 or {file}, ssoURL a URI ≤ 2048, member roles', () => {
    const ok = {
      label: 'Okta',
      id: 'saml-1',
      entityID: 'http://www.okta.com/exk1',
      ssoURL: 'https://acme.okta.test/sso',
      certificate: 'MIIB',
      defaultTeam: 'Platform',
      defaultRole: null,
    };
    expect(valid('SamlProvider', ok)).toBe(true);
    expect(valid('SamlProvider', { label: 'Okta', certificate: { file: 'certs/idp.pem' }, defaultRole: 'read' })).toBe(
      true,
    );
    expect(valid('SamlProvider', { label: 'Okta', entityID: '', certificate: '' })).toBe(true);
    expect(valid('SamlProvider', { label: '' })).toBe(false);
    expect(valid('SamlProvider', { label: 'x'.repeat(31) })).toBe(false);
    expect(valid('SamlProvider', { label: 'x'.repeat(30) })).toBe(true);
    expect(valid('SamlProvider', { entityID: 'e' })).toBe(false);
    expect(valid('SamlProvider', { label: 'Okta', entityID: 'e'.repeat(1025) })).toBe(false);
    expect(valid('SamlProvider', { label: 'Okta', certificate: 'c'.repeat(10001) })).toBe(false);
    expect(valid('SamlProvider', { label: 'Okta', certificate: 'c'.repeat(10000) })).toBe(true);
    expect(valid('SamlProvider', { label: 'Okta', certificate: { file: 'idp.pem', text: 'x' } })).toBe(false);
    expect(valid('SamlProvider', { label: 'Okta', certificate: { path: 'idp.pem' } })).toBe(false);
    expect(valid('SamlProvider', { label: 'Okta', ssoURL: 'not a uri' })).toBe(false);
    expect(valid('SamlProvider', { label: 'Okta', ssoURL: '' })).toBe(false);
    expect(valid('SamlProvider', { label: 'Okta', ssoURL: `https://x.test/${'a'.repeat(2040)}` })).toBe(false);
    expect(valid('SamlProvider', { label: 'Okta', defaultRole: 'owner' })).toBe(false);
    // The API cannot clear a default team: null is not a value.
    expect(valid('SamlProvider', { label: 'Okta', defaultTeam: null })).toBe(false);
    expect(valid('SamlProvider', { label: 'Okta', defaultTeam: '' })).toBe(false);
    expect(valid('SamlProvider', { label: 'Okta', status: 'active' })).toBe(false);
  });
});
