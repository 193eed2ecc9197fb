import { describe, expect, it } from 'vitest';
import { FaultInjector, parseFaults } from '../../packages/sandbox/src/faults.js';
import { request, sandbox } from './helpers.js';

const TEAMS = '/orgs/org-demo/teams';

describe('parseFaults', () => {
  it('parses every key', () => {
    expect(
      parseFaults(
        'latency=20ms,spike=0.01:1.5s,429=0.05,5xx=0.02,reset=0.01,resetAfter=0.03,retryAfter=0,seed=7,max=4',
      ),
    ).toEqual({
      latencyMs: 20,
      spike: { probability: 0.01, durationMs: 1500 },
      tooManyRequests: 0.05,
      serverError: 0.02,
      reset: 0.01,
      resetAfter: 0.03,
      retryAfterSeconds: 0,
      seed: 7,
      maxFaults: 4,
    });
    expect(parseFaults('5xxAfter=0.05,reset=0.025')).toEqual({ serverErrorAfter: 0.05, reset: 0.025 });
    expect(parseFaults('stale=2s,auditDelay=1500ms:500ms,evolve=0.2,race=0.1')).toEqual({
      staleMs: 2000,
      auditDelay: { delayMs: 1500, jitterMs: 500 },
      evolve: 0.2,
      race: 0.1,
    });
    expect(parseFaults('auditDelay=3s')).toEqual({ auditDelay: { delayMs: 3000, jitterMs: 0 } });
    expect(parseFaults('')).toEqual({});
    expect(parseFaults(' latency=5 , seed=1 ')).toEqual({ latencyMs: 5, seed: 1 });
  });

  it.each([
    ['bogus=1', /unknown key "bogus"/],
    ['429=2', /429 must be a probability between 0 and 1/],
    ['5xx=-0.1', /5xx must be a probability/],
    ['latency=fast', /latency must be a duration/],
    ['spike=0.5', /spike must be PROBABILITY:DURATION/],
    ['seed=x', /seed must be a non-negative integer/],
    ['429', /is not key=value/],
    ['429=0.6,5xx=0.6', /add up to 1.2, more than 1/],
    ['5xxAfter=0.6,resetAfter=0.6', /add up to 1.2, more than 1/],
    ['stale=soon', /stale must be a duration/],
    ['auditDelay=1s:2s', /jitter may not exceed its delay/],
    ['auditDelay=x:1s', /auditDelay must be a duration/],
    ['evolve=1.5', /evolve must be a probability/],
    ['race=-1', /race must be a probability/],
  ])('rejects %s', (spec, message) => {
    expect(() => parseFaults(spec)).toThrow(message);
  });
});

