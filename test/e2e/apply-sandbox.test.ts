/**
 * The engine over real HTTP against the sandbox: team membership changes go in one bulk request per team
 * (counted by the sandbox itself), and a step that fails at apply time skips only the steps that depend on it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import { members as memberTable, memberKey } from '../../packages/sandbox/src/records.js';
import { loadDesired, planOnce } from '../helpers/pipeline.js';
import { sandboxPerTest } from '../kinds/sandbox-per-test.js';

const start = sandboxPerTest('apply-e2e');

const team = (title: string, members: string[]): string =>
  [
    'apiVersion: docops/v1',
    'kind: Team',
    'metadata: { organization: org-demo }',
    'spec:',
    `  title: ${title}`,
    '  members:',
    ...members.map((m) => `    - ${m}`),
  ].join('\n') + '\n';

describe('apply against the sandbox', () => {
  it('sends all membership changes of a team in one bulk request per team', async () => {
    const { sb, client, dir } = await start();
    // Platform: ada owner, bob, carol → drop carol, add dan and erin, make bob an owner.
    writeFileSync(
      join(dir, 'platform.yaml'),
      team('Platform', [
        '{ email: ada@acme.test, role: owner }',
        '{ email: bob@acme.test, role: owner }',
        '{ email: dan@acme.test }',
        '{ email: erin@acme.test }',
      ]),
    );
    // Support: frank, ivan → drop both, add judy as owner and grace.
    writeFileSync(
      join(dir, 'support.yaml'),
      team('Support', ['{ email: judy@acme.test, role: owner }', '{ email: grace@acme.test }']),
    );
    const desired = await loadDesired(dir);
    const plan = await planOnce(client, desired);
    sb.resetStats();
    const report = await applyPlan(client, plan);
    expect(report.failed).toEqual([]);

    const writes = sb.stats().requests.filter((r) => r.method !== 'GET');
    expect(writes.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'PUT /v1/orgs/org-demo/teams/team-platform/members',
      'PUT /v1/orgs/org-demo/teams/team-support/members',
    ]);
    expect(await planOnce(client, desired)).toMatchObject({ steps: [] });
  });

  it('a step that fails at apply time skips only its dependents; independent steps still run', async () => {
    const { sb, client, dir } = await start();
    writeFileSync(
      join(dir, 'new-team.yaml'),
      team('Incident', ['{ email: ivan@acme.test, role: owner }', '{ email: bob@acme.test }']),
    );
    writeFileSync(
      join(dir, 'support.yaml'),
      team('Support', ['{ email: frank@acme.test }', '{ email: ivan@acme.test }', '{ email: carol@acme.test }']),
    );
    writeFileSync(
      join(dir, 'members.yaml'),
      [
        'apiVersion: docops/v1',
        'kind: Members',
        'metadata: { organization: org-demo }',
        'spec:',
        '  members:',
        '    - { email: heidi@acme.test, role: admin }',
        '    - { email: ivan@acme.test, role: read }',
        '    - { email: bob@acme.test, role: edit }',
        '    - { email: frank@acme.test, role: read }',
        '    - { email: carol@acme.test, role: create }',
        '    - { email: ada@acme.test, role: admin }',
      ].join('\n') + '\n',
    );
    const plan = await planOnce(client, await loadDesired(dir));
    const ids = plan.steps.map((s) => s.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'Team/org-demo/Incident#create',
        'Team/org-demo/Incident#members',
        'Team/org-demo/Support#members',
        'Members/org-demo/heidi@acme.test#update',
      ]),
    );

    // Behind docops's back, between plan and apply: bob leaves the organization. Creating Incident with bob
    // as a member now fails; its owner step depends on it; everything else is independent.
    memberTable(sb.store).delete(memberKey('org-demo', 'u-bob'));
    const report = await applyPlan(client, plan);

    expect(report.failed.map((f) => f.stepId)).toEqual(['Team/org-demo/Incident#create']);
    expect(report.failed[0]!.message).toMatch(/400/);
    expect(report.skipped).toEqual(['Team/org-demo/Incident#members']);
    expect(report.applied.sort()).toEqual(ids.filter((id) => !id.startsWith('Team/org-demo/Incident')).sort());
    const sent = sb
      .stats()
      .requests.filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.path}`);
    expect(sent).toContain('PATCH /v1/orgs/org-demo/members/u-heidi');
    expect(sent).toContain('PUT /v1/orgs/org-demo/teams/team-support/members');
    expect(sent.filter((s) => s.includes('/teams') && !s.includes('team-support'))).toEqual([
      'PUT /v1/orgs/org-demo/teams',
    ]);
  });
});
