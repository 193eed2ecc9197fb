/**
 * Ownership modes end to end on the sandbox (docs/kinds.md, "Who owns what"): observe reports drift and writes
 * nothing, additive adds and updates what is written and leaves the rest in place, and a step that needs what a
 * mode does not make is blocked, never sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import { renderJson, renderMarkdown, renderText } from '../../src/render/index.js';
import { NO_CHANGES } from '../../src/render/values.js';
import { teamMembers } from '@docops/sandbox';
import { loadDesired, planOnce } from '../helpers/pipeline.js';
import { sandboxPerTest } from '../kinds/sandbox-per-test.js';

const start = sandboxPerTest('modes-e2e');

const doc = (kind: string, spec: string[], extra: string[] = []): string =>
  [
    'apiVersion: docops/v1',
    `kind: ${kind}`,
    'metadata: { organization: org-demo }',
    ...extra,
    'spec:',
    ...spec.map((l) => `  ${l}`),
  ].join('\n') + '\n';

const writes = (sb: { stats(): { requests: { method: string; path: string }[] } }): string[] =>
  sb
    .stats()
    .requests.filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.path}`);

describe('ownership modes on the sandbox', () => {
  it('observe (per kind, from the config) reports the drift, never writes, and never says "No changes"', async () => {
    const { sb, client, dir } = await start();
    // Seed: frank reads. The manifest says comment.
    writeFileSync(
      join(dir, 'members.yaml'),
      doc('Members', ['members:', '  - { email: frank@acme.test, role: comment }']),
    );
    const desired = await loadDesired(dir);

    const authoritative = await planOnce(client, desired);
    expect(authoritative.steps.map((s) => s.id)).toEqual(['Members/org-demo/frank@acme.test#update']);

    const plan = await planOnce(client, desired, { modes: { Members: 'observe' } });
    expect(plan.steps).toEqual([]);
    expect(plan.reported).toEqual([
      expect.objectContaining({
        id: 'Members/org-demo/frank@acme.test#update',
        mode: 'observe',
        action: 'update',
        before: { role: 'read' },
        after: { role: 'comment' },
        source: expect.objectContaining({ line: 6 }),
      }),
    ]);
    const text = renderText(plan);
    expect(text).not.toContain(NO_CHANGES);
    expect(text).toMatch(/only reported/);
    expect(text).toMatch(/~ Members org-demo\/frank@acme\.test \(observe: report only, never writes\)/);
    expect(renderMarkdown(plan)).toMatch(/Reported, not applied: 1 change/);
    expect(JSON.parse(renderJson(plan)).reported[0]).toMatchObject({ mode: 'observe', kind: 'Members' });

    sb.resetStats();
    const report = await applyPlan(client, plan);
    expect(report.applied).toEqual([]);
    expect(writes(sb)).toEqual([]);
  });

  it('a document can be more cautious than the config, never less', async () => {
    const { client, dir } = await start();
    writeFileSync(
      join(dir, 'members.yaml'),
      doc('Members', ['members:', '  - { email: frank@acme.test, role: comment }'], ['mode: observe']),
    );
    const byDocument = await planOnce(client, await loadDesired(dir));
    expect(byDocument.steps).toEqual([]);
    expect(byDocument.reported?.map((r) => r.mode)).toEqual(['observe']);

    writeFileSync(
      join(dir, 'members.yaml'),
      doc('Members', ['members:', '  - { email: frank@acme.test, role: comment }'], ['mode: authoritative']),
    );
    const loosened = await planOnce(client, await loadDesired(dir), { modes: { Members: 'observe' } });
    expect(loosened.steps).toEqual([]);
    expect(loosened.reported?.map((r) => r.mode)).toEqual(['observe']);
  });

  it('additive adds a team member and changes a role, leaves the members no manifest lists, and converges', async () => {
    const { sb, client, dir } = await start();
    // Seed: Platform = ada (owner), bob, carol. The manifest lists ada and dan (new), bob as owner.
    const team = [
      'title: Platform',
      'members:',
      '  - { email: ada@acme.test, role: owner }',
      '  - { email: bob@acme.test, role: owner }',
      '  - { email: dan@acme.test }',
    ];
    writeFileSync(join(dir, 'team.yaml'), doc('Team', team));
    const authoritative = await planOnce(client, await loadDesired(dir));
    const full = authoritative.steps.find((s) => s.id === 'Team/org-demo/Platform#members')!;
    expect(full.requests[0]!.body).toMatchObject({ remove: ['u-carol'] });

    writeFileSync(join(dir, 'team.yaml'), doc('Team', team, ['mode: additive']));
    const plan = await planOnce(client, await loadDesired(dir));
    expect(plan.steps.map((s) => [s.id, s.mode])).toEqual([['Team/org-demo/Platform#members', 'additive']]);
    const step = plan.steps[0]!;
    expect(step.requests[0]!.body).toEqual({ add: ['u-dan'], memberships: { 'u-bob': { role: 'owner' } } });
    expect(step.cascades).toBeUndefined();
    expect(step.after).toEqual({ members: { 'bob@acme.test': 'owner', 'dan@acme.test': 'member' } });
    expect(plan.unmanaged).toContainEqual({
      kind: 'TeamMember',
      org: 'org-demo',
      key: 'Platform/carol@acme.test',
      mode: 'additive',
    });
    expect(renderText(plan)).toMatch(/TeamMember org-demo\/Platform\/carol@acme\.test \(additive: left in place/);

    sb.resetStats();
    const report = await applyPlan(client, plan);
    expect(report.failed).toEqual([]);
    expect(writes(sb)).toEqual(['PUT /v1/orgs/org-demo/teams/team-platform/members']);
    const live = teamMembers(sb.store)
      .where((m) => m.teamId === 'team-platform')
      .map((m) => `${m.userId}:${m.role}`)
      .sort();
    expect(live).toEqual(['u-ada:owner', 'u-bob:owner', 'u-carol:member', 'u-dan:member']);

    const again = await planOnce(client, await loadDesired(dir));
    expect(again.steps).toEqual([]);
    expect(again.reported ?? []).toEqual([]);
    expect(renderText(again)).toContain(NO_CHANGES);
  });

  it('a step that needs what an observed kind would create is blocked, not sent', async () => {
    const { client, dir } = await start();
    writeFileSync(join(dir, 'spaces.yaml'), doc('Space', ['title: Brand new space'], ['mode: observe']));
    writeFileSync(
      join(dir, 'site.yaml'),
      doc('Site', ['title: Fresh site', 'spaces:', '  - { space: Brand new space }']),
    );
    const plan = await planOnce(client, await loadDesired(dir));
    expect(plan.reported?.map((r) => r.id)).toEqual(['Space/org-demo/Brand new space#create']);
    expect(plan.steps.some((s) => JSON.stringify(s.requests).includes('Brand new space#create'))).toBe(false);
    expect(plan.blocked).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          message: expect.stringMatching(/needs Space "Brand new space", which observe mode does not create/),
        }),
      ]),
    );
    expect(plan.blocked.every((b) => b.source?.file.endsWith('site.yaml'))).toBe(true);
  });
});
