/**
 * SamlProvider offline: the certificate's fingerprint (against node's own X.509 parser), the manifest side
 * (certificate inline, from a file, through `${VAR}`; limits; duplicate labels; warnings) and the diff (create and
 * PATCH bodies, only changed fields, fingerprints instead of the certificate, defaultTeam resolution and blocking,
 * prune).
 */
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConflictError, ValidationError } from '../../../src/model/errors.js';
import type { DesiredEntry } from '../../../src/model/kind.js';
import { type Step } from '../../../src/model/plan.js';
import { ref } from '../../../src/model/refs.js';
import { KINDS, samlKind, teamKind } from '../../../src/kinds/index.js';
import { certificateFingerprint } from '../../../src/kinds/certificate.js';
import { loadManifests } from '../../../src/manifests/index.js';
import { desiredOf, fakeDiffContext, fakeDoc, identityLookup, plan, reports } from '../helpers.js';
import { ORG, seedRoutes } from '../seed.js';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/saml/${name}`, import.meta.url), 'utf8');
const PEM_A = fixture('idp-a.pem');
const PEM_B = fixture('idp-b.pem');
/** The SHA-256 fingerprint node's X.509 parser computes (of the DER bytes), in our form. */
const oracle = (pem: string): string =>
  `sha256:${new X509Certificate(pem).fingerprint256.replace(/:/g, '').toLowerCase()}`;
const FP_A = oracle(PEM_A);
const FP_B = oracle(PEM_B);
const body = (pem: string): string => pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');

describe('certificate fingerprint', () => {
  it('is the SHA-256 of the DER bytes for PEM, whatever the whitespace, line endings or wrapping', () => {
    expect(certificateFingerprint(PEM_A)).toBe(FP_A);
    expect(FP_A).not.toBe(FP_B);
    expect(certificateFingerprint(PEM_B)).toBe(FP_B);
    expect(certificateFingerprint(`\n\n  ${PEM_A.replace(/\n/g, '\r\n')}  \n`)).toBe(FP_A);
    const rewrapped = `-----BEGIN CERTIFICATE-----\n${body(PEM_A)
      .match(/.{1,76}/g)!
      .join('\n')}\n-----END CERTIFICATE-----`;
    expect(certificateFingerprint(rewrapped)).toBe(FP_A);
    // The bare base64 of the DER (as IdP metadata carries it) is the same certificate.
    expect(certificateFingerprint(body(PEM_A))).toBe(FP_A);
  });

  it('is of the trimmed text for anything that is not a certificate, and empty for none', () => {
    expect(certificateFingerprint('not a certificate')).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(certificateFingerprint('not a certificate\r\n')).toBe(certificateFingerprint('not a certificate'));
    expect(certificateFingerprint('not a certificate')).not.toBe(certificateFingerprint('not a certificatf'));
    // Base64 that is not a DER structure stays text.
    expect(certificateFingerprint('abcd')).not.toBe(certificateFingerprint('ab cd'));
    expect(certificateFingerprint('  \n')).toBe('');
  });
});

// ---- manifests ------------------------------------------------------------------------------------------------

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'docops-saml-'));
  dirs.push(root);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  }
  return root;
}

const doc = (spec: string): string =>
  `apiVersion: docops/v1\nkind: SamlProvider\nmetadata: { organization: ${ORG} }\nspec:\n${spec}`;

async function issues(dir: string, env: Record<string, string> = {}, allowEnv: string[] = []): Promise<string[]> {
  try {
    await loadManifests(dir, KINDS, { env, allowEnv });
  } catch (e) {
    if (e instanceof ValidationError)
      return e.issues.map((i) => `${path.relative(dir, i.file)}:${i.line}:${i.column}: ${i.message}`);
    throw e;
  }
  return [];
}

describe('SamlProvider manifests', () => {
  it('reads the certificate from a file next to the manifest, inline, or from an allowed variable: the same certificate each time', async () => {
    const dir = tree({
      'sso/okta.yaml': doc('  label: Okta\n  certificate: { file: certs/idp.pem }\n'),
      'sso/certs/idp.pem': PEM_A.replace(/\n/g, '\r\n'),
      'inline.yaml': doc(
        `  label: Inline\n  certificate: |\n${PEM_A.split('\n')
          .map((l) => `    ${l}`)
          .join('\n')}\n`,
      ),
      'env.yaml': doc('  label: Env\n  certificate: "${IDP_CERT}"\n'),
    });
    const { desired } = await loadManifests(dir, KINDS, { env: { IDP_CERT: PEM_A }, allowEnv: ['IDP_CERT'] });
    const byLabel = Object.fromEntries(desired.get('SamlProvider')!.map((e) => [e.key, e.spec]));
    expect(byLabel['Okta']).toEqual({
      label: 'Okta',
      certificate: { text: PEM_A.trim(), file: 'certs/idp.pem', fingerprint: FP_A },
    });
    expect(byLabel['Inline']).toEqual({ label: 'Inline', certificate: { text: PEM_A.trim(), fingerprint: FP_A } });
    expect(byLabel['Env']).toEqual({ label: 'Env', certificate: { text: PEM_A.trim(), fingerprint: FP_A } });
  });

  it('refuses a certificate file over the API limit, an unknown field and a label over 30 characters, each at its place, never quoting the certificate', async () => {
    const dir = tree({
      'a.yaml': doc('  label: Big\n  certificate: { file: big.pem }\n'),
      'big.pem': `${PEM_A}${'x'.repeat(10_000)}`,
      'b.yaml': doc(`  label: ${'x'.repeat(31)}\n  status: active\n`),
    });
    const found = await issues(dir);
    expect(found).toEqual([
      'a.yaml:6:24: certificate file "big.pem" holds 10595 characters; the API takes at most 10000',
      'b.yaml:5:10: spec.label: must be at most 30 characters (got 31)',
      'b.yaml:6:3: spec: unknown field "status"',
    ]);
    expect(found.join('\n')).not.toContain('MII');
  });

  it('labels are unique per organization unless every document with the label pins its id', async () => {
    const twice = tree({ 'a.yaml': doc('  label: Okta\n'), 'b.yaml': doc('  label: Okta\n  id: saml-2\n') });
    expect(await issues(twice)).toEqual([
      `a.yaml:5:3: duplicate SamlProvider "Okta" in org-demo, also defined at ${path.join(twice, 'b.yaml')}:5:3`,
      `b.yaml:5:3: duplicate SamlProvider "Okta" in org-demo, also defined at ${path.join(twice, 'a.yaml')}:5:3`,
    ]);
    const pinned = tree({
      'a.yaml': doc('  label: Okta\n  id: saml-1\n'),
      'b.yaml': doc('  label: Okta\n  id: saml-2\n'),
    });
    expect(await issues(pinned)).toEqual([]);
  });

  it('warns (offline) about a defaultTeam naming no Team manifest and a certificate that is no certificate', () => {
    const team = desiredOf(teamKind, [fakeDoc('Team', ORG, { title: 'Platform', id: 'team-platform' })]);
    const saml = desiredOf(samlKind, [
      fakeDoc('SamlProvider', ORG, { label: 'A', defaultTeam: 'Platform' }),
      fakeDoc('SamlProvider', ORG, { label: 'B', defaultTeam: 'team-platform', certificate: PEM_A }),
      fakeDoc('SamlProvider', ORG, { label: 'C', defaultTeam: 'Writers', certificate: 'hello' }),
    ]);
    const all = new Map<string, DesiredEntry[]>([
      ['Team', team],
      ['SamlProvider', saml],
    ]);
    const errors = reports();
    const warnings = reports();
    samlKind.crossValidate!(saml, all, errors.report, identityLookup(all), warnings.report);
    expect(errors.list).toEqual([]);
    expect(warnings.list.map((w) => w.message)).toEqual([
      'defaultTeam "Writers" names no Team manifest of organization org-demo: it must exist live (title or id), else plan blocks this document',
      'certificate holds neither PEM blocks nor the base64 of a DER certificate: it is sent as written and compared as text',
    ]);
  });
});

// ---- diff -----------------------------------------------------------------------------------------------------

const BASE = `/orgs/${ORG}`;
const provider = (id: string, label: string, over: Record<string, unknown> = {}) => ({
  object: 'saml-provider',
  id,
  label,
  ssoURL: 'https://idp.test/sso',
  entityID: 'urn:idp',
  certificate: PEM_A,
  defaultRole: null,
  status: 'active',
  service: {
    acsURL: `https://app.test/saml/${id}/acs`,
    startURL: `https://app.test/saml/${id}/start`,
    entityID: `https://app.test/saml/${id}/metadata`,
  },
  ...over,
});
const routes = (...providers: object[]) => ({ ...seedRoutes(), [`${BASE}/saml`]: providers });
const desired = (...specs: Record<string, unknown>[]) =>
  desiredOf(
    samlKind,
    specs.map((s) => fakeDoc('SamlProvider', ORG, s)),
  );
