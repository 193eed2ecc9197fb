/**
 * Who caused the drift: changes made "behind docops's back" with a second sandbox token are named in the plan
 * (text, markdown, JSON) with their actor and time, from one bounded read of the audit events after the diff;
 * a plan without drift reads none; a token that may not read them gets one line saying so and the plan goes on.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { attributeDrift, MAX_PAGES } from '../../src/audit/attribute.js';
import { defaultTargets, matchEvents, type AuditEvent } from '../../src/audit/match.js';
import type { KindDefinition } from '../../src/model/kind.js';
import { emptyPlan, type Step } from '../../src/model/plan.js';
import { computePlan } from '../../src/engine/reconcile.js';
import { KINDS } from '../../src/kinds/index.js';
import { parsePlanJson } from '../../src/plan-file/read-plan.js';
import { renderJson, renderMarkdown, renderText } from '../../src/render/index.js';
import { driftSentence } from '../../src/render/attribution.js';
import { sandbox, request, type Json } from '../sandbox/helpers.js';
import { loadDesired, tempDir } from '../helpers/pipeline.js';
import { CAROL, membersYaml, teamYaml, writeManifests } from './fixtures.js';

const AUDIT_ROUTE = '/v1/orgs/:organizationId/audit-events';

async function setup(readToken?: string) {
  const { sb, call } = await sandbox({ actorTokens: [CAROL], ...(readToken ? { readToken } : {}) });
  const dir = tempDir('attr');
  writeManifests(dir, {
    'members.yaml': membersYaml(),
    'team.yaml': teamYaml('Support', ['frank@acme.test', 'ivan@acme.test']),
  });
  const client = (token = sb.token) =>
    createClient({ baseUrl: sb.url, token, concurrency: 4, retry: { maxRetries: 0 } });
  return { sb, call, dir, client };
}

async function plan(c: Awaited<ReturnType<typeof setup>>, token?: string) {
  const client = c.client(token);
  const { plan } = await computePlan(client, KINDS, await loadDesired(c.dir));
  return { client, plan };
}

describe('drift attribution', () => {
  it('names who changed a member role and who deleted a team, in text, markdown and JSON', async () => {
    const c = await setup();
    expect((await plan(c)).plan.steps).toEqual([]);
    expect(
      (await c.call('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' }, { token: CAROL.token })).status,
    ).toBe(200);
    expect(
      (await c.call('DELETE', '/orgs/org-demo/teams/team-support', undefined, { token: CAROL.token })).status,
    ).toBe(204);

    const { client, plan: raw } = await plan(c);
    expect(raw.steps.map((s) => `${s.kind}:${s.action}`).sort()).toEqual(['Members:update', 'Team:create']);
    const annotated = await attributeDrift(client, raw, KINDS);
    // The diff's plan is not touched: attribution is a new plan with the annotation.
    expect(raw.attribution).toBeUndefined();
    const byStep = Object.fromEntries(
      annotated.attribution!.changes.map((ch) => [annotated.steps.find((s) => s.id === ch.step)!.kind, ch]),
    );
    expect(byStep.Members).toMatchObject({ actor: 'carol@acme.test', action: 'member.updated' });
    expect(byStep.Team).toMatchObject({ actor: 'carol@acme.test', action: 'team.deleted' });
    expect(annotated.attribution!.unavailable).toBeUndefined();

    const members = annotated.steps.find((s) => s.kind === 'Members')!;
    expect(driftSentence(members, byStep.Members)).toMatch(
      /^Members role of bob@acme\.test changed to admin by carol@acme\.test at \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );
    expect(renderText(annotated)).toMatch(/changed by carol@acme\.test at .* \(member\.updated\)/);
    expect(renderText(annotated)).toMatch(/changed by carol@acme\.test at .* \(team\.deleted\)/);
    expect(renderMarkdown(annotated)).toMatch(/changed by carol@acme\.test at .* \(member\.updated\)/);
    const json = renderJson(annotated);
    expect(JSON.parse(json).attribution.changes).toHaveLength(2);
    expect(parsePlanJson(json)).toEqual(JSON.parse(json));
  });

  it('reads the audit events only when there is drift, at most MAX_PAGES pages', async () => {
    const c = await setup();
    const clean = await plan(c);
    c.sb.resetStats();
    expect(await attributeDrift(clean.client, clean.plan, KINDS)).toBe(clean.plan);
    expect(c.sb.stats().requests.filter((r) => r.route === AUDIT_ROUTE)).toEqual([]);

    // 700 unrelated writes, then the drift is far down the list: the read stops at MAX_PAGES pages of 100.
    for (let i = 0; i < 700; i++)
      await c.call('PATCH', '/orgs/org-demo/members/u-dan', { role: i % 2 === 0 ? 'edit' : 'review' });
    await c.call('PATCH', '/orgs/org-demo/members/u-dan', { role: 'review' });
    const drifted = await plan(c);
    expect(drifted.plan.steps).toEqual([]);
    await c.call('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' }, { token: CAROL.token });
    const again = await plan(c);
    c.sb.resetStats();
    const annotated = await attributeDrift(again.client, again.plan, KINDS);
    expect(annotated.attribution!.changes.map((ch) => ch.actor)).toEqual(['carol@acme.test']);
    // The newest event matched on the first page: one read.
    expect(c.sb.stats().requests.filter((r) => r.route === AUDIT_ROUTE)).toHaveLength(1);

    // An object nobody touched recently: the read gives up after MAX_PAGES pages instead of reading everything.
    const step: Step = {
      ...again.plan.steps[0]!,
      id: 'Members/org-demo/x#update',
      requests: [{ method: 'PATCH', path: '/orgs/org-demo/members/u-judy', body: { role: 'admin' } }],
    };
    c.sb.resetStats();
    const none = await attributeDrift(again.client, { ...emptyPlan(), steps: [step] }, KINDS);
    expect(none.attribution!.changes).toEqual([]);
    expect(c.sb.stats().requests.filter((r) => r.route === AUDIT_ROUTE)).toHaveLength(MAX_PAGES);
  });

  it('says in one line when the audit events cannot be read (403) and keeps the plan', async () => {
    const c = await setup('read-token-0123456789');
    await c.call('PATCH', '/orgs/org-demo/members/u-bob', { role: 'admin' }, { token: CAROL.token });
    const { client, plan: raw } = await plan(c, 'read-token-0123456789');
    const annotated = await attributeDrift(client, raw, KINDS);
    expect(annotated.steps).toEqual(raw.steps);
    expect(annotated.attribution).toEqual({
      changes: [],
      unavailable: expect.stringMatching(/^audit events could not be read \(org-demo: HTTP 403/),
    });
    const text = renderText(annotated);
    expect(text.split('\n').filter((l) => l.startsWith('Who changed it: unknown'))).toHaveLength(1);
    expect(renderMarkdown(annotated)).toContain('Who changed it: unknown');
    expect(JSON.parse(renderJson(annotated)).attribution.unavailable).toMatch(/HTTP 403/);
  });

  it('matches by the kind’s auditTargets when it declares them, else by the step’s request paths', () => {
    const step: Step = {
      id: 'T/o/a#update',
      action: 'update',
      phase: 'update',
      kind: 'T',
      org: 'o',
      key: 'a',
      wave: 0,
      before: { x: 1 },
      after: { x: 2 },
      dependsOn: [],
      requests: [{ method: 'PATCH', path: '/orgs/o/things/t%2F1' }],
    };
    expect(defaultTargets(step)).toEqual([{ type: 'thing', id: 't/1' }]);
    const event = (id: string, actor: string, type = 'thing'): AuditEvent => ({
      occurredAt: '2026-01-01T10:02:00Z',
      action: `${type}.updated`,
      actor: { type: 'user', id: actor, label: `${actor}@acme.test` },
      target: { type, id },
    });
    const events = [event('t/2', 'zed'), event('t/1', 'carol'), event('t/1', 'bob')];
    const plain = { kind: 'T' } as Pick<KindDefinition, 'kind'>;
    expect(matchEvents([step], events, [plain as KindDefinition]).map((c) => c.actor)).toEqual(['carol@acme.test']);
    const custom: Pick<KindDefinition, 'kind' | 'auditTargets'> = {
      kind: 'T',
      auditTargets: () => [{ type: 'widget', id: 'w9' }],
    };
    expect(
      matchEvents([step], [...events, event('w9', 'wes', 'widget')], [custom as KindDefinition]).map((c) => c.actor),
    ).toEqual(['wes@acme.test']);
  });

  it('a title that looks like markup or a ref is only data in the event and the plan', async () => {
    const c = await setup();
    const title = '<script>alert(1)</script> <<ref:Team/org-demo/x#create.id>>';
    writeManifests(c.dir, { 'evil.yaml': teamYaml(title, ['bob@acme.test']) });
    const first = await plan(c);
    const created = await request(c.sb, 'PUT', '/orgs/org-demo/teams', { title, members: ['u-bob'] });
    expect(created.status).toBe(201);
    expect(
      (await c.call('DELETE', `/orgs/org-demo/teams/${(created.body as Json).id}`, undefined, { token: CAROL.token }))
        .status,
    ).toBe(204);
    const { client, plan: raw } = await plan(c);
    expect(raw.steps.filter((s) => s.key === title)).toHaveLength(
      first.plan.steps.filter((s) => s.key === title).length,
    );
    const annotated = await attributeDrift(client, raw, KINDS);
    const createStep = annotated.steps.find((s) => s.key === title && s.action === 'create')!;
    expect(annotated.attribution!.changes.find((ch) => ch.step === createStep.id)).toMatchObject({
      actor: 'carol@acme.test',
      action: 'team.deleted',
    });
  });
});
