/**
 * SamlProvider export offline: what a document holds (id pinned, unset values left out, defaultTeam by a unique
 * title else id, the certificate for a file named by the label) and how export turns `{file, text}` into a file
 * beside the manifest (src/manifests/attachments.ts).
 */
import { describe, expect, it } from 'vitest';
import { DocopsError } from '../../../src/model/errors.js';
import { extractAttachments } from '../../../src/manifests/attachments.js';
import { samlKind } from '../../../src/kinds/index.js';
import { desiredOf, fakeDoc, plan } from '../helpers.js';
import { ORG, seedRoutes } from '../seed.js';

const BASE = `/orgs/${ORG}`;
const provider = (id: string, label: string, over: Record<string, unknown> = {}) => ({
  object: 'saml-provider',
  id,
  label,
  ssoURL: '',
  entityID: '',
  certificate: '',
  defaultRole: null,
  ...over,
});

async function exported(providers: object[], teams?: object[]) {
  const routes = { ...seedRoutes(), [`${BASE}/saml`]: providers, ...(teams ? { [`${BASE}/teams`]: teams } : {}) };
  // As export's probe does: a document writing every typed field (defaultTeam: '' makes fetch read the teams).
  const { live } = await plan(
    samlKind,
    ORG,
    desiredOf(samlKind, [fakeDoc('SamlProvider', ORG, { label: '', defaultTeam: '' })]),
    routes,
  );
  return samlKind.export!(ORG, live) as { spec: Record<string, unknown> }[];
}

describe('SamlProvider export', () => {
  it('pins ids, leaves unset values out, names the default team by a unique title else by id, and the certificate by a file', async () => {
    const docs = await exported(
      [
        provider('saml-1', 'Okta (EU)', {
          ssoURL: 'https://idp.test/sso',
          entityID: 'urn:idp',
          certificate: 'PEM-1',
          defaultTeam: { id: 'team-platform', title: 'Platform' },
          defaultRole: 'read',
        }),
        provider('saml-2', 'Okta EU', { certificate: 'PEM-2\n', defaultTeam: { id: 't-docs-1', title: 'Docs' } }),
        provider('saml-3', 'Bare'),
        provider('saml-4', 'Blank', { ssoURL: 'about:blank' }), // no ssoURL yet, in a form the spec's URI format allows
      ],
      [
        { id: 'team-platform', title: 'Platform' },
        { id: 't-docs-1', title: 'Docs' },
        { id: 't-docs-2', title: 'Docs' },
      ],
    );
    expect(docs.map((d) => d.spec)).toEqual([
      { label: 'Bare', id: 'saml-3' },
      { label: 'Blank', id: 'saml-4' },
      {
        label: 'Okta (EU)',
        id: 'saml-1',
        entityID: 'urn:idp',
        ssoURL: 'https://idp.test/sso',
        certificate: { file: 'saml/okta-eu.pem', text: 'PEM-1\n' },
        defaultTeam: 'Platform',
        defaultRole: 'read',
      },
      {
        label: 'Okta EU',
        id: 'saml-2',
        certificate: { file: 'saml/okta-eu-2.pem', text: 'PEM-2\n' },
        defaultTeam: 't-docs-1',
      },
    ]);
  });

  it('export writes {file, text} as a file relative to the manifest file and keeps {file}; a path leaving the directory is a bug it refuses', () => {
    const doc = {
      kind: 'SamlProvider',
      spec: { label: 'Okta', certificate: { file: 'saml/okta.pem', text: 'PEM\n' } },
    };
    expect(extractAttachments(samlKind, [doc], '')).toEqual({
      documents: [{ kind: 'SamlProvider', spec: { label: 'Okta', certificate: { file: 'saml/okta.pem' } } }],
      attachments: [{ path: 'saml/okta.pem', text: 'PEM\n' }],
    });
    expect(extractAttachments(samlKind, [doc], 'sites').attachments.map((a) => a.path)).toEqual([
      'sites/saml/okta.pem',
    ]);
    // Documents without file fields pass through untouched.
    expect(extractAttachments(samlKind, [{ spec: { label: 'A', certificate: 'inline' } }], '').attachments).toEqual([]);
    const escape = { spec: { label: 'X', certificate: { file: '../x.pem', text: 'PEM' } } };
    expect(() => extractAttachments(samlKind, [escape], '')).toThrow(DocopsError);
    expect(() => extractAttachments(samlKind, [doc, doc], '')).toThrow('writes the file "saml/okta.pem" twice');
  });
});
