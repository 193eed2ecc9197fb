/**
 * A run that failed because objects are blocked (a reference that names nothing, an organization the API does not
 * know): the notification says which, where the manifest writes each, and why — not only how many (issue 34).
 */
import { describe, expect, it } from 'vitest';
import { emptyPlan } from '../../../src/model/plan.js';
import type { RunRecord } from '../../../src/daemon/run.js';
import { NotifyPolicy } from '../../../src/daemon/notify/policy.js';
import { slackBody, webhookBody } from '../../../src/daemon/notify/message.js';

const WHY = 'organization "org-bnech" was not found: the API answers 404 for it';

describe('a notification of blocked objects', () => {
  it('lists each blocked object with its place and reason, in the webhook body and on Slack', () => {
    const record: RunRecord = {
      id: 1,
      reasons: ['start'],
      result: 'failed',
      mode: 'apply',
      startedAt: '',
      durationMs: 1,
      error: '1 manifest object(s) blocked: the plan cannot reach them',
    };
    const plan = {
      ...emptyPlan(),
      blocked: [
        {
          kind: 'Team',
          org: 'org-bnech',
          key: 'Platform',
          message: WHY,
          source: { file: 'teams.yaml', line: 4, column: 17 },
        },
      ],
    };
    const decision = new NotifyPolicy().decide(record, plan, undefined)!;
    expect(decision.event).toBe('apply_failed');
    expect(webhookBody(decision, { record, plan, report: undefined })).toMatchObject({
      error: record.error,
      blocked: [{ kind: 'Team', org: 'org-bnech', key: 'Platform', message: WHY, source: 'teams.yaml:4:17' }],
    });
    expect(slackBody(decision, { record, plan, report: undefined }).text).toContain(
      `• blocked Team org-bnech/Platform: \`teams.yaml:4:17\` ${WHY}`,
    );
  });
});
