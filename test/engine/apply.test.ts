import { describe, expect, it } from 'vitest';
import { applyPlan, type ApplyEvent } from '../../src/engine/apply.js';
import { orderSteps } from '../../src/engine/order.js';
import { emptyPlan, type Plan, type Step } from '../../src/model/plan.js';
import { ref } from '../../src/model/refs.js';
import { recordingClient, step } from './helpers.js';

const planOf = (steps: Step[]): Plan => ({ ...emptyPlan(), steps: orderSteps(steps) });

describe('applyPlan', () => {
  it('resolves refs to ids captured from earlier steps, in order', async () => {
    const client = recordingClient((r) =>
      r.method === 'PUT' && r.path === '/orgs/o1/teams' ? { id: 'team-77' } : undefined,
    );
    const plan = planOf([
      step({
        id: 'team',
        wave: 20,
        requests: [{ method: 'PUT', path: '/orgs/o1/teams', body: { title: 'T' }, capture: { id: 'id' } }],
      }),
      step({
        id: 'members',
        wave: 21,
        dependsOn: ['team'],
        requests: [
          { method: 'PUT', path: `/orgs/o1/teams/${ref('team')}/members`, body: { add: ['a@x'], team: ref('team') } },
        ],
      }),
    ]);
    const report = await applyPlan(client, plan);
    expect(report.failed).toEqual([]);
    expect(report.applied).toEqual(['team', 'members']);
    expect(report.outputs.team).toEqual({ id: 'team-77' });
    expect(client.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'PUT /orgs/o1/teams',
      'PUT /orgs/o1/teams/team-77/members',
    ]);
    expect(client.calls[1]!.body).toEqual({ add: ['a@x'], team: 'team-77' });
  });

  it('a failed step skips only the steps that depend on it, directly or transitively', async () => {
    const client = recordingClient((r) => {
      if (r.path === '/fail') throw new Error('boom');
      return { id: `id-of-${r.path}` };
    });
    const plan = planOf([
      step({ id: 'bad', wave: 0, requests: [{ method: 'POST', path: '/fail', capture: { id: 'id' } }] }),
      step({ id: 'good', wave: 0, requests: [{ method: 'POST', path: '/ok', capture: { id: 'id' } }] }),
      step({
        id: 'child-of-bad',
        wave: 1,
        dependsOn: ['bad'],
        requests: [{ method: 'POST', path: `/x/${ref('bad')}` }],
      }),
      step({ id: 'grandchild', wave: 2, dependsOn: ['child-of-bad'], requests: [{ method: 'POST', path: '/y' }] }),
      step({
        id: 'child-of-good',
        wave: 1,
        dependsOn: ['good'],
        requests: [{ method: 'POST', path: `/z/${ref('good')}` }],
      }),
      step({
        id: 'independent',
        phase: 'update',
        action: 'update',
        wave: 5,
        requests: [{ method: 'PATCH', path: '/w' }],
      }),
    ]);
    const events: ApplyEvent[] = [];
    const report = await applyPlan(client, plan, { onStep: (e) => events.push(e) });
    expect(report.failed).toEqual([{ stepId: 'bad', message: 'boom' }]);
    expect(report.skipped.sort()).toEqual(['child-of-bad', 'grandchild']);
    expect(report.applied.sort()).toEqual(['child-of-good', 'good', 'independent']);
    expect(client.calls.map((c) => c.path)).not.toContain('/y');
    // A captured id lands in a path as one encoded segment, whatever it holds.
    expect(client.calls.map((c) => c.path)).toContain('/z/id-of-%2Fok');
    expect(
      events
        .filter((e) => e.type === 'skipped')
        .map((e) => e.step.id)
        .sort(),
    ).toEqual(['child-of-bad', 'grandchild']);
  });

  it('runs the steps of one group concurrently, bounded, and never two groups at once', async () => {
    const client = recordingClient();
    const many = Array.from({ length: 12 }, (_, i) =>
      step({ id: `s${i}`, key: `k${i.toString().padStart(2, '0')}`, requests: [{ method: 'POST', path: `/p/${i}` }] }),
    );
    const after = step({ id: 'after', wave: 1, requests: [{ method: 'POST', path: '/after' }] });
    const report = await applyPlan(client, planOf([...many, after]), { concurrency: 3 });
    expect(report.applied).toHaveLength(13);
    expect(client.maxInFlight).toBeLessThanOrEqual(3);
    expect(client.maxInFlight).toBeGreaterThan(1);
    expect(client.calls.at(-1)!.path).toBe('/after');
  });

  it('fails a step whose response lacks a value it must capture', async () => {
    const client = recordingClient(() => ({}));
    const report = await applyPlan(
      client,
      planOf([step({ id: 'a', requests: [{ method: 'POST', path: '/a', capture: { id: 'id' } }] })]),
    );
    expect(report.failed[0]!.message).toMatch(/has no "id"/);
  });

  it('when stopped, finishes nothing new and reports the rest as skipped', async () => {
    const controller = new AbortController();
    const client = recordingClient(() => {
      controller.abort();
      return {};
    });
    const plan = planOf([
      step({ id: 'first', requests: [{ method: 'POST', path: '/1' }] }),
      step({ id: 'second', wave: 1, requests: [{ method: 'POST', path: '/2' }] }),
    ]);
    const report = await applyPlan(client, plan, { signal: controller.signal, concurrency: 1 });
    expect(report.applied).toEqual(['first']);
    expect(report.skipped).toEqual(['second']);
    expect(client.calls).toHaveLength(1);
  });

  it('a beforeStep hook that throws fails the step before any request', async () => {
    const client = recordingClient();
    const report = await applyPlan(
      client,
      planOf([step({ id: 'd', phase: 'prune', action: 'delete', requests: [{ method: 'DELETE', path: '/d' }] })]),
      {
        beforeStep: async () => {
          throw new Error('journal not writable');
        },
      },
    );
    expect(report.failed).toEqual([{ stepId: 'd', message: 'journal not writable' }]);
    expect(client.calls).toEqual([]);
  });
});
