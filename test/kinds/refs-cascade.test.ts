/**
 * Blocking cascades through the engine against the sandbox: a blocked object registers nothing, so what names
 * it resolves to nothing and is blocked in turn (Collection → Space → Site → Organization; Members → Team),
 * while the documents that resolve are planned and applied, and re-planning stays blocked with no steps.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import { computePlan } from '../../src/engine/reconcile.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import { sandboxPerTest } from './sandbox-per-test.js';

const doc = (kind: string, spec: Record<string, unknown>): string =>
  `apiVersion: docops/v1\nkind: ${kind}\nmetadata: { organization: org-demo }\nspec: ${JSON.stringify(spec)}\n`;

describe('blocked references cascade', () => {
  const start = sandboxPerTest('refs-cascade');

  it('to everything that names a blocked object; the rest applies; the next plan is still blocked, with no steps', async () => {
    const r = await start();
    writeFileSync(
      join(r.dir, 'all.yaml'),
      [
        doc('Collection', { title: 'Guides', parent: 'Nowhere' }),
        doc('Space', { title: 'Setup', parent: 'Guides' }),
        doc('Site', { title: 'Help', spaces: ['Setup'] }),
        doc('Organization', { defaultContent: { type: 'site', site: 'Help' } }),
        doc('Members', {
          members: [
            { email: 'bob@acme.test', role: 'edit' },
            { email: 'zoe@acme.test', role: 'read' },
          ],
        }),
        doc('Team', { title: 'Squad', members: [{ email: 'bob@acme.test' }, { email: 'zoe@acme.test' }] }),
        // Resolving documents: a new collection, a space in it, a space under a live collection by its title.
        doc('Collection', { title: 'Fine' }),
        doc('Space', { title: 'Fine space', parent: 'Fine' }),
        doc('Space', { title: 'Product space', parent: 'Product docs' }),
      ].join('---\n'),
    );
    const { desired } = await loadManifests(r.dir, KINDS, { env: {} });
    const { plan } = await computePlan(r.client, KINDS, desired);
    expect(plan.blocked.map((b) => `${b.kind} ${b.key}: ${b.message.split(';')[0]}`)).toEqual([
      'Members zoe@acme.test: not a member of the organization: write invite: true (or run with --invite) to invite, or remove the entry',
      'Team Squad: zoe@acme.test is not an organization member and is not invited in this plan',
      'Collection Guides: parent collection "Nowhere" is neither a Collection manifest nor a live collection (by title or id)',
      'Space Setup: parent collection "Guides" is neither a Collection manifest nor a live collection (by title or id)',
      'Site Help: space "Setup" is neither a Space manifest nor a live space (by title or id)',
      'Organization org-demo: defaultContent.site "Help" is neither a Site manifest nor a live site (by title or id)',
    ]);
    expect(plan.steps.map((s) => s.id)).toEqual([
      'Collection/org-demo/Fine#create',
      'Space/org-demo/Fine space#create',
      'Space/org-demo/Product space#create',
    ]);
    expect(plan.warnings).toEqual([]);

    r.sb.resetStats();
    const report = await applyPlan(r.client, plan);
    expect(report.failed).toEqual([]);
    const written = r.sb
      .stats()
      .requests.filter((q) => q.method !== 'GET')
      .map((q) => `${q.method} ${q.route}`);
    expect(written).toEqual([
      'POST /v1/orgs/:organizationId/collections',
      'POST /v1/orgs/:organizationId/spaces',
      'POST /v1/orgs/:organizationId/spaces',
    ]);

    const again = (await computePlan(r.client, KINDS, desired)).plan;
    expect(again.steps).toEqual([]);
    expect(again.blocked.map((b) => b.key)).toEqual(plan.blocked.map((b) => b.key));
  });
});
