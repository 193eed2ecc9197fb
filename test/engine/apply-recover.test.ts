/**
 * Apply after failures that leave open whether a write happened (ApiError.effect), and when the API is gone
 * (ApiError.unreachable): creates are looked up by identity instead of being re-sent blindly, a DELETE whose
 * earlier attempt may have deleted is done, and an unreachable API stops apply after the steps in flight.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient, ApiResponse } from '../../src/model/api-client.js';
import { applyPlan, type ApplyEvent } from '../../src/engine/apply.js';
import { ApiError, type RequestEffect } from '../../src/model/errors.js';
import { orderSteps } from '../../src/engine/order.js';
import { emptyPlan, type HttpMethod, type Plan, type Step } from '../../src/model/plan.js';
import { ref } from '../../src/model/refs.js';
import { renderJson } from '../../src/render/json.js';
import { parsePlanJson } from '../../src/plan-file/read-plan.js';
import { planJsonProblems } from '../helpers/plan-json.js';
import { step } from './helpers.js';

const planOf = (steps: Step[]): Plan => ({ ...emptyPlan(), steps: orderSteps(steps) });

interface Call {
  method: HttpMethod;
  path: string;
  body: unknown;
  idempotent: boolean | undefined;
}

/**
 * A fake API: `answer` decides each write (return a body, or throw); `lists` are what GETs of lists return, read
 * at the time of the GET (so a create that "happened" before failing can be listed).
 */
function fakeApi(
  answer: (c: Call, n: number) => unknown | Promise<unknown>,
  lists: Record<string, unknown[]> = {},
): ApiClient & { calls: Call[]; reads: string[] } {
  const calls: Call[] = [];
  const reads: string[] = [];
  return {
    baseUrl: 'memory://',
    calls,
    reads,
    async request<T>(
      method: HttpMethod,
      path: string,
      options: { body?: unknown; idempotent?: boolean } = {},
    ): Promise<ApiResponse<T>> {
      await new Promise((r) => setImmediate(r));
      const c = { method, path, body: options.body, idempotent: options.idempotent };
      calls.push(c);
      return {
        status: 200,
        body: (await answer(c, calls.filter((x) => x.method === method && x.path === path).length)) as T,
        headers: {},
      };
    },
    async get<T>(): Promise<T> {
      throw new Error('not used');
    },
    async *paginate<T>(): AsyncIterable<T> {},
    async listAll<T>(path: string): Promise<T[]> {
      reads.push(path);
      const l = lists[path];
      if (!l) throw new ApiError('GET', path, 404, 'no such list', { effect: 'none' });
      return structuredClone(l) as T[];
    },
    async close() {},
  };
}

const ambiguous = (c: Call, effect: RequestEffect = 'maybe', status: number | undefined = 503): ApiError =>
  new ApiError(c.method, c.path, status, 'upstream unavailable', { effect });

const TEAMS = '/orgs/o1/teams';
const byTitle = { match: [{ field: 'title', body: '/title' }] };

function teamSteps(): Step[] {
  return [
    step({
      id: 'team',
      kind: 'Team',
      key: 'Platform',
      wave: 20,
      requests: [{ method: 'PUT', path: TEAMS, body: { title: 'Platform' }, capture: { id: 'id' }, recover: byTitle }],
    }),
    step({
      id: 'members',
      wave: 21,
      dependsOn: ['team'],
      requests: [{ method: 'PUT', path: `${TEAMS}/${ref('team')}/members`, body: { add: ['a@x'] } }],
    }),
  ];
}

