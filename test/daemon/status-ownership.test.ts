/**
 * Who owns what, on the daemon's status page: under ownership modes (docops.yaml `kinds:`) an observed kind's
 * drift is shown as reported, with its mode, never written and never "In sync"; an additive team is added to and
 * its extra members shown as left in place. A site under Git Sync shows its structure as owned by Git Sync.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { teamMembers } from '@docops/sandbox';
import { sites } from '../../packages/sandbox/src/site-records.js';
import { membersYaml } from '../audit/fixtures.js';
import { startTestDaemon, teamYaml, type TestDaemon } from './helpers.js';

const running: TestDaemon[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.stop()));
});

describe('the status page under ownership modes', () => {
  it('observe: the drift is reported with its mode, nothing is written, and the page does not say in sync', async () => {
    const d = await startTestDaemon({
      files: { 'members.yaml': membersYaml({ frank: 'comment' }) },
      config: { kinds: { Members: { mode: 'observe' } } },
    });
    running.push(d);
    const s = JSON.parse((await d.get('/api/status')).text);
    expect(s.runs[0]).toMatchObject({ result: 'success', planned: 0 });
    expect(s.drift.total).toBe(0);
    expect(s.drift.reported).toEqual({
      total: 1,
      items: [
        expect.objectContaining({
          kind: 'Members',
          key: 'frank@acme.test',
          mode: 'observe',
          outcome: 'reported',
          changes: [{ field: 'role', live: '"read"', desired: '"comment"' }],
        }),
      ],
    });
    expect(d.sandbox.stats().requests.filter((r) => r.method !== 'GET')).toEqual([]);
    const html = await (await fetch(d.daemon.url + '/')).text();
    expect(html).not.toContain('In sync');
    expect(html).toContain('1 reported');
    expect(html).toContain('Reported, not written (1)');
    expect(html).toContain('mode observe: reports, never writes');
    expect(
      d.logs.some((l) => l['msg'] === 'drift reported (ownership mode: not written)' && l['mode'] === 'observe'),
    ).toBe(true);
  });

  it('additive: the team gets its new member, keeps the others, and they are listed as left in place', async () => {
    const d = await startTestDaemon({
      files: { 'team.yaml': teamYaml('Support', ['frank@acme.test', 'dan@acme.test'], 'team-support') },
      config: { kinds: { Team: { mode: 'additive' } } },
    });
    running.push(d);
    const s = JSON.parse((await d.get('/api/status')).text);
    expect(s.runs[0]).toMatchObject({ result: 'success', planned: 1, applied: 1 });
    expect(s.drift.byKind).toEqual([
      { kind: 'Team', steps: [expect.objectContaining({ key: 'Support', mode: 'additive', outcome: 'applied' })] },
    ]);
    expect(s.drift.unmanaged.items).toContainEqual({
      kind: 'TeamMember',
      org: 'org-demo',
      key: 'Support/ivan@acme.test',
      id: null,
      mode: 'additive',
    });
    expect(
      teamMembers(d.sandbox.store)
        .where((m) => m.teamId === 'team-support')
        .map((m) => m.userId)
        .sort(),
    ).toEqual(['u-dan', 'u-frank', 'u-ivan']);
  });

  it('a site under Git Sync: its structure is listed as owned by Git Sync, and its settings are still applied', async () => {
    const site = (visibility: string): string =>
      [
        'apiVersion: docops/v1',
        'kind: Site',
        'metadata: { organization: org-demo }',
        'spec:',
        '  title: Help',
        `  visibility: ${visibility}`,
      ].join('\n') + '\n';
    const d = await startTestDaemon({ files: { 'site.yaml': site('public') }, config: { schedule: '* * * * *' } });
    running.push(d);
    const id = sites(d.sandbox.store).where((s) => s.title === 'Help')[0]!.id;
    const res = await fetch(`${d.sandbox.url.replace(/\/v1$/, '')}/_sandbox/sites/${id}/git-sync`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        installationId: 'inst-1',
        installationProvider: 'gitlab',
        installationStatus: 'pending',
        repoName: 'acme/help',
      }),
    });
    expect(res.status).toBe(200);
    const edited = d.nextRun();
    d.write('site.yaml', site('unlisted'));
    expect(await edited).toMatchObject({ result: 'success', applied: 1 });
    const s = JSON.parse((await d.get('/api/status')).text);
    expect(s.drift.owned).toEqual([
      {
        kind: 'Site',
        org: 'org-demo',
        key: 'Help',
        id,
        what: 'sections, section groups and site spaces',
        owner: 'Git Sync (repository acme/help, pending)',
      },
    ]);
    const html = await (await fetch(d.daemon.url + '/')).text();
    expect(html).toContain('Owned by another writer (1)');
    expect(html).toContain(
      'Site org-demo/Help: sections, section groups and site spaces owned by Git Sync (repository acme/help, pending)',
    );
  });
});