const requests = (steps: Step[]) => steps.map((s) => s.requests.map((r) => [r.method, r.path, r.body]));
const cert = (pem: string, file?: string) => ({ ...(file ? { file } : {}), text: pem, sha256: 'unused' });

describe('SamlProvider diff', () => {
  it('creates with the written fields in one POST, showing the certificate only as its fingerprint', async () => {
    const spec = {
      label: 'Okta',
      entityID: 'urn:okta',
      ssoURL: 'https://okta.test/sso',
      certificate: cert(PEM_A, 'certs/idp.pem'),
      defaultTeam: 'Platform',
      defaultRole: 'read',
    };
    const { result } = await plan(samlKind, ORG, desired(spec), routes());
    expect(result.blocked).toEqual([]);
    expect(result.steps).toHaveLength(1);
    const step = result.steps[0]!;
    expect(step).toMatchObject({
      id: 'SamlProvider/org-demo/Okta#create',
      action: 'create',
      wave: 22,
      before: null,
      after: {
        label: 'Okta',
        entityID: 'urn:okta',
        ssoURL: 'https://okta.test/sso',
        certificate: FP_A,
        defaultTeam: 'Platform',
        defaultRole: 'read',
      },
      note: 'default team "Platform" (team-platform)',
    });
    expect(step.requests).toEqual([
      {
        method: 'POST',
        path: `${BASE}/saml`,
        body: {
          label: 'Okta',
          entityID: 'urn:okta',
          ssoURL: 'https://okta.test/sso',
          certificate: PEM_A.trim(),
          defaultTeam: 'team-platform',
          defaultRole: 'read',
        },
        capture: { id: 'id' },
        recover: { match: [{ field: 'label', body: '/label' }] },
        masked: { certificate: FP_A },
      },
    ]);
    expect(JSON.stringify([step.before, step.after, step.note])).not.toContain('MII');
  });

  it('plans nothing when the live provider matches, the certificate compared by content (whitespace, line endings, wrapping)', async () => {
    const live = provider('saml-1', 'Okta', {
      defaultTeam: { object: 'team', id: 'team-platform', title: 'Platform' },
      defaultRole: 'read',
    });
    const spec = {
      label: 'Okta',
      entityID: 'urn:idp',
      ssoURL: 'https://idp.test/sso',
      certificate: cert(`\n${PEM_A.replace(/\n/g, '\r\n')}\n\n`),
      defaultTeam: 'Platform',
      defaultRole: 'read',
    };
    const { result } = await plan(samlKind, ORG, desired(spec), routes(live));
    expect(result).toEqual({ steps: [], unmanaged: [], warnings: [], blocked: [] });
    // The bare base64 the API might answer is the same certificate too.
    const bare = await plan(samlKind, ORG, desired(spec), routes({ ...live, certificate: body(PEM_A) }));
    expect(bare.result.steps).toEqual([]);
  });

  it('PATCHes only the changed fields; a new certificate shows as fingerprint before → after', async () => {
    const live = provider('saml-1', 'Okta');
    const { result } = await plan(
      samlKind,
      ORG,
      desired({
        label: 'Okta',
        entityID: 'urn:idp',
        ssoURL: 'https://idp.test/v2',
        certificate: cert(PEM_B),
        defaultRole: null,
      }),
      routes(live),
    );
    expect(result.steps.map((s) => [s.id, s.before, s.after])).toEqual([
      [
        'SamlProvider/org-demo/Okta#update',
        { ssoURL: 'https://idp.test/sso', certificate: FP_A },
        { ssoURL: 'https://idp.test/v2', certificate: FP_B },
      ],
    ]);
    expect(requests(result.steps)).toEqual([
      [['PATCH', `${BASE}/saml/saml-1`, { ssoURL: 'https://idp.test/v2', certificate: PEM_B.trim() }]],
    ]);
    expect(result.steps[0]!.requests[0]!.masked).toEqual({ certificate: FP_B });
  });

  it('renames by pinned id; a pinned id that is gone falls back to the label with a warning', async () => {
    const { result } = await plan(
      samlKind,
      ORG,
      desired({ label: 'Okta EU', id: 'saml-1' }),
      routes(provider('saml-1', 'Okta')),
    );
    expect(result.steps.map((s) => [s.id, s.before, s.after, s.note])).toEqual([
      ['SamlProvider/org-demo/Okta EU#update', { label: 'Okta' }, { label: 'Okta EU' }, 'rename SAML provider saml-1'],
    ]);
    expect(requests(result.steps)).toEqual([[['PATCH', `${BASE}/saml/saml-1`, { label: 'Okta EU' }]]]);
    const stale = await plan(
      samlKind,
      ORG,
      desired({ label: 'Okta', id: 'saml-9' }),
      routes(provider('saml-1', 'Okta')),
    );
    expect(stale.result.steps).toEqual([]);
    expect(stale.result.warnings.map((w) => w.message)).toEqual([
      'pinned id saml-9 does not exist; matched by label instead',
    ]);
  });

  it('defaultTeam: a Team manifest created in this plan (a ref the step depends on), a live title, a team id; a live provider whose team was deleted gets it set again', async () => {
    const created = fakeDiffContext({ registered: { [`Team|${ORG}|Security`]: ref('Team/org-demo/Security#create') } });
    const byRef = await plan(samlKind, ORG, desired({ label: 'Okta', defaultTeam: 'Security' }), routes(), created);
    expect(byRef.result.steps.map((s) => [s.dependsOn, s.note, s.after])).toEqual([
      [
        ['Team/org-demo/Security#create'],
        'default team "Security", created in this plan',
        { label: 'Okta', defaultTeam: 'Security' },
      ],
    ]);
    expect(byRef.result.steps[0]!.requests[0]!.refs).toEqual([
      { at: 'body', pointer: '/defaultTeam', step: 'Team/org-demo/Security#create', output: 'id' },
    ]);
    const byId = await plan(
      samlKind,
      ORG,
      desired({ label: 'Okta', defaultTeam: 'team-writers' }),
      routes(provider('saml-1', 'Okta')),
    );
    // The API shows no defaultTeam once its team is deleted: the PATCH sets it again.
    expect(byId.result.steps.map((s) => [s.before, s.after, s.note])).toEqual([
      [{ defaultTeam: null }, { defaultTeam: 'team-writers' }, undefined],
    ]);
    expect(requests(byId.result.steps)).toEqual([[['PATCH', `${BASE}/saml/saml-1`, { defaultTeam: 'team-writers' }]]]);
    const moved = await plan(
      samlKind,
      ORG,
      desired({ label: 'Okta', defaultTeam: 'Writers' }),
      routes(provider('saml-1', 'Okta', { defaultTeam: { id: 'team-platform', title: 'Platform' } })),
    );
    expect(moved.result.steps.map((s) => [s.before, s.after])).toEqual([
      [{ defaultTeam: 'Platform' }, { defaultTeam: 'Writers' }],
    ]);
  });

  it('a defaultTeam naming nothing, or a team this plan deletes, blocks the provider; two live teams with the title are a conflict', async () => {
    const none = await plan(
      samlKind,
      ORG,
      desired({ label: 'Okta', certificate: cert(PEM_A), defaultTeam: 'Platfrom' }),
      routes(),
    );
    expect(none.result.steps).toEqual([]);
    expect(none.result.blocked).toEqual([
      {
        kind: 'SamlProvider',
        org: ORG,
        key: 'Okta',
        source: { file: 'samlprovider.yaml', line: 10, column: 2 },
        message:
          'defaultTeam "Platfrom" is neither a Team manifest nor a live team (by title or id); the provider is not planned until it names an existing team',
      },
    ]);
    // Team prune with a Team manifest for Platform only: Writers goes, so a provider cannot keep it.
    const teamLive = {
      objects: (seedRoutes()[`${BASE}/teams`] as { id: string; title: string }[]).map((t) => ({
        kind: 'Team',
        org: ORG,
        key: t.title,
        id: t.id,
        fields: { title: t.title },
      })),
    };
    const pruning = fakeDiffContext({
      prune: ['Team'],
      desired: desiredOf(teamKind, [fakeDoc('Team', ORG, { title: 'Platform' })]),
      live: { Team: teamLive },
    });
    const gone = await plan(samlKind, ORG, desired({ label: 'Okta', defaultTeam: 'Writers' }), routes(), pruning);
    expect(gone.result.steps).toEqual([]);
    expect(gone.result.blocked.map((b) => b.message)).toEqual([
      'defaultTeam "Writers" names team team-writers, which this plan deletes (Team prune, no Team manifest describes it): describe the team in a Team manifest, or name another',
    ]);
    const kept = await plan(samlKind, ORG, desired({ label: 'Okta', defaultTeam: 'Platform' }), routes(), pruning);
    expect(kept.result.blocked).toEqual([]);
    const twice = {
      ...routes(),
      [`${BASE}/teams`]: [
        { id: 't1', title: 'Docs' },
        { id: 't2', title: 'Docs' },
      ],
    };
    await expect(plan(samlKind, ORG, desired({ label: 'Okta', defaultTeam: 'Docs' }), twice)).rejects.toThrow(
      ConflictError,
    );
  });

  it('reads the teams only when a document names a default team', async () => {
    const { fakeFetchContext } = await import('../helpers.js');
    const ctx = fakeFetchContext(routes());
    await samlKind.fetch(ctx, ORG, desired({ label: 'Okta' }));
    expect(ctx.asked).toEqual([`${BASE}/saml`]);
  });

  it('lists unmanaged providers, deletes them under prune; a rename onto a label that stays is warned about', async () => {
    const live = [provider('saml-1', 'Okta'), provider('saml-2', 'Azure'), provider('saml-3', 'Azure')];
    const listed = await plan(
      samlKind,
      ORG,
      desired({ label: 'Azure', id: 'saml-2' }, { label: 'Okta', id: 'saml-1' }),
      routes(...live),
    );
    expect(listed.result.unmanaged).toEqual([{ kind: 'SamlProvider', org: ORG, key: 'Azure', id: 'saml-3' }]);
    const clash = await plan(samlKind, ORG, desired({ label: 'Azure', id: 'saml-1' }), routes(...live));
    expect(clash.result.warnings.map((w) => w.message)).toEqual(['live SAML provider saml-2 already has this label']);
    const pruned = await plan(
      samlKind,
      ORG,
      desired({ label: 'Okta' }),
      routes(...live),
      fakeDiffContext({ prune: ['SamlProvider'] }),
    );
    expect(pruned.result.steps.map((s) => [s.id, s.phase, s.before, requests([s])[0]])).toEqual([
      [
        'SamlProvider/org-demo/Azure (saml-2)#delete',
        'prune',
        { label: 'Azure' },
        [['DELETE', `${BASE}/saml/saml-2`, undefined]],
      ],
      [
        'SamlProvider/org-demo/Azure (saml-3)#delete',
        'prune',
        { label: 'Azure' },
        [['DELETE', `${BASE}/saml/saml-3`, undefined]],
      ],
    ]);
  });
});