describe('a create that may have reached the server', () => {
  it('is not sent again when the list shows it: its id comes from the listed item and the step goes on', async () => {
    const teams: unknown[] = [{ id: 't-old', title: 'Other' }];
    const api = fakeApi(
      (c) => {
        if (c.path === TEAMS) {
          teams.push({ id: 't-9', title: 'Platform' }); // processed, then the connection broke
          throw ambiguous(c);
        }
        return undefined;
      },
      { [TEAMS]: teams },
    );
    const events: ApplyEvent[] = [];
    const report = await applyPlan(api, planOf(teamSteps()), { onStep: (e) => events.push(e) });
    expect(report.failed).toEqual([]);
    expect(report.outputs['team']).toEqual({ id: 't-9' });
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`PUT ${TEAMS}`, `PUT ${TEAMS}/t-9/members`]);
    expect(api.calls[0]!.idempotent).toBe(false);
    expect(api.reads).toEqual([TEAMS]);
    expect(events.filter((e) => e.type === 'recovered')).toMatchObject([
      { type: 'recovered', request: `PUT ${TEAMS}`, outcome: 'found' },
    ]);
  });

  it('is sent again when the list does not show it (it failed before processing)', async () => {
    const teams: unknown[] = [];
    const api = fakeApi(
      (c, n) => {
        if (c.path !== TEAMS) return undefined;
        if (n === 1) throw ambiguous(c);
        teams.push({ id: 't-2', title: 'Platform' });
        return { id: 't-2', title: 'Platform' };
      },
      { [TEAMS]: teams },
    );
    const report = await applyPlan(api, planOf(teamSteps()));
    expect(report.failed).toEqual([]);
    expect(api.calls.filter((c) => c.path === TEAMS)).toHaveLength(2);
    expect(report.outputs['team']).toEqual({ id: 't-2' });
  });

  it('never guesses: several listed matches fail the step, naming them, and nothing is re-sent', async () => {
    const api = fakeApi(
      (c) => {
        throw ambiguous(c);
      },
      {
        [TEAMS]: [
          { id: 't-a', title: 'Platform' },
          { id: 't-b', title: 'Platform' },
        ],
      },
    );
    const report = await applyPlan(api, planOf(teamSteps()));
    expect(report.failed.map((f) => f.stepId)).toEqual(['team']);
    expect(report.failed[0]!.message).toMatch(/2 listed objects match what it creates \(t-a, t-b\): not guessing/);
    expect(report.skipped).toEqual(['members']);
    expect(api.calls).toHaveLength(1);
  });

  it('ignores live objects the plan excluded (they had the identity when the plan was made)', async () => {
    const teams: unknown[] = [{ id: 't-pinned', title: 'Platform' }];
    const api = fakeApi(
      (c, n) => {
        if (c.path !== TEAMS) return undefined;
        if (n === 1) throw ambiguous(c);
        return { id: 't-new' };
      },
      { [TEAMS]: teams },
    );
    const steps = teamSteps();
    steps[0] = step({
      ...steps[0]!,
      requests: [{ ...steps[0]!.requests[0]!, recover: { ...byTitle, exclude: ['t-pinned'] } }],
    });
    const report = await applyPlan(api, planOf(steps));
    expect(report.outputs['team']).toEqual({ id: 't-new' });
  });

  it('after a timeout (pending) an unlisted create is not re-sent: the server may still be working on it', async () => {
    const api = fakeApi(
      (c) => {
        throw ambiguous(c, 'pending', undefined);
      },
      { [TEAMS]: [] },
    );
    const report = await applyPlan(api, planOf(teamSteps()));
    expect(report.failed[0]!.message).toMatch(/may still process it, so it was not sent again/);
    expect(api.calls).toHaveLength(1);
  });

  it('a failure that provably did nothing (a 4xx) is not looked up; one without `recover` fails as before', async () => {
    const refused = fakeApi(
      (c) => {
        throw new ApiError(c.method, c.path, 400, 'bad title', { effect: 'none' });
      },
      { [TEAMS]: [] },
    );
    expect((await applyPlan(refused, planOf(teamSteps()))).failed[0]!.message).toMatch(/bad title/);
    expect(refused.reads).toEqual([]);

    const plain = fakeApi(
      (c) => {
        throw ambiguous(c);
      },
      { [TEAMS]: [{ id: 't-9', title: 'Platform' }] },
    );
    const report = await applyPlan(
      plain,
      planOf([
        step({
          id: 'x',
          requests: [{ method: 'POST', path: TEAMS, body: { title: 'Platform' }, capture: { id: 'id' } }],
        }),
      ]),
    );
    expect(report.failed).toHaveLength(1);
    expect(plain.reads).toEqual([]);
  });

  it('a batch create (invites) re-sends only the elements whose object is not listed, matching e-mails case-insensitively', async () => {
    const members: unknown[] = [{ id: 'u-a', user: { email: 'A@x.test' } }];
    const api = fakeApi(
      (c, n) => {
        if (n === 1) {
          members.push({ id: 'u-b', user: { email: 'b@x.test' } }); // half of the batch went through
          throw ambiguous(c);
        }
        return { users: ['u-c'] };
      },
      { '/orgs/o1/members': members },
    );
    const recover = {
      path: '/orgs/o1/members',
      each: '/emails',
      match: [{ field: 'user.email', body: '/email', ignoreCase: true }],
    };
    const body = {
      emails: [
        { email: 'a@x.test', role: 'read' },
        { email: 'b@x.test', role: 'read' },
        { email: 'c@x.test', role: null },
      ],
      sso: false,
    };
    const report = await applyPlan(
      api,
      planOf([step({ id: 'invite', requests: [{ method: 'POST', path: '/orgs/o1/invites', body, recover }] })]),
    );
    expect(report.failed).toEqual([]);
    expect(api.calls.map((c) => c.body)).toEqual([body, { emails: [{ email: 'c@x.test', role: null }], sso: false }]);
  });

  it('a batch create whose every element is listed is done without sending it again', async () => {
    const api = fakeApi(
      (c) => {
        throw ambiguous(c);
      },
      { '/orgs/o1/members': [{ id: 'u-a', user: { email: 'a@x.test' } }] },
    );
    const recover = {
      path: '/orgs/o1/members',
      each: '/emails',
      match: [{ field: 'user.email', body: '/email', ignoreCase: true }],
    };
    const report = await applyPlan(
      api,
      planOf([
        step({
          id: 'invite',
          requests: [{ method: 'POST', path: '/orgs/o1/invites', body: { emails: [{ email: 'a@x.test' }] }, recover }],
        }),
      ]),
    );
    expect(report.applied).toEqual(['invite']);
    expect(api.calls).toHaveLength(1);
  });

  it('a batch over several arrays (a grant to teams and users) looks each up in its own list below the path, and re-sends only what is missing', async () => {
    const base = '/spaces/sp-1/permissions';
    const teams: unknown[] = [{ permission: 'read', team: { id: 't-2' } }];
    const users: unknown[] = [];
    const api = fakeApi(
      (c, n) => {
        if (n === 1) {
          teams.push({ permission: 'edit', team: { id: 't-1' } }); // the teams went through, the users did not
          throw ambiguous(c);
        }
        return undefined;
      },
      { [`${base}/teams`]: teams, [`${base}/users`]: users },
    );
    const recover = (['team', 'user'] as const).map((p) => ({
      suffix: `/${p}s`,
      each: `/${p}s`,
      match: [
        { field: `${p}.id`, body: '' },
        { field: 'permission', value: 'edit' },
      ],
    }));
    const body = { role: 'edit', teams: ['t-1', 't-2'], users: ['u-1'] };
    const events: ApplyEvent[] = [];
    const report = await applyPlan(
      api,
      planOf([step({ id: 'grant', requests: [{ method: 'POST', path: base, body, recover }] })]),
      { onStep: (e) => events.push(e) },
    );
    expect(report.failed).toEqual([]);
    expect(api.reads.sort()).toEqual([`${base}/teams`, `${base}/users`]);
    // t-2 holds another role: not what this POST grants, so it is sent again; t-1 is left out.
    expect(api.calls.map((c) => c.body)).toEqual([body, { role: 'edit', teams: ['t-2'], users: ['u-1'] }]);
    expect(events.filter((e) => e.type === 'recovered').map((e) => (e as { outcome: string }).outcome)).toEqual([
      'partly found',
    ]);
  });

  it('a batch over several arrays leaves an array whose elements are all found out of the re-sent body', async () => {
    const base = '/orgs/o1/sites/s-1/permissions';
    const api = fakeApi(
      (c, n) => {
        if (n === 1) throw ambiguous(c);
        return undefined;
      },
      { [`${base}/teams`]: [{ permission: null, team: { id: 't-1' } }], [`${base}/users`]: [] },
    );
    const recover = (['team', 'user'] as const).map((p) => ({
      suffix: `/${p}s`,
      each: `/${p}s`,
      match: [
        { field: `${p}.id`, body: '' },
        { field: 'permission', value: null },
      ],
    }));
    const report = await applyPlan(
      api,
      planOf([
        step({
          id: 'grant',
          requests: [{ method: 'POST', path: base, body: { role: null, teams: ['t-1'], users: ['u-1'] }, recover }],
        }),
      ]),
    );
    expect(report.failed).toEqual([]);
    expect(api.calls.map((c) => c.body)).toEqual([
      { role: null, teams: ['t-1'], users: ['u-1'] },
      { role: null, users: ['u-1'] },
    ]);
  });

  it('tells the client which requests it may send again: creates never, a request the plan marks idempotent like a PUT', async () => {
    const api = fakeApi(() => ({ id: 'x' }));
    await applyPlan(
      api,
      planOf([
        step({
          id: 'create',
          requests: [{ method: 'POST', path: TEAMS, body: { title: 'T' }, capture: { id: 'id' } }],
        }),
        step({
          id: 'move',
          requests: [{ method: 'POST', path: '/collections/c1/move', body: { parent: 'c2' }, idempotent: true }],
        }),
        step({ id: 'plain', requests: [{ method: 'POST', path: '/orgs/o1/other', body: {} }] }),
      ]),
    );
    expect(Object.fromEntries(api.calls.map((c) => [c.path, c.idempotent]))).toEqual({
      [TEAMS]: false,
      '/collections/c1/move': true,
      '/orgs/o1/other': undefined,
    });
  });

  it("a `not` condition matches a listed item whose field differs from the plan's value (a spec written since the plan read it)", async () => {
    const specs: unknown[] = [{ id: 'oas-1', slug: 'pets', updatedAt: 'T1' }];
    const recover = {
      path: '/orgs/o1/openapi',
      match: [
        { field: 'slug', value: 'pets' },
        { field: 'updatedAt', value: 'T1', not: true as const },
      ],
    };
    const put = (): Step =>
      step({
        id: 'put',
        requests: [{ method: 'PUT', path: '/orgs/o1/openapi/pets', body: { source: { text: 'x' } }, recover }],
      });
    // Not processed: the spec is as the plan read it, so the PUT is sent again.
    const again = fakeApi(
      (c, n) => {
        if (n === 1) throw ambiguous(c);
        return {};
      },
      { '/orgs/o1/openapi': specs },
    );
    expect((await applyPlan(again, planOf([put()]))).failed).toEqual([]);
    expect(again.calls).toHaveLength(2);
    // Processed: its updatedAt moved on, so it is found and not sent again.
    const found = fakeApi(
      (c) => {
        specs[0] = { id: 'oas-1', slug: 'pets', updatedAt: 'T2' };
        throw ambiguous(c);
      },
      { '/orgs/o1/openapi': specs },
    );
    expect((await applyPlan(found, planOf([put()]))).failed).toEqual([]);
    expect(found.calls).toHaveLength(1);
    expect(found.calls[0]?.idempotent).toBe(false);
  });

  it('matches ref-filled body values and absent ones (a root site space has no section)', async () => {
    const base = '/orgs/o1/sites/s-1/site-spaces';
    const items = [
      { id: 'ss-in-section', section: 'sec-1', space: { id: 'sp-1' } },
      { id: 'ss-root', space: { id: 'sp-1' } },
    ];
    const api = fakeApi(
      (c) => {
        if (c.path === base) throw ambiguous(c);
        return { id: 'sp-1' };
      },
      { [base]: items },
    );
    const recover = {
      match: [
        { field: 'space.id', body: '/spaceId' },
        { field: 'section', body: '/sectionId' },
      ],
    };
    const report = await applyPlan(
      api,
      planOf([
        step({ id: 'space', requests: [{ method: 'POST', path: '/orgs/o1/spaces', body: {}, capture: { id: 'id' } }] }),
        step({
          id: 'root',
          wave: 1,
          dependsOn: ['space'],
          requests: [{ method: 'POST', path: base, body: { spaceId: ref('space') }, capture: { id: 'id' }, recover }],
        }),
      ]),
    );
    expect(report.outputs['root']).toEqual({ id: 'ss-root' });
  });
});

