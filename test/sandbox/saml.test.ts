/**
 * SAML providers and SSO logins: the sandbox stores and returns what management-api.md describes, refuses what the
 * API would (limits, formats, unknown fields, unknown teams), paginates and deletes (204 either way).
 */
import { describe, expect, it } from 'vitest';
import { orgs, teams } from '@docops/sandbox';
import { samlProviders } from '../../packages/sandbox/src/sso-records.js';
import { sandbox, type Json } from './helpers.js';

const SAML = '/orgs/org-demo/saml';
const FULL = {
  label: 'Okta',
  entityID: 'http://www.okta.com/exk1',
  certificate: 'MIIDpDCCAoygAwIBAgIGAY',
  ssoURL: 'https://acme.okta.test/app/sso/saml',
  defaultTeam: 'team-writers',
  defaultRole: 'edit',
};

describe('SAML providers', () => {
  it('creates with every field (201 + Location), reads it back by id and in the list', async () => {
    const { call, sb } = await sandbox();
    const made = await call('POST', SAML, FULL);
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    expect(made.headers.get('location')).toBe(`${sb.url}${SAML}/${id}`);
    expect(made.body).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      entityID: FULL.entityID,
      certificate: FULL.certificate,
      ssoURL: FULL.ssoURL,
      defaultTeam: { object: 'team', id: 'team-writers', title: 'Writers' },
      defaultRole: 'edit',
      status: 'active',
      urls: { location: `${sb.url}${SAML}/${id}` },
    });
    expect(Object.keys(made.body.service).sort()).toEqual(['acsURL', 'entityID', 'startURL']);
    expect((await call('GET', `${SAML}/${id}`)).body).toEqual(made.body);
    const list = await call('GET', SAML);
    expect(list.body.items).toEqual([made.body]);
    expect(samlProviders(sb.store).get(id)).toMatchObject({ orgId: 'org-demo', defaultTeam: 'team-writers' });
  });

  it('a provider with only a label is pending, with empty IdP fields (ssoURL the URI about:blank), no default team and the guest role', async () => {
    const { call } = await sandbox();
    const made = await call('POST', SAML, { label: 'Later' });
    expect(made.status).toBe(201);
    // The spec requires ssoURL as a URI in every answer: "" would not be one.
    expect(made.body).toMatchObject({
      label: 'Later',
      ssoURL: 'about:blank',
      entityID: '',
      certificate: '',
      defaultRole: null,
      status: 'pending',
    });
    expect(made.body).not.toHaveProperty('defaultTeam');
    // Active once the identity provider's URL, entity id and certificate are all known.
    const id = made.body.id as string;
    expect((await call('PATCH', `${SAML}/${id}`, { ssoURL: FULL.ssoURL, entityID: FULL.entityID })).body.status).toBe(
      'pending',
    );
    expect((await call('PATCH', `${SAML}/${id}`, { certificate: 'C' })).body.status).toBe('active');
    expect((await call('PATCH', `${SAML}/${id}`, { entityID: '' })).body.status).toBe('pending');
  });

  it('PATCH changes only the fields it names; {} changes nothing', async () => {
    const { call } = await sandbox();
    const id = (await call('POST', SAML, FULL)).body.id as string;
    const patched = await call('PATCH', `${SAML}/${id}`, {
      label: 'Okta EU',
      defaultTeam: 'team-support',
      defaultRole: null,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      label: 'Okta EU',
      defaultTeam: { id: 'team-support' },
      defaultRole: null,
      ssoURL: FULL.ssoURL,
    });
    const same = await call('PATCH', `${SAML}/${id}`, {});
    expect(same.status).toBe(200);
    expect(same.body).toEqual(patched.body);
    expect((await call('GET', `${SAML}/${id}`)).body).toEqual(patched.body);
  });

  it.each([
    ['label empty', { label: '' }, 'body.label'],
    ['label of 31 characters', { label: 'x'.repeat(31) }, 'body.label'],
    ['entityID over 1024', { label: 'L', entityID: 'e'.repeat(1025) }, 'body.entityID'],
    ['certificate over 10000', { label: 'L', certificate: 'c'.repeat(10001) }, 'body.certificate'],
    ['ssoURL not a URI', { label: 'L', ssoURL: 'okta.test/sso' }, 'body.ssoURL'],
    ['ssoURL over 2048', { label: 'L', ssoURL: `https://a.test/${'p'.repeat(2034)}` }, 'body.ssoURL'],
    ['defaultRole not a member role', { label: 'L', defaultRole: 'owner' }, 'body.defaultRole'],
    ['defaultTeam unknown', { label: 'L', defaultTeam: 'team-nope' }, 'body.defaultTeam'],
    ['defaultTeam empty (there is no way to clear it)', { label: 'L', defaultTeam: '' }, 'body.defaultTeam'],
    ['defaultTeam null', { label: 'L', defaultTeam: null }, 'body.defaultTeam'],
    ['an unknown field', { label: 'L', enabled: true }, 'body.enabled'],
    ['no label', { entityID: 'e' }, 'body.label'],
  ])('POST refuses %s with 400 and creates nothing', async (_name, body, field) => {
    const { call } = await sandbox();
    const res = await call('POST', SAML, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 400 });
    expect(res.body.error.message).toContain(field);
    expect((await call('GET', SAML)).body.items).toEqual([]);
  });

  it('accepts every limit exactly', async () => {
    const { call } = await sandbox();
    const res = await call('POST', SAML, {
      label: 'x'.repeat(30),
      entityID: 'e'.repeat(1024),
      certificate: 'c'.repeat(10000),
      ssoURL: `https://a.test/${'p'.repeat(2033)}`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.ssoURL).toHaveLength(2048);
  });

  it('PATCH refuses bad fields and unknown teams (nothing changes), and a team of another organization', async () => {
    const { call, sb } = await sandbox();
    orgs(sb.store).put({ ...(orgs(sb.store).get('org-demo') as Json), id: 'org-other', title: 'Other' });
    teams(sb.store).put({
      id: 'team-elsewhere',
      orgId: 'org-other',
      title: 'Elsewhere',
      createdAt: '2024-01-01T00:00:00.000Z',
    });
    const made = (await call('POST', SAML, FULL)).body;
    for (const body of [
      { label: '' },
      { defaultTeam: 'team-nope' },
      { defaultTeam: 'team-elsewhere' },
      { status: 'active' },
      { ssoURL: '' },
    ]) {
      const res = await call('PATCH', `${SAML}/${made.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call('GET', `${SAML}/${made.id}`)).body).toEqual(made);
    expect((await call('POST', SAML, { label: 'L', defaultTeam: 'team-elsewhere' })).status).toBe(400);
  });

  it('unknown providers and organizations answer 404; DELETE answers 204 before and after', async () => {
    const { call } = await sandbox();
    const id = (await call('POST', SAML, FULL)).body.id as string;
    expect((await call('GET', `${SAML}/saml-nope`)).status).toBe(404);
    expect((await call('PATCH', `${SAML}/saml-nope`, { label: 'x' })).status).toBe(404);
    expect((await call('GET', '/orgs/org-nope/saml')).status).toBe(404);
    expect((await call('POST', '/orgs/org-nope/saml', { label: 'x' })).status).toBe(404);
    const del = await call('DELETE', `${SAML}/${id}`);
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    expect((await call('GET', `${SAML}/${id}`)).status).toBe(404);
    expect((await call('DELETE', `${SAML}/${id}`)).status).toBe(204);
    expect((await call('DELETE', `${SAML}/saml-never`)).status).toBe(204);
    expect((await call('GET', SAML)).body.items).toEqual([]);
    // A deleted provider's id is never handed out again.
    expect((await call('POST', SAML, { label: 'Again' })).body.id).not.toBe(id);
  });

  it('deleting the default team leaves the provider without one (the team delete is not refused)', async () => {
    const { call } = await sandbox();
    const id = (await call('POST', SAML, FULL)).body.id as string;
    expect((await call('DELETE', '/orgs/org-demo/teams/team-writers')).status).toBe(204);
    const after = await call('GET', `${SAML}/${id}`);
    expect(after.status).toBe(200);
    expect(after.body).not.toHaveProperty('defaultTeam');
    expect(after.body).toMatchObject({ label: 'Okta', status: 'active' });
    expect((await call('PATCH', `${SAML}/${id}`, { defaultTeam: 'team-writers' })).status).toBe(400);
    expect((await call('PATCH', `${SAML}/${id}`, { defaultTeam: 'team-platform' })).body.defaultTeam.id).toBe(
      'team-platform',
    );
  });

  it('paginates the list', async () => {
    const { call } = await sandbox();
    for (const label of ['A', 'B', 'C']) expect((await call('POST', SAML, { label })).status).toBe(201);
    const first = await call('GET', `${SAML}?limit=2`);
    expect(first.body.items.map((p: Json) => p.label)).toEqual(['A', 'B']);
    expect(first.body.count).toBe(2);
    const second = await call('GET', `${SAML}?limit=2&page=${encodeURIComponent(first.body.next.page)}`);
    expect(second.body.items.map((p: Json) => p.label)).toEqual(['C']);
    expect(second.body).not.toHaveProperty('next');
  });
});

describe('SSO logins', () => {
  it('lists the active providers of the organization as {items: [{id, label, startURL}]}, not paginated', async () => {
    const { call } = await sandbox();
    expect((await call('GET', '/orgs/org-demo/sso')).body).toEqual({ items: [] });
    const active = (await call('POST', SAML, FULL)).body;
    await call('POST', SAML, { label: 'Pending' });
    const second = (await call('POST', SAML, { ...FULL, label: 'Azure' })).body;
    const res = await call('GET', '/orgs/org-demo/sso?limit=1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        { id: active.id, label: 'Okta', startURL: active.service.startURL },
        { id: second.id, label: 'Azure', startURL: second.service.startURL },
      ],
    });
    expect((await call('GET', '/orgs/org-nope/sso')).status).toBe(404);
  });
});
