/** The notification policy over many runs: distinct problems once, `recovered` once, scoped runs never recover. */
import { describe, expect, it } from 'vitest';
import type { ApplyReport } from '../../../src/model/apply-report.js';
import { emptyPlan, type Plan, type Step } from '../../../src/model/plan.js';
import type { RunRecord } from '../../../src/daemon/run.js';
import { NotifyPolicy } from '../../../src/daemon/notify/policy.js';

const step = (key: string, role: string): Step => ({
  id: `Members/o/${key}#update`,
  action: 'update',
  phase: 'update',
  kind: 'Members',
  org: 'o',
  key,
  wave: 0,
  before: { role },
  after: { role: 'edit' },
  dependsOn: [],
  requests: [],
});
const plan = (...steps: Step[]): Plan => ({ ...emptyPlan(), steps });
const run = (over: Partial<RunRecord> = {}): RunRecord => ({
  id: 1,
  reasons: ['schedule'],
  result: 'success',
  mode: 'plan',
  startedAt: '',
  durationMs: 1,
  ...over,
});
const applied = (p: Plan): ApplyReport => ({
  applied: p.steps.map((s) => s.id),
  failed: [],
  skipped: [],
  skipReasons: {},
  incomplete: [],
  outputs: {},
});

describe('NotifyPolicy', () => {
  it('plan mode: one drift per distinct plan over many cycles, one recovered', () => {
    const p = new NotifyPolicy();
    const events = (seq: [RunRecord, Plan | undefined][]) =>
      seq.map(([r, pl]) => p.decide(r, pl, undefined)?.event ?? '-');
    const bob = plan(step('bob', 'admin'));
    const both = plan(step('bob', 'admin'), step('dan', 'admin'));
    expect(
      events([
        [run(), plan()],
        ...Array(10).fill([run(), bob]),
        [run(), both],
        [run(), both],
        [run(), plan()],
        [run(), plan()],
      ]),
    ).toEqual(['-', 'drift', ...Array(9).fill('-'), 'drift', '-', 'recovered', '-']);
    // The same value changed differently is a different drift.
    expect(
      events([
        [run(), bob],
        [run(), plan(step('bob', 'read'))],
      ]),
    ).toEqual(['drift', 'drift']);
  });

  it('a plan waiting for approval: once per plan (checksum) waiting, its checksum in the message, then recovered', async () => {
    const { webhookBody, slackBody } = await import('../../../src/daemon/notify/message.js');
    const p = new NotifyPolicy();
    const waits = (c: string): RunRecord =>
      run({
        result: 'refused',
        mode: 'apply',
        approval: { checksum: `sha256:${c.repeat(64)}` },
        violations: [{ rule: 'policy public-sites', message: 'Site o/Help: goes public' }],
      });
    const seq = [waits('a'), waits('a'), waits('b'), run({ mode: 'apply' })];
    const decisions = seq.map((r) =>
      p.decide(r, r.result === 'refused' ? plan(step('bob', 'admin')) : plan(), undefined),
    );
    expect(decisions.map((d) => d?.event ?? '-')).toEqual(['awaiting_approval', '-', 'awaiting_approval', 'recovered']);
    const body = webhookBody(decisions[0]!, { record: seq[0]!, plan: plan(step('bob', 'admin')), report: undefined });
    expect(body).toMatchObject({
      event: 'awaiting_approval',
      title: 'Waiting for approval',
      approval: { checksum: `sha256:${'a'.repeat(64)}` },
    });
    expect(
      slackBody(decisions[0]!, { record: seq[0]!, plan: plan(step('bob', 'admin')), report: undefined }).text,
    ).toContain(`/docops approve sha256:${'a'.repeat(64)}`);
  });

  it('failures, refusals and invalid manifests: once per distinct problem, then recovered', () => {
    const p = new NotifyPolicy();
    const issue = { file: 'a.yaml', line: 3, column: 1, message: 'bad' };
    const seq: RunRecord[] = [
      run({ result: 'invalid_manifests', issues: [issue] }),
      run({ result: 'invalid_manifests', issues: [issue] }),
      run({ result: 'invalid_manifests', issues: [{ ...issue, line: 4 }] }),
      run({ result: 'failed', errorType: 'ApiError', apiStatus: 503 }),
      run({ result: 'failed', errorType: 'ApiError', apiStatus: 503 }),
      run({ result: 'refused', violations: [{ rule: 'deletes', message: 'too many' }] }),
      run({ result: 'refused', violations: [{ rule: 'deletes', message: 'too many' }] }),
      run(),
    ];
    expect(
      seq.map(
        (r) => p.decide(r, r.result === 'refused' ? plan(step('bob', 'admin')) : undefined, undefined)?.event ?? '-',
      ),
    ).toEqual(['manifests_invalid', '-', 'manifests_invalid', 'apply_failed', '-', 'refused', '-', 'recovered']);
  });

  it('apply mode: a reverted drift is closed by its run (no recovered); the same change again is news', () => {
    const p = new NotifyPolicy();
    const bob = plan(step('bob', 'admin'));
    const a = run({ mode: 'apply' });
    expect(
      [p.decide(a, bob, applied(bob)), p.decide(a, plan(), undefined), p.decide(a, bob, applied(bob))].map(
        (d) => d?.event ?? '-',
      ),
    ).toEqual(['drift', '-', 'drift']);
  });

  it('a scoped run finding nothing never recovers; its drift is news only for new steps', () => {
    const p = new NotifyPolicy();
    const scoped = run({ scope: 'scoped' });
    const bob = plan(step('bob', 'admin'));
    expect(p.decide(run(), bob, undefined)?.event).toBe('drift');
    expect(p.decide(scoped, plan(), undefined)).toBeUndefined();
    expect(p.decide(scoped, bob, undefined)).toBeUndefined();
    expect(p.decide(scoped, plan(step('dan', 'admin')), undefined)?.event).toBe('drift');
    expect(p.decide(run(), plan(), undefined)?.event).toBe('recovered');
  });
});