describe('a DELETE retried after an attempt that may have deleted', () => {
  it('is done when the retry answers 404; a 404 on a first attempt still fails', async () => {
    const api = fakeApi((c) => {
      throw new ApiError(c.method, c.path, 404, 'not found', { effect: c.path === '/t/1' ? 'maybe' : 'none' });
    });
    const del = (id: string): Step =>
      step({ id, phase: 'prune', action: 'delete', requests: [{ method: 'DELETE', path: `/t/${id}` }] });
    const report = await applyPlan(api, planOf([del('1'), del('2')]));
    expect(report.applied).toEqual(['1']);
    expect(report.failed.map((f) => f.stepId)).toEqual(['2']);
  });
});

describe('when the API becomes unreachable', () => {
  const unreachable = (c: Call): ApiError =>
    new ApiError(c.method, c.path, undefined, 'connect ECONNREFUSED (after 6 attempts)', {
      effect: 'none',
      unreachable: true,
    });

  it('finishes the steps in flight, then skips every step not started with the reason, and says so', async () => {
    // s0, s1, s2 are in flight when the API goes away: s2 shows it first; s0 was answered, s1 finishes failing.
    let wentAway!: () => void;
    const gone = new Promise<void>((resolve) => (wentAway = resolve));
    const api = fakeApi(async (c) => {
      if (c.path === '/p/0') return gone.then(() => ({}));
      if (c.path === '/p/1') {
        await gone;
        throw unreachable(c);
      }
      wentAway();
      throw unreachable(c);
    });
    const group = Array.from({ length: 6 }, (_, i) =>
      step({ id: `s${i}`, key: `k${i}`, requests: [{ method: 'POST', path: `/p/${i}` }] }),
    );
    const later = step({
      id: 'later',
      wave: 1,
      phase: 'update',
      action: 'update',
      requests: [{ method: 'PATCH', path: '/later' }],
    });
    const report = await applyPlan(api, planOf([...group, later]), { concurrency: 3 });
    expect(report.unreachable).toMatch(/ECONNREFUSED/);
    expect(report.applied).toEqual(['s0']);
    expect(report.failed.map((f) => f.stepId).sort()).toEqual(['s1', 's2']);
    expect(report.skipped.sort()).toEqual(['later', 's3', 's4', 's5']);
    for (const id of report.skipped) expect(report.skipReasons[id]).toBe('API unreachable');
    expect(api.calls.map((c) => c.path)).toEqual(['/p/0', '/p/1', '/p/2']);
  });

  it('also when the lookup after an ambiguous create finds the API gone', async () => {
    const api = fakeApi((c) => {
      throw ambiguous(c);
    });
    api.listAll = async <T>(path: string): Promise<T[]> => {
      throw new ApiError('GET', path, undefined, 'connect ECONNREFUSED (after 6 attempts)', {
        effect: 'none',
        unreachable: true,
      });
    };
    const report = await applyPlan(
      api,
      planOf([...teamSteps(), step({ id: 'other', wave: 30, requests: [{ method: 'POST', path: '/x' }] })]),
    );
    expect(report.failed[0]!.message).toMatch(
      /may have been processed, and looking for what it creates failed: GET \/orgs\/o1\/teams failed: connect ECONNREFUSED/,
    );
    expect(report.unreachable).toBeDefined();
    expect(report.skipped.sort()).toEqual(['members', 'other']);
    expect(report.skipReasons['other']).toBe('API unreachable');
  });
});

