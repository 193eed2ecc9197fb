/**
 * SamlProvider against the sandbox, end to end: an organization's SSO created from nothing in one apply (a new
 * team as default team, a certificate from a file), a second plan empty; a certificate edited in its file plans one
 * update that every rendering shows as fingerprints only, while the saved plan file applies it exactly; prune with
 * its 204, the journal and undo; a team delete that leaves a provider without its default team; export round trip.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import type { Plan } from '../../../src/model/plan.js';
import { computePlan } from '../../../src/engine/reconcile.js';
import { exportOrganization } from '../../../src/export/index.js';
import { KINDS } from '../../../src/kinds/index.js';
import { createSavedPlan, parseSavedPlan, renderSavedPlan } from '../../../src/plan-file/saved-plan.js';
import { renderJson, renderMarkdown, renderText } from '../../../src/render/index.js';
import { createJournal } from '../../../src/safety/journal.js';
import { collectParts, undoRecords } from '../../../src/safety/undo.js';
import { readJournal } from '../../../src/undo/journal-read.js';
import { samlProviders } from '../../../packages/sandbox/src/sso-records.js';
import { teams } from '@docops/sandbox';
import { undoFiles, writeUndoFiles } from '../../../src/undo/documents.js';
import { planUndo } from '../../../src/undo/plan.js';
import { checkRestores } from '../../../src/undo/restore.js';
import { loadDesired, planOnce, tempDir } from '../../helpers/pipeline.js';
import { sandboxPerTest, type SandboxRun } from '../sandbox-per-test.js';
import { ORG } from '../seed.js';

const start = sandboxPerTest('saml');
const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/saml/${name}`, import.meta.url), 'utf8');
const PEM_A = fixture('idp-a.pem');
const PEM_B = fixture('idp-b.pem');
/** A run of the certificate's base64 that any rendering of its text would show. */
const shows = (pem: string): string => pem.split('\n')[2]!;

const doc = (kind: string, spec: string, prune = false): string =>
  `apiVersion: docops/v1\nkind: ${kind}\nmetadata: { organization: ${ORG} }\n${prune ? 'prune: true\n' : ''}spec:\n${spec}`;

