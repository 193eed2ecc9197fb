import { describe, expect, it } from 'vitest';
import { applyPlan, type ApplyEvent } from '../../src/engine/apply.js';
import { applyUnits } from '../../src/engine/batch.js';
import { orderSteps } from '../../src/engine/order.js';
import { emptyPlan, type BatchSpec, type Plan, type Step } from '../../src/model/plan.js';
import { ref } from '../../src/model/refs.js';
import { estimateCost } from '../../src/plan-file/cost.js';
import { recordingClient, step } from './helpers.js';

const planOf = (steps: Step[]): Plan => ({ ...emptyPlan(), steps: orderSteps(steps) });

const BULK: BatchSpec = {
  list: 'items',
  max: 3,
  results: 'results',
  failed: { field: 'status', value: 'error', message: 'error' },
};

/** A step holding one element of a bulk PUT to `path`. */
const element = (id: string, path = '/bulk', extra: Partial<Step> = {}): Step =>
  step({
    id,
    key: id,
    requests: [{ method: 'PUT', path, body: { items: [{ name: id }] }, idempotent: true, batch: BULK }],
    ...extra,
  });

/** A bulk endpoint answering one result per element; elements named `bad…` fail. */
const bulkClient = () =>
  recordingClient((r) => {
    if (r.method !== 'PUT') return undefined;
    const items = (r.body as { items: { name: string }[] }).items;
    return {
      results: items.map((i) =>
        i.name.startsWith('bad') ? { status: 'error', error: `no such target for ${i.name}` } : { status: 'created' },
      ),
    };
  });

describe('apply: bulk writes (BatchSpec)', () => {
  it('sends the batched requests of one group together, at most max elements per request, in plan order', async () => {
    const client = bulkClient();
    const steps = ['a1', 'a2', 'a3', 'a4', 'a5'].map((id) => element(id));
    const report = await applyPlan(client, planOf([...steps, element('other', '/elsewhere')]));
    expect(report.failed).toEqual([]);
    expect(report.applied.sort()).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'other']);
    const bodies = client.calls.map(
      (c) => `${c.path} ${(c.body as { items: { name: string }[] }).items.map((i) => i.name).join(',')}`,
    );
    expect(bodies.sort()).toEqual(['/bulk a1,a2,a3', '/bulk a4,a5', '/elsewhere other']);
  });

  it('a step sent alone is read like a batch: its failed element fails it', async () => {
    const report = await applyPlan(bulkClient(), planOf([element('bad1')]));
    expect(report.failed).toEqual([{ stepId: 'bad1', message: 'PUT /bulk: no such target for bad1' }]);
  });

  it('a failed element fails its own step; the other steps of the request stand', async () => {
    const client = bulkClient();
    const events: ApplyEvent[] = [];
    const report = await applyPlan(client, planOf([element('a1'), element('bad2'), element('a3')]), {
      onStep: (e) => events.push(e),
    });
    expect(client.calls).toHaveLength(1);
    expect(report.applied.sort()).toEqual(['a1', 'a3']);
    expect(report.failed).toEqual([{ stepId: 'bad2', message: 'PUT /bulk: no such target for bad2' }]);
    expect(events.filter((e) => e.type === 'start').map((e) => e.step.id)).toEqual(['a1', 'a3', 'bad2']);
  });

  it('a request that fails fails every step in it; a step whose dependency failed is not sent', async () => {
    const client = recordingClient((r) => {
      if (r.path === '/parent') throw new Error('parent refused');
      if (r.path === '/bulk') throw new Error('bulk refused');
      return undefined;
    });
    const parent = step({
      id: 'parent',
      key: 'parent',
      requests: [{ method: 'POST', path: '/parent', capture: { id: 'id' } }],
    });
    const child = element('child', `/sites/${ref('parent')}/bulk`, { wave: 1, dependsOn: ['parent'] });
    const report = await applyPlan(
      client,
      planOf([parent, child, element('a1', '/bulk', { wave: 1 }), element('a2', '/bulk', { wave: 1 })]),
    );
    expect(report.skipped).toEqual(['child']);
    expect(report.failed.map((f) => f.stepId).sort()).toEqual(['a1', 'a2', 'parent']);
    expect(report.failed.find((f) => f.stepId === 'a1')!.message).toBe('bulk refused');
  });

  it('an answer without one result per element sent fails every step of the request, saying the outcome is unknown', async () => {
    const client = recordingClient(() => ({ results: [{ status: 'created' }] }));
    const report = await applyPlan(client, planOf([element('a1'), element('a2')]));
    expect(report.failed.map((f) => f.stepId)).toEqual(['a1', 'a2']);
    expect(report.failed[0]!.message).toMatch(/holds 1 results for 2 elements sent: what it did is not known/);
  });

  it('the journal hook runs for each step before the request; its failure keeps only that step out', async () => {
    const client = bulkClient();
    const report = await applyPlan(client, planOf([element('a1'), element('a2')]), {
      beforeStep: async (s) => {
        if (s.id === 'a1') throw new Error('cannot journal');
      },
    });
    expect(report.failed).toEqual([{ stepId: 'a1', message: 'cannot journal' }]);
    expect(report.applied).toEqual(['a2']);
    expect((client.calls[0]!.body as { items: unknown[] }).items).toEqual([{ name: 'a2' }]);
  });

  it('the cost estimate counts one request per bulk request, not per step', () => {
    const steps = orderSteps(['a1', 'a2', 'a3', 'a4'].map((id) => element(id)));
    expect(applyUnits(steps).map((u) => (Array.isArray(u) ? u.map((s) => s.id) : u.id))).toEqual([
      ['a1', 'a2', 'a3'],
      ['a4'],
    ]);
    expect(estimateCost({ ...emptyPlan(), steps }, { concurrency: 8 }).requests).toBe(2);
  });
});