describe('objects left half-created', () => {
  it('a create whose follow-up request fails is reported with its id, what was not set and what did not run', async () => {
    const SITES = '/orgs/o1/sites';
    const api = fakeApi((c) => {
      if (c.method === 'POST' && c.path === SITES) return { id: 'site-12' };
      if (c.method === 'PATCH') throw new ApiError('PATCH', c.path, 400, 'basename is taken', { effect: 'none' });
      return { id: 'x' };
    });
    const site = step({
      id: 'site',
      kind: 'Site',
      key: 'Acme Help Center',
      requests: [
        { method: 'POST', path: SITES, body: { title: 'Acme Help Center' }, capture: { id: 'id' } },
        { method: 'PATCH', path: `${SITES}/${ref('site')}`, body: { basename: 'help', proxy: null } },
      ],
    });
    const sections = ['a', 'b', 'c'].map((p) =>
      step({
        id: `sec-${p}`,
        kind: 'SiteSection',
        wave: 1,
        dependsOn: ['site'],
        requests: [{ method: 'POST', path: `${SITES}/${ref('site')}/sections`, body: {}, capture: { id: 'id' } }],
      }),
    );
    const report = await applyPlan(api, planOf([site, ...sections]));
    expect(report.failed.map((f) => f.stepId)).toEqual(['site']);
    expect(report.outputs['site']).toEqual({ id: 'site-12' });
    expect(report.incomplete).toHaveLength(1);
    const [x] = report.incomplete;
    expect(x).toMatchObject({
      stepId: 'site',
      kind: 'Site',
      key: 'Acme Help Center',
      id: 'site-12',
      notSet: ['basename', 'proxy'],
    });
    expect(x!.failedRequest).toEqual({
      request: 'PATCH /orgs/o1/sites/site-12',
      message: 'PATCH /orgs/o1/sites/site-12 failed with 400: basename is taken',
    });
    expect(x!.summary).toBe(
      'Site Acme Help Center was created (id site-12), but its PATCH /orgs/o1/sites/site-12 failed with 400: basename is taken; ' +
        'left behind: the Site without basename, proxy set; not done because of it: 3 SiteSection create (not attempted). The next plan completes it, or you can delete it.',
    );
  });

  it('a create that completed but whose dependent steps failed is reported too; a complete one is not', async () => {
    const api = fakeApi((c) => {
      if (c.path.endsWith('/members')) throw new ApiError('PUT', c.path, 400, 'unknown user', { effect: 'none' });
      return { id: 't-1' };
    });
    const report = await applyPlan(
      api,
      planOf([
        ...teamSteps(),
        step({
          id: 'ok',
          kind: 'Team',
          requests: [{ method: 'PUT', path: TEAMS, body: { title: 'Fine' }, capture: { id: 'id' } }],
        }),
      ]),
    );
    expect(report.incomplete.map((x) => x.stepId)).toEqual(['team']);
    expect(report.incomplete[0]!.summary).toBe(
      'Team Platform was created (id t-1), but steps that depend on it did not complete: members (failed); left behind: the Team without them. The next plan completes it, or you can delete it.',
    );
  });
});