describe('fault injection over HTTP', () => {
  async function statuses(spec: string, n: number): Promise<number[]> {
    const { call } = await sandbox({ faults: spec });
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await call('GET', TEAMS)).status);
    return out;
  }

  it('is deterministic: the same seed gives the same outcomes, as the injector predicts', async () => {
    const spec = '429=0.3,5xx=0.3,seed=7,retryAfter=0';
    const a = await statuses(spec, 40);
    const b = await statuses(spec, 40);
    expect(a).toEqual(b);
    const injector = new FaultInjector(parseFaults(spec));
    const predicted = a.map(() => {
      const o = injector.decide().outcome;
      return o.kind === 'status' ? o.status : 200;
    });
    expect(a).toEqual(predicted);
    expect(new Set(a)).toContain(200);
    expect(a.some((s) => s === 429)).toBe(true);
    expect(a.some((s) => s >= 502 && s <= 504)).toBe(true);
    expect(await statuses('429=0.3,5xx=0.3,seed=8,retryAfter=0', 40)).not.toEqual(a);
  });

  it('429 carries Retry-After (configurable, 0 allowed) and the error body; counted in stats', async () => {
    const { sb, call } = await sandbox({ faults: '429=1,retryAfter=3' });
    const res = await call('GET', TEAMS);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.body).toEqual({ error: { code: 429, message: expect.any(String) } });
    sb.setFaults('429=1,retryAfter=0');
    expect((await call('GET', TEAMS)).headers.get('retry-after')).toBe('0');
    const stats = sb.stats();
    expect(stats.byStatus['429']).toBe(2);
    expect(stats.byRoute['GET /v1/orgs/:organizationId/teams']).toBe(2);
    expect(stats.requests[0]).toMatchObject({ seq: 1, status: 429, fault: '429' });
  });

  it('5xx answers 502/503/504 without running the request', async () => {
    const { sb, call } = await sandbox({ faults: '5xx=1' });
    const res = await call('PUT', TEAMS, { title: 'Never' });
    expect([502, 503, 504]).toContain(res.status);
    expect(res.body.error.code).toBe(res.status);
    sb.setFaults(undefined);
    expect((await call('GET', TEAMS)).body.count).toBe(3);
  });

  it('reset drops the connection before the request runs: the write does not happen', async () => {
    const { sb, call } = await sandbox({ faults: 'reset=1' });
    await expect(call('PUT', TEAMS, { title: 'Lost' })).rejects.toThrow();
    sb.setFaults(undefined);
    expect((await call('GET', TEAMS)).body.items.map((t: { title: string }) => t.title)).not.toContain('Lost');
    expect(sb.stats().requests[0]).toMatchObject({
      method: 'PUT',
      route: '/v1/orgs/:organizationId/teams',
      status: 0,
      fault: 'reset',
    });
  });

  it('resetAfter runs the request (the write happens) and then drops the connection without answering', async () => {
    const { sb, call } = await sandbox({ faults: 'resetAfter=1' });
    await expect(call('PUT', TEAMS, { title: 'Applied' })).rejects.toThrow();
    sb.setFaults(undefined);
    expect((await call('GET', TEAMS)).body.items.map((t: { title: string }) => t.title)).toContain('Applied');
    expect(sb.stats().requests[0]).toMatchObject({ status: 0, fault: 'resetAfter' });
  });

  it('5xxAfter runs the request (the write happens) and then answers 502/503/504 instead', async () => {
    const { sb, call } = await sandbox({ faults: '5xxAfter=1' });
    const res = await call('PUT', TEAMS, { title: 'Done anyway' });
    expect([502, 503, 504]).toContain(res.status);
    sb.setFaults(undefined);
    expect((await call('GET', TEAMS)).body.items.map((t: { title: string }) => t.title)).toContain('Done anyway');
    expect(sb.stats().requests[0]).toMatchObject({ method: 'PUT', status: res.status, fault: '5xxAfter' });
  });

  it('adding 5xxAfter leaves the outcomes of the other faults under a seed unchanged', () => {
    const before = new FaultInjector(parseFaults('429=0.2,5xx=0.05,reset=0.025,resetAfter=0.025,seed=3'));
    const after = new FaultInjector(parseFaults('429=0.2,5xx=0.05,reset=0.025,resetAfter=0.025,5xxAfter=0.05,seed=3'));
    const kinds = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const a = before.decide().outcome;
      const b = after.decide().outcome;
      kinds.add(b.kind);
      if (a.kind !== 'pass') expect(b).toEqual(a);
      else expect(['pass', 'statusAfter']).toContain(b.kind);
    }
    expect([...kinds].sort()).toEqual(['pass', 'reset', 'resetAfter', 'status', 'statusAfter']);
  });

  it('latency and spikes delay requests (recorded in the log; never faster than the delay)', async () => {
    const { sb, call } = await sandbox({ faults: 'latency=30ms' });
    const started = performance.now();
    expect((await call('GET', TEAMS)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25); // lower bound only: cannot flake on a slow machine
    sb.setFaults('latency=5ms,spike=1:10ms');
    await call('GET', TEAMS);
    expect(sb.stats().requests.map((r) => r.delayMs)).toEqual([30, 15]);
  });

  it('max caps the number of injected failures; /_sandbox is never faulted and can set faults', async () => {
    const { sb, call } = await sandbox({ faults: '5xx=1,max=2' });
    const got = [];
    for (let i = 0; i < 4; i++) got.push((await call('GET', TEAMS)).status >= 500);
    expect(got).toEqual([true, true, false, false]);
    const put = await request(sb, 'PUT', '/_sandbox/faults', { spec: 'reset=1' });
    expect(put.status).toBe(200);
    expect(put.body.spec).toEqual({ reset: 1 });
    expect((await request(sb, 'GET', '/_sandbox/stats')).status).toBe(200);
    await expect(call('GET', TEAMS)).rejects.toThrow();
    expect((await request(sb, 'PUT', '/_sandbox/faults', { spec: 'nope=1' })).status).toBe(400);
    await request(sb, 'PUT', '/_sandbox/faults', { spec: null });
    expect((await call('GET', TEAMS)).status).toBe(200);
  });
});
