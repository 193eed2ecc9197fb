/**
 * CONTRACT CHECK of the SamlProvider kind: the request bodies its plans send (a create with every field, a PATCH
 * with every field, a rename, a default team created in the same plan) validate against the official spec's
 * request schemas, and the sandbox accepts them; its deletes send no body.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import { type Plan } from '../../src/model/plan.js';
import { resolveRequest } from '../../src/model/refs.js';
import { startSandbox, type RunningSandbox } from '@docops/sandbox';
import { fastClient, loadDesired, planOnce } from '../helpers/pipeline.js';
import { requestValidator } from './contract-spec.js';

const O = 'org-demo';
const LIST = '/orgs/{organizationId}/saml';
const ONE = `${LIST}/{samlProviderId}`;
const PEM = readFileSync(new URL('../fixtures/saml/idp-a.pem', import.meta.url), 'utf8');
const PEM_B = readFileSync(new URL('../fixtures/saml/idp-b.pem', import.meta.url), 'utf8');

const open: { sb: RunningSandbox; close(): Promise<void>; dir: string }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.close();
    rmSync(o.dir, { recursive: true, force: true });
  }
});

async function world() {
  const sb = await startSandbox();
  const client = fastClient(sb);
  const dir = mkdtempSync(join(tmpdir(), 'docops-contract-saml-'));
  open.push({ sb, dir, close: async () => (await client.close(), await sb.close()) });
  return { sb, client, dir };
}

const doc = (kind: string, spec: string, prune = false): string =>
  `apiVersion: docops/v1\nkind: ${kind}\nmetadata: { organization: ${O} }\n${prune ? 'prune: true\n' : ''}spec:\n${spec}---\n`;

/** Every SAML request of a plan, with its refs filled as apply would (a created id stands in). */
function samlRequests(plan: Plan): { method: string; body: unknown }[] {
  return plan.steps
    .filter((s) => s.kind === 'SamlProvider')
    .flatMap((s) => s.requests.map((r) => ({ method: r.method, body: resolveRequest(r, () => 'team-new').body })));
}

function expectValid(method: string, specPath: string, body: unknown): void {
  const validate = requestValidator(method, specPath);
  const valid = validate(body);
  expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
  expect(valid).toBe(true);
}

describe('contract: the SamlProvider kind’s request bodies match the official spec', () => {
  it('create with every field (default team created in the same plan), then PATCH every field and rename; the sandbox takes them all', async () => {
    const w = await world();
    const create = (label: string) =>
      doc(
        'SamlProvider',
        `  label: ${label}\n  entityID: http://www.okta.com/exk1\n  ssoURL: https://acme.okta.test/sso\n  certificate: { file: idp.pem }\n  defaultTeam: Security\n  defaultRole: read\n`,
      );
    writeFileSync(join(w.dir, 'idp.pem'), PEM);
    writeFileSync(join(w.dir, 'm.yaml'), doc('Team', '  title: Security\n') + create('Okta'));
    const first = await planOnce(w.client, await loadDesired(w.dir));
    const created = samlRequests(first);
    expect(created.map((r) => r.method)).toEqual(['POST']);
    expect(Object.keys(created[0]!.body as object).sort()).toEqual([
      'certificate',
      'defaultRole',
      'defaultTeam',
      'entityID',
      'label',
      'ssoURL',
    ]);
    for (const r of created) expectValid('POST', LIST, r.body);
    expect((await applyPlan(w.client, first)).failed).toEqual([]);

    const id = (await w.client.get<{ items: { id: string }[] }>(`/orgs/${O}/saml`)).items[0]!.id;
    writeFileSync(join(w.dir, 'idp.pem'), PEM_B);
    writeFileSync(
      join(w.dir, 'm.yaml'),
      doc(
        'SamlProvider',
        `  label: Okta EU\n  id: ${id}\n  entityID: http://www.okta.com/exk2\n  ssoURL: https://eu.okta.test/sso\n  certificate: { file: idp.pem }\n  defaultTeam: Writers\n  defaultRole: null\n`,
      ),
    );
    const second = await planOnce(w.client, await loadDesired(w.dir));
    const patched = samlRequests(second);
    expect(patched.map((r) => r.method)).toEqual(['PATCH']);
    expect(Object.keys(patched[0]!.body as object).sort()).toEqual([
      'certificate',
      'defaultRole',
      'defaultTeam',
      'entityID',
      'label',
      'ssoURL',
    ]);
    for (const r of patched) expectValid('PATCH', ONE, r.body);
    expect((await applyPlan(w.client, second)).failed).toEqual([]);
    expect((await planOnce(w.client, await loadDesired(w.dir))).steps).toEqual([]);

    // A provider created with a label only, and a prune: a DELETE without a body.
    writeFileSync(join(w.dir, 'm.yaml'), doc('SamlProvider', '  label: Bare\n', true));
    const third = await planOnce(w.client, await loadDesired(w.dir));
    const bare = samlRequests(third);
    expect(bare.map((r) => [r.method, r.body])).toEqual([
      ['POST', { label: 'Bare' }],
      ['DELETE', undefined],
    ]);
    expectValid('POST', LIST, bare[0]!.body);
    expect((await applyPlan(w.client, third)).failed).toEqual([]);
  });
});
