/**
 * ApplyOptions.writeGate: the generic "may I write" hook leader election plugs into. Once it says stop, not one
 * further request is sent — not the next group, not the next step of the group, not the rest of a step in flight,
 * not a retry waiting in the client — and the report says why.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { applyPlan, type ApplyEvent, type WriteGate } from '../../src/engine/apply.js';
import { orderSteps } from '../../src/engine/order.js';
import { emptyPlan, type Plan, type Step } from '../../src/model/plan.js';
import { ref } from '../../src/model/refs.js';
import { startSandbox } from '@docops/sandbox';
import { recordingClient, step } from './helpers.js';

const planOf = (steps: Step[]): Plan => ({ ...emptyPlan(), steps: orderSteps(steps) });

/** A gate that closes when `close()` is called, counting how often it was asked. */
function gate(): WriteGate & { close(): void; asked: number } {
  const controller = new AbortController();
  let closed = false;
  const g = {
    asked: 0,
    signal: controller.signal,
    check() {
      g.asked++;
      return closed ? 'lost the lease' : undefined;
    },
    close() {
      closed = true;
      controller.abort();
    },
  };
  return g;
}

describe('apply with a write gate', () => {
  it('an open gate changes nothing (asked before every group, step and request)', async () => {
    const g = gate();
    const client = recordingClient();
    const plan = planOf([
      step({ id: 'a', wave: 0, requests: [{ method: 'POST', path: '/a' }] }),
      step({
        id: 'b',
        wave: 1,
        requests: [
          { method: 'POST', path: '/b1' },
          { method: 'POST', path: '/b2' },
        ],
      }),
    ]);
    const report = await applyPlan(client, plan, { writeGate: g });
    expect(report.applied).toEqual(['a', 'b']);
    expect(report.stopped).toBeUndefined();
    // 2 groups + 2 steps + 3 requests
    expect(g.asked).toBe(7);
  });

  it('closing between groups: the next group sends nothing, every later step is skipped with the reason', async () => {
    const g = gate();
    const client = recordingClient((r) => {
      if (r.path === '/a') g.close();
      return { id: 'x' };
    });
    const plan = planOf([
      step({ id: 'a', wave: 0, requests: [{ method: 'POST', path: '/a' }] }),
      step({ id: 'b', wave: 1, requests: [{ method: 'POST', path: '/b' }] }),
      step({ id: 'c', phase: 'delete', action: 'delete', wave: 0, requests: [{ method: 'DELETE', path: '/c' }] }),
    ]);
    const events: ApplyEvent[] = [];
    const report = await applyPlan(client, plan, { writeGate: g, onStep: (e) => events.push(e) });
    expect(client.calls.map((c) => c.path)).toEqual(['/a']);
    expect(report.applied).toEqual(['a']);
    expect(report.skipped.sort()).toEqual(['b', 'c']);
    expect(report.skipReasons.b).toBe('writing stopped: lost the lease');
    expect(report.stopped).toBe('lost the lease');
    expect(events.filter((e) => e.type === 'skipped')).toHaveLength(2);
  });

  it('closing inside a group: the steps of that group not yet started send nothing', async () => {
    const g = gate();
    const client = recordingClient((r) => {
      if (r.path === '/p/0') g.close();
      return {};
    });
    const many = Array.from({ length: 6 }, (_, i) =>
      step({ id: `s${i}`, key: `k${i}`, requests: [{ method: 'POST', path: `/p/${i}` }] }),
    );
    const report = await applyPlan(client, planOf(many), { writeGate: g, concurrency: 1 });
    expect(client.calls.map((c) => c.path)).toEqual(['/p/0']);
    expect(report.skipped).toHaveLength(5);
  });

  it('closing between two requests of a step: the rest of the step is not sent; the step fails and says what it left', async () => {
    const g = gate();
    const client = recordingClient((r) => {
      if (r.path === '/teams') {
        g.close();
        return { id: 'team-1' };
      }
      return {};
    });
    const plan = planOf([
      step({
        id: 'team',
        requests: [
          { method: 'POST', path: '/teams', body: { title: 'T' }, capture: { id: 'id' } },
          { method: 'PUT', path: `/teams/${ref('team')}/members`, body: { add: ['a@x'] } },
        ],
      }),
    ]);
    const report = await applyPlan(client, plan, { writeGate: g });
    expect(client.calls.map((c) => c.path)).toEqual(['/teams']);
    expect(report.failed).toEqual([{ stepId: 'team', message: 'writing stopped: lost the lease' }]);
    expect(report.incomplete.map((x) => x.id)).toEqual(['team-1']);
    expect(report.stopped).toBe('lost the lease');
  });

  it('a gate that reopens later stays closed for this apply', async () => {
    let calls = 0;
    const flapping: WriteGate = { check: () => (++calls === 2 ? 'blip' : undefined) };
    const client = recordingClient();
    const plan = planOf([
      step({ id: 'a', wave: 0, requests: [{ method: 'POST', path: '/a' }] }),
      step({ id: 'b', wave: 1, requests: [{ method: 'POST', path: '/b' }] }),
    ]);
    const report = await applyPlan(client, plan, { writeGate: flapping });
    expect(client.calls).toEqual([]); // asked for the group (open), then for step a (closed): nothing sent
    expect(report.skipped).toEqual(['a', 'b']);
  });

  it('the gate signal stops a request the client would retry: the retry is never sent', async () => {
    // The sandbox answers 503 before processing; the real client waits, then would send the same PATCH again.
    const sandbox = await startSandbox({ seed: 'demo', faults: '5xx=1' });
    try {
      const g = gate();
      const client = createClient({
        baseUrl: sandbox.url,
        token: sandbox.token,
        retry: { maxRetries: 5, minDelayMs: 200, maxDelayMs: 200 },
      });
      const plan = planOf([
        step({
          id: 'org',
          phase: 'update',
          action: 'update',
          requests: [{ method: 'PATCH', path: '/orgs/org-demo', body: { title: 'X' } }],
        }),
      ]);
      const applied = applyPlan(client, plan, {
        writeGate: g,
        onStep: (e) => e.type === 'start' && void waitForRequests(sandbox, 1).then(() => g.close()),
      });
      const report = await applied;
      expect(report.failed.map((f) => f.stepId)).toEqual(['org']);
      expect(report.stopped).toBe('lost the lease');
      expect(sandbox.stats().byMethod.PATCH).toBe(1);
      await client.close();
    } finally {
      await sandbox.close();
    }
  });
});

async function waitForRequests(sandbox: { stats(): { total: number } }, n: number): Promise<void> {
  while (sandbox.stats().total < n) await new Promise((r) => setTimeout(r, 5));
}
