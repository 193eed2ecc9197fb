/**
 * RequestSpec.settle: after a write the server finishes later, apply reads until the plan's conditions hold,
 * fails the step when a failure field is set, gives up after the plan's number of reads, and stops waiting when
 * apply is stopped. The saved (JSON) form of a plan carries it and refuses a malformed one.
 */
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import { orderSteps } from '../../src/engine/order.js';
import { emptyPlan, type Plan, type SettleSpec, type Step } from '../../src/model/plan.js';
import { SETTLE_DELAYS_MS } from '../../src/engine/settle.js';
import { estimateCost } from '../../src/plan-file/cost.js';
import { renderJson } from '../../src/render/json.js';
import { parsePlanJson } from '../../src/plan-file/read-plan.js';
import { recordingClient, step } from './helpers.js';

const planOf = (steps: Step[]): Plan => ({ ...emptyPlan(), steps: orderSteps(steps) });

const SETTLE: SettleSpec = {
  path: '/orgs/o1/openapi/pets',
  until: [{ field: 'processingState', value: 'complete' }],
  failWhen: [{ field: 'lastProcessErrorCode', message: 'processing failed', detail: 'lastProcessedErrors.0.message' }],
  reads: 4,
};

const putStep = (settle: SettleSpec = SETTLE): Step =>
  step({
    id: 'spec',
    action: 'update',
    phase: 'update',
    requests: [{ method: 'PUT', path: '/orgs/o1/openapi/pets', body: { source: { text: 'x' } }, settle }],
  });

/** A client whose GETs of the spec answer `reads` in turn (the last one repeated). */
function specClient(reads: object[]) {
  let n = 0;
  return recordingClient((r) =>
    r.method === 'GET' ? reads[Math.min(n++, reads.length - 1)] : { processingState: 'pending' },
  );
}

describe('settle', () => {
  it('reads until processing completes, waiting the growing delays between reads, and then the step succeeds', async () => {
    const client = specClient([
      { processingState: 'pending' },
      { processingState: 'progress' },
      { processingState: 'complete', lastVersion: 'v2' },
    ]);
    const waits: number[] = [];
    const report = await applyPlan(client, planOf([putStep()]), { sleep: async (ms) => void waits.push(ms) });
    expect(report.failed).toEqual([]);
    expect(report.applied).toEqual(['spec']);
    expect(client.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'PUT /orgs/o1/openapi/pets',
      'GET /orgs/o1/openapi/pets',
      'GET /orgs/o1/openapi/pets',
      'GET /orgs/o1/openapi/pets',
    ]);
    // The first read is immediate; the next ones wait the delays after it.
    expect(waits).toEqual(SETTLE_DELAYS_MS.slice(1, 3));
  });

  it('fails the step naming the failure field, its value and the first error message', async () => {
    const client = specClient([
      {
        processingState: 'complete',
        lastProcessErrorCode: 'PARSE_ERROR',
        lastProcessedErrors: [{ message: 'not YAML' }],
      },
    ]);
    const report = await applyPlan(client, planOf([putStep()]), { sleep: async () => {} });
    expect(report.applied).toEqual([]);
    expect(report.failed).toEqual([
      { stepId: 'spec', message: 'processing failed: lastProcessErrorCode PARSE_ERROR (not YAML)' },
    ]);
  });

  it('a failure field checked only once settled: an error of the previous processing while pending is not the outcome', async () => {
    const client = specClient([
      { processingState: 'pending', lastProcessErrorCode: 'PARSE_ERROR' },
      { processingState: 'complete' },
    ]);
    const report = await applyPlan(client, planOf([putStep()]), { sleep: async () => {} });
    expect(report.failed).toEqual([]);
    expect(report.applied).toEqual(['spec']);
  });

  it('gives up after the plan’s number of reads, saying the write was sent and what the server still shows', async () => {
    const client = specClient([{ processingState: 'progress' }]);
    const report = await applyPlan(client, planOf([putStep({ ...SETTLE, reads: 3 })]), { sleep: async () => {} });
    expect(client.calls.filter((c) => c.method === 'GET')).toHaveLength(3);
    expect(report.failed[0]!.message).toBe(
      'PUT /orgs/o1/openapi/pets was sent, and /orgs/o1/openapi/pets still shows processingState "progress" after 3 reads (waiting for processingState complete): the next plan shows the outcome',
    );
  });

  it('stops waiting when apply is stopped, and the step fails saying the outcome is not known', async () => {
    const client = specClient([{ processingState: 'pending' }]);
    const stop = new AbortController();
    const report = await applyPlan(client, planOf([putStep()]), {
      signal: stop.signal,
      sleep: async () => stop.abort(),
    });
    expect(client.calls.filter((c) => c.method === 'GET')).toHaveLength(1);
    expect(report.failed[0]!.message).toMatch(
      /^PUT \/orgs\/o1\/openapi\/pets was sent, and apply was stopped before .* showed processingState complete/,
    );
  });

  it('round-trips through the saved JSON form, in a stable key order; the cost line counts the write (as it counts no recover lookup)', () => {
    const plan = planOf([putStep()]);
    const text = renderJson(plan);
    expect(parsePlanJson(text)).toEqual(plan);
    expect(text.indexOf('"path": "/orgs/o1/openapi/pets",\n            "until"')).toBeGreaterThan(0);
    expect(estimateCost(plan, { concurrency: 1 }).requests).toBe(1);
  });

  it('the parser refuses a malformed settle, naming each problem', () => {
    const plan = JSON.parse(renderJson(planOf([putStep()]))) as {
      steps: { requests: { settle: Record<string, unknown> }[] }[];
    };
    plan.steps[0]!.requests[0]!.settle = { path: 'x', until: [{ field: 1 }], reads: 0, extra: true };
    expect(() => parsePlanJson(JSON.stringify(plan))).toThrow(
      /settle\.extra: unknown field[\s\S]*settle\.path: expected a string starting with \/[\s\S]*settle\.reads: expected an integer ≥ 1[\s\S]*settle\.until\[0\]\.field: expected a string[\s\S]*settle\.until\[0\]\.value: expected a string/,
    );
  });
});
