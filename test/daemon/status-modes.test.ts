/**
 * The daemon under ownership modes (docops.yaml `kinds:`): an observed kind's drift is shown on the status page
 * as reported, with its mode, never written and never "In sync"; an additive team is added to and its extra
 * members shown as left in place.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { teamMembers } from '../../src/sandbox/records.js';
import { membersYaml } from '../audit/fixtures.js';
import { startTestDaemon, teamYaml, type TestDaemon } from './helpers.js';

const running: TestDaemon[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.stop()));
});

describe('the status page under ownership modes', () => {
  it('observe: the drift is reported with its mode, nothing is written, and the page does not say in sync', async () => {
    const d = await startTestDaemon({ files: { 'members.yaml': membersYaml({ frank: 'comment' }) }, config: { kinds: { Members: { mode: 'observe' } } } });
    running.push(d);
    const s = JSON.parse((await d.get('/api/status')).text);
    expect(s.runs[0]).toMatchObject({ result: 'success', planned: 0 });
    expect(s.drift.total).toBe(0);
    expect(s.drift.reported).toEqual({ total: 1, items: [expect.objectContaining({ kind: 'Members', key: 'frank@acme.test', mode: 'observe', outcome: 'reported', changes: [{ field: 'role', live: '"read"', desired: '"comment"' }] })] });
    expect(d.sandbox.stats().requests.filter((r) => r.method !== 'GET')).toEqual([]);
    const html = await (await fetch(d.daemon.url + '/')).text();
    expect(html).not.toContain('In sync');
    expect(html).toContain('1 reported');
    expect(html).toContain('Reported, not written (1)');
    expect(html).toContain('mode observe: reports, never writes');
    expect(d.logs.some((l) => l['msg'] === 'drift reported (ownership mode: not written)' && l['mode'] === 'observe')).toBe(true);
  });

  it('additive: the team gets its new member, keeps the others, and they are listed as left in place', async () => {
    const d = await startTestDaemon({ files: { 'team.yaml': teamYaml('Support', ['frank@acme.test', 'dan@acme.test'], 'team-support') }, config: { kinds: { Team: { mode: 'additive' } } } });
    running.push(d);
    const s = JSON.parse((await d.get('/api/status')).text);
    expect(s.runs[0]).toMatchObject({ result: 'success', planned: 1, applied: 1 });
    expect(s.drift.byKind).toEqual([{ kind: 'Team', steps: [expect.objectContaining({ key: 'Support', mode: 'additive', outcome: 'applied' })] }]);
    expect(s.drift.unmanaged.items).toContainEqual({ kind: 'TeamMember', org: 'org-demo', key: 'Support/ivan@acme.test', id: null, mode: 'additive' });
    expect(teamMembers(d.sandbox.store).where((m) => m.teamId === 'team-support').map((m) => m.userId).sort()).toEqual(['u-dan', 'u-frank', 'u-ivan']);
  });
});