describe('the JSON plan', () => {
  it('round-trips recover and refuses a malformed one', () => {
    const plan = planOf([
      step({
        id: 'invite',
        requests: [
          {
            method: 'POST',
            path: '/orgs/o1/invites',
            body: { emails: [] },
            recover: {
              path: '/orgs/o1/members',
              each: '/emails',
              exclude: ['u-1'],
              match: [
                { field: 'user.email', body: '/email', ignoreCase: true },
                { field: 'x', value: null },
              ],
            },
          },
        ],
      }),
    ]);
    const text = renderJson(plan);
    expect(parsePlanJson(text)).toStrictEqual(JSON.parse(JSON.stringify(plan)));
    const bad = JSON.parse(text) as { steps: { requests: { recover: Record<string, unknown> }[] }[] };
    bad.steps[0]!.requests[0]!.recover = {
      match: [{ field: 'title' }, { field: 1, body: '/a', value: 'b' }],
      extra: true,
    };
    const message = planJsonProblems(bad);
    expect(message).toContain('requests[0].recover.extra: unknown field');
    expect(message).toContain('requests[0].recover.match[0]: expected exactly one of body and value');
    expect(message).toContain('requests[0].recover.match[1].field: expected a string');
    expect(message).toContain('requests[0].recover.match[1]: expected exactly one of body and value');
  });

  it('round-trips several RecoverSpecs, a suffix and idempotent, and refuses several without each', () => {
    const recover = [
      {
        suffix: '/teams',
        each: '/teams',
        match: [
          { field: 'team.id', body: '' },
          { field: 'permission', value: 'read' },
        ],
      },
      {
        suffix: '/users',
        each: '/users',
        match: [
          { field: 'user.id', body: '' },
          { field: 'permission', value: 'read' },
        ],
      },
    ];
    const plan = planOf([
      step({
        id: 'grant',
        requests: [
          {
            method: 'POST',
            path: '/spaces/s1/permissions',
            body: { role: 'read', teams: ['t'], users: ['u'] },
            recover,
          },
        ],
      }),
      step({
        id: 'move',
        requests: [{ method: 'POST', path: '/spaces/s1/move', body: { parent: 'c' }, idempotent: true }],
      }),
    ]);
    const text = renderJson(plan);
    expect(parsePlanJson(text)).toStrictEqual(JSON.parse(JSON.stringify(plan)));
    const bad = JSON.parse(text) as { steps: { requests: Record<string, unknown>[] }[] };
    bad.steps[0]!.requests[0]!['recover'] = [
      { match: [{ field: 'title', body: '/title' }] },
      { suffix: 'teams', each: '/teams', match: [] },
    ];
    bad.steps[1]!.requests[0]!['idempotent'] = false;
    bad.steps[1]!.requests[0]!['recover'] = { match: [{ field: 'updatedAt', value: 'T', not: false }] };
    const message = planJsonProblems(bad);
    expect(message).toContain('recover[0].each: required when a request has several RecoverSpecs');
    expect(message).toContain('recover[1].suffix: expected a string starting with /');
    expect(message).toContain('requests[0].idempotent: expected true');
    expect(message).toContain('recover.match[0].not: expected true');
  });
});