describe('apply: a 2xx answer that says the write was not done (refusedWhen)', () => {
  it("fails the step with the plan's message, quoting nothing of the answer", async () => {
    const client = recordingClient((r) =>
      r.path === '/publish' ? { type: 'checkout', sessionId: 'cs_secret_123' } : { object: 'site' },
    );
    const refusedWhen = [{ field: 'type', value: 'checkout', message: 'the plan needs an upgrade to publish' }];
    const report = await applyPlan(
      client,
      planOf([
        step({ id: 'pub', key: 'pub', requests: [{ method: 'POST', path: '/publish', refusedWhen }] }),
        step({ id: 'pub2', key: 'pub2', requests: [{ method: 'POST', path: '/publish-ok', refusedWhen }] }),
      ]),
    );
    expect(report.failed).toEqual([{ stepId: 'pub', message: 'the plan needs an upgrade to publish' }]);
    expect(JSON.stringify(report)).not.toContain('cs_secret_123');
    expect(report.applied).toEqual(['pub2']);
  });
});

describe('a saved plan keeps bulk writes and refusals', () => {
  it('the JSON plan round-trips batch and refusedWhen, and the parser checks their shape', async () => {
    const { renderJson } = await import('../../src/render/json.js');
    const { parsePlanJson } = await import('../../src/plan-file/read-plan.js');
    const refusedWhen = [{ field: 'type', value: 'checkout', message: 'upgrade' }];
    const plan = planOf([
      element('a1'),
      step({ id: 'pub', key: 'pub', requests: [{ method: 'POST', path: '/publish', refusedWhen }] }),
    ]);
    expect(parsePlanJson(renderJson(plan))).toEqual(JSON.parse(renderJson(plan)));
    const bad = JSON.parse(renderJson(plan));
    bad.steps[0].requests[0].batch.max = 0;
    delete bad.steps[1].requests[0].refusedWhen[0].message;
    expect(() => parsePlanJson(JSON.stringify(bad))).toThrow(
      /batch\.max[\s\S]*refusedWhen\[0\]\.message|refusedWhen\[0\]\.message[\s\S]*batch\.max/,
    );
  });
});
