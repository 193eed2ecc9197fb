/**
 * Docs health in the daemon (issue 29): the status page and `docops_broken_links` show, per managed space (a
 * space a Space manifest describes), the broken links the API reports — one list request per space, at the end
 * of a run when due (the first run, then at most every `healthMinutes`); a space gaining a broken link shows on
 * the next read.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { HEALTH_RETRY_MS, HealthSchedule } from '../../src/daemon/health.js';
import {
  changeRequestHost,
  changeRequests,
  putPageLink,
  spaceHost,
} from '../../packages/sandbox/src/content-records.js';
import { startTestDaemon, type TestDaemon } from './helpers.js';
import { parsePrometheus } from './prometheus.js';

const running: TestDaemon[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.stop()));
});

const space = (title: string): string =>
  ['apiVersion: docops/v1', 'kind: Space', 'metadata: { organization: org-demo }', 'spec:', `  title: ${title}`].join(
    '\n',
  ) + '\n';

describe('docs health', () => {
  it('shows the broken links of each managed space on the status page and in the metrics, refreshed when due', async () => {
    const d = await startTestDaemon({
      files: { 'api.yaml': space('API Reference'), 'runbooks.yaml': space('Runbooks') },
      // Due at every run here; the default is hourly (next test).
      config: { schedule: '* * * * *', healthEveryMs: 1 },
    });
    running.push(d);
    const status = JSON.parse((await d.get('/api/status')).text);
    expect(status.health).toEqual([
      {
        org: 'org-demo',
        space: 'API Reference',
        id: 'sp-api',
        broken: 1,
        inChangeRequests: 0,
        run: 1,
        at: expect.any(String),
      },
      {
        org: 'org-demo',
        space: 'Runbooks',
        id: 'sp-runbooks',
        broken: 0,
        inChangeRequests: 0,
        run: 1,
        at: expect.any(String),
      },
    ]);
    let metrics = parsePrometheus((await d.get('/metrics')).text);
    expect(metrics.value('docops_broken_links', { org: 'org-demo', space: 'sp-api', title: 'API Reference' })).toBe(1);
    expect(metrics.value('docops_broken_links', { org: 'org-demo', space: 'sp-runbooks', title: 'Runbooks' })).toBe(0);
    const html = await (await fetch(d.daemon.url + '/')).text();
    expect(html).toContain('Docs health');
    // An organization of one's own: a warning, and no word of the demo (issue 34 §9).
    expect(html).toContain('<span class="badge warn">1 space(s) with broken links</span>');
    expect(html).not.toContain('on purpose');

    // Runbooks gains a broken link in its content and another in an open change request of it.
    putPageLink(d.sandbox.store, spaceHost('sp-runbooks'), 'pg-rb-oncall', { file: 'file-missing-9' });
    changeRequests(d.sandbox.store).put({
      id: 'cr-rb-1',
      spaceId: 'sp-runbooks',
      number: 1,
      subject: 'Escalation',
      status: 'open',
      createdBy: 'u-ada',
      createdAt: new Date(0).toISOString(),
    });
    putPageLink(d.sandbox.store, changeRequestHost('cr-rb-1'), 'pg-rb-escalation', { page: 'pg-rb-missing' });
    d.sandbox.resetStats();
    const next = d.nextRun();
    d.scheduler.tick();
    expect((await next).health).toEqual([
      { org: 'org-demo', id: 'sp-api', space: 'API Reference', broken: 1, inChangeRequests: 0 },
      { org: 'org-demo', id: 'sp-runbooks', space: 'Runbooks', broken: 1, inChangeRequests: 1 },
    ]);
    expect(
      d.sandbox
        .stats()
        .requests.filter((r) => r.path.endsWith('/links'))
        .map((r) => r.path)
        .sort(),
    ).toEqual(['/v1/spaces/sp-api/links', '/v1/spaces/sp-runbooks/links']);
    metrics = parsePrometheus((await d.get('/metrics')).text);
    expect(metrics.value('docops_broken_links', { org: 'org-demo', space: 'sp-runbooks', title: 'Runbooks' })).toBe(1);
    expect(JSON.parse((await d.get('/api/status')).text).health[1]).toMatchObject({
      id: 'sp-runbooks',
      broken: 1,
      inChangeRequests: 1,
      run: 2,
    });
  });

  it('costs what a change costs: runs between two reads (a schedule tick, a save) read no links', async () => {
    const d = await startTestDaemon({
      files: { 'api.yaml': space('API Reference'), 'runbooks.yaml': space('Runbooks') },
      config: { schedule: '* * * * *' },
    });
    running.push(d);
    const first = JSON.parse((await d.get('/api/status')).text).health;
    expect(first.map((h: { id: string; run: number }) => [h.id, h.run])).toEqual([
      ['sp-api', 1],
      ['sp-runbooks', 1],
    ]);
    d.sandbox.resetStats();
    let next = d.nextRun();
    d.scheduler.tick();
    expect((await next).health).toBeUndefined();
    next = d.nextRun();
    d.write('runbooks.yaml', space('Runbooks and Playbooks'));
    expect((await next).result).toBe('success');
    expect(d.sandbox.stats().requests.filter((r) => r.path.endsWith('/links'))).toEqual([]);
    // What the first read found stays on the page and in the metrics until the next read.
    expect(JSON.parse((await d.get('/api/status')).text).health).toEqual(first);
    const metrics = parsePrometheus((await d.get('/metrics')).text);
    expect(metrics.value('docops_broken_links', { org: 'org-demo', space: 'sp-api', title: 'API Reference' })).toBe(1);
  });

  it('is read on its own clock: the first run, then once the interval has passed; never with 0', async () => {
    let now = 1_000_000;
    const hourly = new HealthSchedule(60 * 60_000, () => now);
    expect(hourly.due()).toBe(true);
    expect(hourly.due()).toBe(true); // asking moves nothing: only a read does
    hourly.done(true);
    now += 59 * 60_000;
    expect(hourly.due()).toBe(false);
    now += 60_000;
    expect(hourly.due()).toBe(true);
    // A read that failed is tried again after HEALTH_RETRY_MS, not a whole interval later.
    hourly.done(false);
    now += HEALTH_RETRY_MS - 1;
    expect(hourly.due()).toBe(false);
    now += 1;
    expect(hourly.due()).toBe(true);
    const never = new HealthSchedule(0, () => now);
    expect(never.due()).toBe(false);
    // docops.yaml's healthMinutes (default 60).
    const dir = mkdtempSync(join(tmpdir(), 'docops-health-'));
    try {
      mkdirSync(join(dir, 'm'));
      writeFileSync(join(dir, 'a.yaml'), 'manifests: m\n');
      writeFileSync(join(dir, 'b.yaml'), 'manifests: m\nhealthMinutes: 0\n');
      expect((await loadConfig(join(dir, 'a.yaml'), { env: {} })).healthEveryMs).toBe(3_600_000);
      expect((await loadConfig(join(dir, 'b.yaml'), { env: {} })).healthEveryMs).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads nothing without Space manifests', async () => {
    const d = await startTestDaemon({
      files: {
        'org.yaml':
          [
            'apiVersion: docops/v1',
            'kind: Organization',
            'metadata: { organization: org-demo }',
            'spec:',
            '  title: Acme Docs',
          ].join('\n') + '\n',
      },
    });
    running.push(d);
    expect(JSON.parse((await d.get('/api/status')).text).health).toEqual([]);
    expect(d.sandbox.stats().requests.filter((r) => r.path.endsWith('/links'))).toEqual([]);
  });

  it('a scoped run does not take the read: it sees only part of the spaces, so the next whole run reads them', async () => {
    const translation = (title: string): string =>
      `apiVersion: docops/v1\nkind: Translation\nmetadata:\n  organization: org-demo\nspec:\n  title: ${title}\n  id: tr-fr\n`;
    const d = await startTestDaemon({
      files: { 'api.yaml': space('API Reference'), 'fr.yaml': translation('French docs') },
      config: { schedule: '* * * * *' },
    });
    running.push(d);
    const links = (): number => d.sandbox.stats().requests.filter((r) => r.path.endsWith('/links')).length;
    expect(links()).toBe(1);
    d.clock.nowMs = Date.now() + 61 * 60_000; // docs health is due again
    d.sandbox.resetStats();
    let next = d.nextRun();
    d.write('fr.yaml', translation('French documentation'));
    expect(await next).toMatchObject({ result: 'success', scope: 'scoped' });
    expect(links()).toBe(0);
    next = d.nextRun();
    d.scheduler.tick();
    expect(await next).toMatchObject({ result: 'success', scope: 'full' });
    expect(links()).toBe(1);
  });
});