function write(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

/** A new team Security, Okta (certificate from a file, default team Security) and Azure (inline, team Platform). */
function sso(dir: string, opts: { prune?: boolean; azure?: boolean } = {}): void {
  const files: Record<string, string> = {
    'teams.yaml': doc('Team', '  title: Security\n'),
    'sso/okta.yaml': doc(
      'SamlProvider',
      '  label: Okta\n  entityID: http://www.okta.com/exk1\n  ssoURL: https://acme.okta.test/app/sso/saml\n  certificate: { file: certs/okta.pem }\n  defaultTeam: Security\n  defaultRole: read\n',
      opts.prune,
    ),
    'sso/certs/okta.pem': PEM_A,
  };
  if (opts.azure !== false)
    files['sso/azure.yaml'] = doc(
      'SamlProvider',
      `  label: Azure\n  certificate: "${PEM_B.trim().replace(/\n/g, '\\n')}"\n  defaultTeam: Platform\n`,
    );
  write(dir, files);
}

async function applyAll(r: SandboxRun, plan: Plan) {
  const report = await applyPlan(r.client, plan, { concurrency: 8 });
  expect(report.failed).toEqual([]);
  return report;
}

const stored = (r: SandboxRun) =>
  samlProviders(r.sb.store)
    .all()
    .sort((a, b) => a.label.localeCompare(b.label))
    .map((p) => ({
      label: p.label,
      certificate: p.certificate,
      defaultTeam: p.defaultTeam,
      defaultRole: p.defaultRole,
    }));

describe('SamlProvider against the sandbox', () => {
  it('creates the providers and their new default team in one apply; the second plan is empty', async () => {
    const r = await start();
    sso(r.dir);
    const plan = await planOnce(r.client, await loadDesired(r.dir));
    expect(plan.blocked).toEqual([]);
    expect(plan.steps.map((s) => [s.id, s.dependsOn])).toEqual([
      ['Team/org-demo/Security#create', []],
      ['SamlProvider/org-demo/Azure#create', []],
      ['SamlProvider/org-demo/Okta#create', ['Team/org-demo/Security#create']],
    ]);
    await applyAll(r, plan);
    const security = teams(r.sb.store)
      .all()
      .find((t) => t.title === 'Security')!.id;
    expect(stored(r)).toEqual([
      { label: 'Azure', certificate: PEM_B.trim(), defaultTeam: 'team-platform', defaultRole: null },
      { label: 'Okta', certificate: PEM_A.trim(), defaultTeam: security, defaultRole: 'read' },
    ]);
    const again = await planOnce(r.client, await loadDesired(r.dir));
    expect(again.steps).toEqual([]);
    expect(again.blocked).toEqual([]);
  });

  it('an edited certificate file plans one update, shown as fingerprints in every rendering; the saved plan applies the new text exactly', async () => {
    const r = await start();
    sso(r.dir);
    await applyAll(r, await planOnce(r.client, await loadDesired(r.dir)));
    writeFileSync(join(r.dir, 'sso/certs/okta.pem'), PEM_B);
    const { plan, live } = await computePlan(r.client, KINDS, await loadDesired(r.dir));
    expect(plan.steps.map((s) => [s.id, s.before, s.after])).toEqual([
      [
        'SamlProvider/org-demo/Okta#update',
        { certificate: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
        { certificate: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
      ],
    ]);
    for (const printed of [renderText(plan, { color: false }), renderMarkdown(plan), renderJson(plan)]) {
      expect(printed).toContain(String(plan.steps[0]!.after!['certificate']));
      expect(printed).not.toContain(shows(PEM_B));
      expect(printed).not.toContain(shows(PEM_A));
    }
    const file = renderSavedPlan(
      createSavedPlan({
        plan,
        live,
        manifests: { checksum: 'c', files: {} },
        inputs: { dataFiles: {}, variables: {} },
        cost: { requests: 1, estimatedMs: 1, concurrency: 1, latencyMs: 1 },
        options: { prune: [], invite: false },
      }),
    );
    expect(file).toContain(shows(PEM_B));
    await applyAll(r, parseSavedPlan(file).plan);
    expect(
      samlProviders(r.sb.store)
        .all()
        .find((p) => p.label === 'Okta')!.certificate,
    ).toBe(PEM_B.trim());
    expect((await planOnce(r.client, await loadDesired(r.dir))).steps).toEqual([]);
  });

  it('prunes a provider no manifest mentions (DELETE, 204); undo recreates it with its certificate and default team', async () => {
    const r = await start();
    sso(r.dir);
    await applyAll(r, await planOnce(r.client, await loadDesired(r.dir)));
    rmSync(join(r.dir, 'sso/azure.yaml'));
    sso(r.dir, { prune: true, azure: false });
    const { plan, live } = await computePlan(r.client, KINDS, await loadDesired(r.dir));
    expect(plan.steps.map((s) => [s.id, s.phase, s.before])).toEqual([
      ['SamlProvider/org-demo/Azure#delete', 'prune', { label: 'Azure' }],
    ]);
    const journal = createJournal(join(r.dir, '..', `${r.dir.split('/').pop()}-journal`), live, {
      client: r.client,
      kinds: KINDS,
    });
    await applyPlan(r.client, plan, { beforeStep: journal.beforeStep }).then((report) =>
      expect(report.failed).toEqual([]),
    );
    expect(
      r.sb
        .stats()
        .requests.filter((q) => q.method === 'DELETE')
        .map((q) => q.status),
    ).toEqual([204]);
    expect(stored(r).map((p) => p.label)).toEqual(['Okta']);

    // The journal shows the provider by fingerprint; the certificate text is kept beside it, for undo.
    const records = await readJournal(journal.file);
    rmSync(join(journal.file, '..'), { recursive: true, force: true });
    expect(records.map((x) => [x.kind, x.key, x.snapshot])).toEqual([['SamlProvider', 'Azure', 'complete']]);
    expect(JSON.stringify(records[0]!.fields)).not.toContain(shows(PEM_B));
    const input = collectParts(records, KINDS);
    const checks = await checkRestores(r.client, input, new Date());
    const result = undoRecords(input, checks.fates, checks.losses);
    expect(result.documents).toEqual([
      {
        apiVersion: 'docops/v1',
        kind: 'SamlProvider',
        metadata: { organization: ORG },
        // The certificate goes to a file beside undo's manifest, as export writes it.
        spec: { label: 'Azure', certificate: { file: 'saml/azure.pem', text: PEM_B }, defaultTeam: 'team-platform' },
      },
    ]);
    expect(result.objects.map((o) => [o.key, o.outcome, o.losses])).toEqual([
      [
        'Azure',
        'recreate',
        [
          expect.stringMatching(/^gets a new id/),
          'its service-provider side changes with the new id (was ACS URL https://app.sandbox.test/saml/org-demo/saml-1/acs, entity ID https://app.sandbox.test/saml/org-demo/saml-1/metadata): ' +
            'configure the identity provider with the new ACS URL and entity ID (shown in the app) before anyone signs in through it',
        ],
      ],
    ]);
    const files = undoFiles(result.documents, KINDS);
    const undo = await planUndo(r.client, KINDS, files, checks.restores);
    expect(undo.plan.steps.map((s) => s.id)).toEqual(['SamlProvider/org-demo/Azure#create']);
    // `-o`: the manifest names the certificate's file, which holds it; the directory loads and plans the same.
    const out = tempDir('saml-undo');
    rmSync(out, { recursive: true });
    await writeUndoFiles(out, files, '');
    expect(readFileSync(join(out, 'undo-SamlProvider-org-demo.yaml'), 'utf8')).toContain('file: saml/azure.pem');
    expect(readFileSync(join(out, 'undo-SamlProvider-org-demo.yaml'), 'utf8')).not.toContain(shows(PEM_B));
    expect(readFileSync(join(out, 'saml', 'azure.pem'), 'utf8')).toBe(PEM_B);
    expect((await planOnce(r.client, await loadDesired(out))).steps.map((s) => s.id)).toEqual([
      'SamlProvider/org-demo/Azure#create',
    ]);
    rmSync(out, { recursive: true });
    expect(renderText(undo.plan, { color: false })).not.toContain(shows(PEM_B));
    await applyAll(r, undo.plan);
    expect(stored(r)).toContainEqual({
      label: 'Azure',
      certificate: PEM_B.trim(),
      defaultTeam: 'team-platform',
      defaultRole: null,
    });
  });

  it('undo names a default team it recreates by title: both come back connected', async () => {
    const r = await start();
    sso(r.dir, { azure: false });
    await applyAll(r, await planOnce(r.client, await loadDesired(r.dir)));
    // Delete Okta and its team Security: a Team and a SamlProvider document that keep neither, both pruning.
    const next = tempDir('saml-next');
    try {
      write(next, {
        'teams.yaml': doc('Team', '  title: Platform\n', true),
        'saml.yaml': doc('SamlProvider', '  label: Other\n', true),
      });
      const desired = await loadDesired(next);
      const { plan, live } = await computePlan(r.client, KINDS, desired);
      const deletes = plan.steps
        .filter((s) => s.phase === 'prune' && (s.kind === 'SamlProvider' || s.key === 'Security'))
        .map((s) => s.id);
      expect(deletes).toEqual(['SamlProvider/org-demo/Okta#delete', 'Team/org-demo/Security#delete']);
      const keep = { ...plan, steps: plan.steps.filter((s) => deletes.includes(s.id)) };
      const journal = createJournal(join(next, 'journal'), live, { client: r.client, kinds: KINDS });
      expect((await applyPlan(r.client, keep, { beforeStep: journal.beforeStep })).failed).toEqual([]);
      const input = collectParts(await readJournal(journal.file), KINDS);
      const checks = await checkRestores(r.client, input, new Date());
      const result = undoRecords(input, checks.fates, checks.losses);
      expect(result.documents.map((d) => (d as { spec: Record<string, unknown> }).spec['defaultTeam'])).toContain(
        'Security',
      );
      const undo = await planUndo(r.client, KINDS, undoFiles(result.documents, KINDS), checks.restores);
      expect(undo.plan.steps.find((s) => s.id === 'SamlProvider/org-demo/Okta#create')!.dependsOn).toEqual([
        'Team/org-demo/Security#create',
      ]);
      await applyAll(r, undo.plan);
      const security = teams(r.sb.store)
        .all()
        .find((t) => t.title === 'Security')!.id;
      expect(stored(r)).toEqual([
        { label: 'Okta', certificate: PEM_A.trim(), defaultTeam: security, defaultRole: 'read' },
      ]);
    } finally {
      rmSync(next, { recursive: true, force: true });
    }
  });

  it('a pruned team names the provider it leaves without a default team; a provider naming a team the plan deletes is blocked', async () => {
    const r = await start();
    sso(r.dir, { azure: false });
    await applyAll(r, await planOnce(r.client, await loadDesired(r.dir)));
    const next = tempDir('saml-teams');
    try {
      // Teams pruned down to Platform, Writers and Support; SAML not managed at all.
      write(next, {
        'teams.yaml': ['Platform', 'Writers', 'Support'].map((t) => doc('Team', `  title: ${t}\n`, true)).join('---\n'),
      });
      const plan = await planOnce(r.client, await loadDesired(next));
      expect(plan.steps.map((s) => [s.id, s.note])).toEqual([
        ['Team/org-demo/Security#delete', 'SAML provider "Okta" names it as default team and keeps none'],
      ]);
      await applyAll(r, plan);
      expect(stored(r)[0]!.label).toBe('Okta');
      expect(
        (await r.client.get<{ defaultTeam?: unknown }>(`/orgs/${ORG}/saml/${samlProviders(r.sb.store).all()[0]!.id}`))
          .defaultTeam,
      ).toBeUndefined();
      // The manifests still naming Security plan to create the team again and set it.
      const back = await planOnce(r.client, await loadDesired(r.dir));
      expect(back.steps.map((s) => [s.id, s.after])).toEqual([
        ['Team/org-demo/Security#create', { title: 'Security' }],
        ['SamlProvider/org-demo/Okta#update', { defaultTeam: 'Security' }],
      ]);
      // Naming a team this plan prunes blocks the provider instead of planning a loss.
      write(next, {
        'saml.yaml': doc('SamlProvider', '  label: Okta\n  defaultTeam: Support\n'),
        'teams.yaml': doc('Team', '  title: Platform\n', true),
      });
      const blocked = await planOnce(r.client, await loadDesired(next));
      expect(blocked.blocked.map((b) => [b.key, b.message])).toEqual([
        ['Okta', expect.stringContaining('defaultTeam "Support" names team team-support, which this plan deletes')],
      ]);
    } finally {
      rmSync(next, { recursive: true, force: true });
    }
  });

  it('export writes each certificate to a file next to the manifests; the export plans no changes', async () => {
    const r = await start();
    sso(r.dir);
    await applyAll(r, await planOnce(r.client, await loadDesired(r.dir)));
    const out = tempDir('saml-export');
    try {
      const result = await exportOrganization(r.client, KINDS, ORG, out);
      expect(result.counts['SamlProvider']).toBe(2);
      expect(readdirSync(join(out, 'saml')).sort()).toEqual(['azure.pem', 'okta.pem']);
      expect(readFileSync(join(out, 'saml/okta.pem'), 'utf8')).toBe(`${PEM_A.trim()}\n`);
      const yaml = readFileSync(join(out, 'samlproviders.yaml'), 'utf8');
      expect(yaml).toContain('file: saml/okta.pem');
      expect(yaml).toContain('defaultTeam: Security');
      expect(yaml).not.toContain(shows(PEM_A));
      const plan = await planOnce(r.client, await loadDesired(out));
      expect(plan.blocked).toEqual([]);
      expect(plan.steps).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
