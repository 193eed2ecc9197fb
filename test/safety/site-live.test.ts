/**
 * Removing redirect rules and unpublishing sites are destructive (issue 29): the gate counts each removed rule as a
 * delete of its site's list (an emptied list needs allowEmpty; a run's cap applies), and an unpublish as a delete of
 * the organization's published sites (unpublishing every one is a delete-all); the journal records each, and undo
 * says how to bring it back — and brings the rules and the publication back with a deleted site.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import { computePlan } from '../../src/engine/reconcile.js';
import { type DesiredState } from '../../src/model/state.js';
import { KINDS } from '../../src/kinds/index.js';
import { resolveSafetyConfig } from '../../src/safety/config.js';
import { countDesired, evaluatePlan } from '../../src/safety/gate.js';
import { createJournal } from '../../src/safety/journal.js';
import { collectParts, undoRecords } from '../../src/safety/undo.js';
import { readJournal } from '../../src/undo/journal-read.js';
import { loadDesired } from '../helpers/pipeline.js';
import { sandboxPerTest, type SandboxRun } from '../kinds/sandbox-per-test.js';

const ORG = 'org-demo';
const start = sandboxPerTest('site-live-safety');
const journals: string[] = [];
afterEach(() => {
  for (const d of journals.splice(0)) rmSync(d, { recursive: true, force: true });
});

const siteDoc = (spec: Record<string, unknown>, head: string[] = []): string =>
  [
    'apiVersion: docops/v1',
    'kind: Site',
    `metadata: { organization: ${ORG} }`,
    ...head,
    `spec: ${JSON.stringify(spec)}`,
    '',
  ].join('\n');

const rules = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ source: `/r/${i}`, destination: `https://acme.test/${i}` }));

async function write(r: SandboxRun, docs: string[]): Promise<DesiredState> {
  writeFileSync(join(r.dir, 'sites.yaml'), docs.join('---\n'));
  return loadDesired(r.dir);
}

async function gate(r: SandboxRun, desired: DesiredState, safety: unknown = {}) {
  const { plan, live } = await computePlan(r.client, KINDS, desired);
  return {
    plan,
    live,
    ...evaluatePlan(plan, live, KINDS, {
      config: resolveSafetyConfig(safety),
      force: false,
      desiredCount: countDesired(desired),
      desired,
    }),
  };
}

async function applied(r: SandboxRun, desired: DesiredState): Promise<void> {
  const { plan } = await computePlan(r.client, KINDS, desired);
  expect((await applyPlan(r.client, plan)).failed).toEqual([]);
}

describe('redirect rules in the safety gate', () => {
  it("an emptied list is refused unless the document says allowEmpty; a partial removal is measured against that site's rules", async () => {
    const r = await start();
    await applied(
      r,
      await write(r, [
        siteDoc({ title: 'Alpha', redirects: rules(12) }),
        siteDoc({ title: 'Beta', redirects: rules(2) }),
      ]),
    );
    const emptied = await gate(
      r,
      await write(r, [siteDoc({ title: 'Alpha', redirects: rules(12) }), siteDoc({ title: 'Beta', redirects: [] })]),
    );
    expect(emptied.blocking.map((v) => [v.rule, v.kind])).toEqual([['empty-list', 'SiteRedirect']]);
    expect(emptied.blocking[0]!.message).toContain(
      'SiteRedirect of Site "Beta" in org-demo: plan deletes all 2 of its live objects',
    );
    expect(emptied.plan.steps.find((s) => s.action === 'delete')!.note).toContain(
      'deletes all 2 entries of the redirects of site "Beta"',
    );
    const allowed = await gate(
      r,
      await write(r, [
        siteDoc({ title: 'Alpha', redirects: rules(12) }),
        siteDoc({ title: 'Beta', redirects: [] }, ['allowEmpty: true']),
      ]),
    );
    expect(allowed.blocking).toEqual([]);
    // 4 of A's 12 rules: a third of that site's list, over the 25 % limit (A's list, not the organization's 14).
    const partial = await gate(
      r,
      await write(r, [
        siteDoc({ title: 'Alpha', redirects: rules(8) }),
        siteDoc({ title: 'Beta', redirects: rules(2) }),
      ]),
    );
    expect(partial.blocking.map((v) => [v.rule, v.kind])).toEqual([['delete-fraction', 'SiteRedirect']]);
    expect(partial.blocking[0]!.message).toContain(
      'SiteRedirect of Site "Alpha" in org-demo: plan deletes 4 of 12 live objects',
    );
  });
});

describe('unpublishing in the safety gate', () => {
  it('counts an unpublish as a delete of the published sites, and unpublishing all of them is a delete-all', async () => {
    const r = await start();
    const docs = (a: boolean, b: boolean) => [
      siteDoc({ title: 'Alpha', spaces: ['Changelog'], published: a }),
      siteDoc({ title: 'Beta', spaces: ['Runbooks'], published: b }),
    ];
    await applied(r, await write(r, docs(true, true)));
    const one = await gate(r, await write(r, docs(false, true)), {
      kinds: { SitePublication: { deletes: { max: 0 } } },
    });
    expect(one.blocking.map((v) => [v.rule, v.kind])).toEqual([['delete-cap', 'SitePublication']]);
    const all = await gate(r, await write(r, docs(false, false)));
    expect(all.blocking.map((v) => [v.rule, v.kind, v.overridable])).toEqual([
      ['delete-all', 'SitePublication', false],
    ]);
  });
});

describe('journal and undo', () => {
  it('journals each removed rule and an unpublish; undo says what to write to bring each back', async () => {
    const r = await start();
    await applied(
      r,
      await write(r, [
        siteDoc({
          title: 'Alpha',
          spaces: ['Changelog'],
          published: true,
          redirects: [{ source: '/old', destination: 'https://acme.test/new', permanent: true }, ...rules(1)],
        }),
      ]),
    );
    const desired = await write(r, [
      siteDoc({ title: 'Alpha', spaces: ['Changelog'], published: false, redirects: rules(1) }),
    ]);
    const { plan, live } = await computePlan(r.client, KINDS, desired);
    const dir = mkdtempSync(join(tmpdir(), 'docops-site-live-journal-'));
    journals.push(dir);
    const journal = createJournal(dir, live, { client: r.client, kinds: KINDS });
    expect((await applyPlan(r.client, plan, { beforeStep: journal.beforeStep })).failed).toEqual([]);
    const records = await readJournal(journal.file);
    expect(records.map((x) => [x.kind, x.objectKey, x.snapshot])).toEqual([
      ['SiteRedirect', 'Alpha//old', 'live'],
      ['SitePublication', 'Alpha', 'live'],
    ]);
    const undo = undoRecords(collectParts(records, KINDS));
    expect(undo.documents).toEqual([]);
    expect(undo.objects.map((o) => [o.kind, o.outcome, o.reason])).toEqual([
      [
        'SiteRedirect',
        'none',
        'a redirect rule is part of its site\'s list, which undo does not rewrite: add {"source":"/old","destination":"https://acme.test/new","permanent":true} back to the redirects of its Site manifest',
      ],
      ['SitePublication', 'none', 'write published: true in the Site manifest of "Alpha" to publish it again'],
    ]);
  });

  it('a deleted site comes back with its rules and published', async () => {
    const r = await start();
    const spec = {
      title: 'Gone',
      spaces: ['Changelog'],
      published: true,
      redirects: [{ source: '/x', destination: { space: 'Changelog' } }],
    };
    await applied(r, await write(r, [siteDoc(spec)]));
    const desired = await write(r, [siteDoc({ title: 'Other', spaces: ['Runbooks'] }, ['prune: true'])]);
    const { plan, live } = await computePlan(r.client, KINDS, desired);
    const del = plan.steps.find((s) => s.id === 'Site/org-demo/Gone#delete')!;
    expect(del.cascades?.map((c) => c.kind)).toEqual(expect.arrayContaining(['SiteRedirect', 'SitePublication']));
    const dir = mkdtempSync(join(tmpdir(), 'docops-site-live-journal-'));
    journals.push(dir);
    const journal = createJournal(dir, live, { client: r.client, kinds: KINDS });
    expect((await applyPlan(r.client, plan, { beforeStep: journal.beforeStep })).failed).toEqual([]);
    const undo = undoRecords(collectParts(await readJournal(journal.file), KINDS));
    const doc = (undo.documents as { spec: Record<string, unknown> }[]).find((d) => d.spec['title'] === 'Gone')!;
    expect(doc.spec).toMatchObject({
      published: true,
      redirects: [{ source: '/x', destination: { space: 'Changelog' } }],
    });
  });
});
