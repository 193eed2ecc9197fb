/**
 * Merge rules on the organization and on spaces, against the sandbox (issue 29): reviewers written by e-mail are
 * sent as user ids and shown as e-mails; rules compare as a set; a reviewer who is no member blocks the document;
 * export writes them back by e-mail and plans no change.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import { computePlan } from '../../src/engine/reconcile.js';
import { readForExport } from '../../src/export/index.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import { orgs, spaces } from '../../packages/sandbox/src/records.js';
import { sandboxPerTest, type SandboxRun } from './sandbox-per-test.js';

const start = sandboxPerTest('merge-rules');
const ORG = 'org-demo';

const doc = (kind: string, spec: Record<string, unknown>): string =>
  [
    'apiVersion: docops/v1',
    `kind: ${kind}`,
    `metadata: { organization: ${ORG} }`,
    `spec: ${JSON.stringify(spec)}`,
    '',
  ].join('\n');

async function planOf(r: SandboxRun, docs: string[]) {
  writeFileSync(join(r.dir, 'm.yaml'), docs.join('---\n'));
  const { desired } = await loadManifests(r.dir, KINDS, { env: {} });
  return { desired, ...(await computePlan(r.client, KINDS, desired)) };
}

const ORG_RULES = {
  type: 'rules',
  rules: [
    { rule: 'require_specific_reviewers', users: ['Bob@acme.test', 'carol@acme.test'] },
    { rule: 'require_at_least_one_approved_review' },
    { rule: 'custom', expression: 'changeRequest.subject != ""', message: 'Write a subject' },
  ],
};

describe('merge rules', () => {
  it("the organization's: reviewers by e-mail are sent as user ids, the next plan is empty, order does not matter", async () => {
    const r = await start();
    const { plan } = await planOf(r, [doc('Organization', { mergeRules: ORG_RULES })]);
    expect(plan.steps.map((s) => [s.id, s.before, s.after])).toEqual([
      ['Organization/org-demo/org-demo#update', { mergeRules: { type: 'none' } }, { mergeRules: ORG_RULES }],
    ]);
    expect((await applyPlan(r.client, plan)).failed).toEqual([]);
    expect(orgs(r.sb.store).get(ORG)!.mergeRules).toEqual({
      type: 'rules',
      rules: [
        { rule: 'require_specific_reviewers', users: ['u-bob', 'u-carol'] },
        { rule: 'require_at_least_one_approved_review' },
        { rule: 'custom', expression: 'changeRequest.subject != ""', message: 'Write a subject' },
      ],
    });
    const reordered = {
      type: 'rules',
      rules: [
        ORG_RULES.rules[2],
        { rule: 'require_specific_reviewers', users: ['carol@acme.test', 'bob@acme.test'] },
        ORG_RULES.rules[1],
      ],
    };
    expect((await planOf(r, [doc('Organization', { mergeRules: reordered })])).plan.steps).toEqual([]);
    const none = await planOf(r, [doc('Organization', { mergeRules: { type: 'none' } })]);
    expect(none.plan.steps[0]!.before).toEqual({
      mergeRules: {
        type: 'rules',
        rules: [
          { rule: 'require_specific_reviewers', users: ['bob@acme.test', 'carol@acme.test'] },
          ORG_RULES.rules[1],
          ORG_RULES.rules[2],
        ],
      },
    });
  });

  it("a space's: set on create and on update; a reviewer who is no member blocks the space", async () => {
    const r = await start();
    const rules = { type: 'rules', rules: [{ rule: 'require_one_of_specific_reviewers', users: ['heidi@acme.test'] }] };
    const { plan } = await planOf(r, [
      doc('Space', { title: 'Guides', mergeRules: rules }),
      doc('Space', { title: 'Runbooks', mergeRules: { type: 'none' } }),
    ]);
    expect((await applyPlan(r.client, plan)).failed).toEqual([]);
    const byTitle = (t: string) =>
      spaces(r.sb.store)
        .all()
        .find((s) => s.title === t)!;
    expect(byTitle('Guides').mergeRules).toEqual({
      type: 'rules',
      rules: [{ rule: 'require_one_of_specific_reviewers', users: ['u-heidi'] }],
    });
    expect(byTitle('Runbooks').mergeRules).toEqual({ type: 'none' });
    expect(
      (
        await planOf(r, [
          doc('Space', { title: 'Guides', mergeRules: rules }),
          doc('Space', { title: 'Runbooks', mergeRules: { type: 'none' } }),
        ])
      ).plan.steps,
    ).toEqual([]);

    const stranger = await planOf(r, [
      doc('Space', {
        title: 'Guides',
        mergeRules: { type: 'rules', rules: [{ rule: 'allow_bypass', users: ['nobody@else.test'] }] },
      }),
    ]);
    expect(stranger.plan.steps.filter((s) => s.kind === 'Space')).toEqual([]);
    expect(stranger.plan.blocked).toEqual([
      expect.objectContaining({
        kind: 'Space',
        key: 'Guides',
        message: expect.stringContaining('nobody@else.test is not an organization member'),
        source: expect.objectContaining({ line: 4 }),
      }),
    ]);
  });

  it('export writes them by e-mail, leaves the defaults out, and plans no change', async () => {
    const r = await start();
    const rules = { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['judy@acme.test'] }] };
    const { plan } = await planOf(r, [
      doc('Organization', { mergeRules: ORG_RULES }),
      doc('Space', { title: 'Runbooks', mergeRules: rules }),
    ]);
    expect((await applyPlan(r.client, plan)).failed).toEqual([]);
    const parts = await readForExport(
      r.client,
      KINDS.filter((k) => k.kind === 'Organization' || k.kind === 'Space'),
      ORG,
    );
    const docs = parts.flatMap((p) => p.documents as { kind: string; spec: Record<string, unknown> }[]);
    const orgSpec = docs.find((d) => d.kind === 'Organization')!.spec;
    expect(orgSpec['mergeRules']).toEqual({
      type: 'rules',
      rules: [
        { rule: 'require_specific_reviewers', users: ['bob@acme.test', 'carol@acme.test'] },
        ORG_RULES.rules[1],
        ORG_RULES.rules[2],
      ],
    });
    expect(docs.find((d) => d.spec['title'] === 'Runbooks')!.spec['mergeRules']).toEqual(rules);
    expect(docs.find((d) => d.spec['title'] === 'Changelog')!.spec['mergeRules']).toBeUndefined();
    const again = await planOf(
      r,
      docs.map((d) => doc(d.kind, d.spec)),
    );
    expect(again.plan.steps).toEqual([]);
  });
});
