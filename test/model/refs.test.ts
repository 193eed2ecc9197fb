import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { DocopsError } from '../../src/model/errors.js';
import { pathSegment, sealRequest, isRef, placeholder, ref, refsIn, resolveRequest } from '../../src/model/refs.js';
import { parsePlanJson } from '../../src/plan-file/read-plan.js';
import { renderJson } from '../../src/render/index.js';
import { seg } from '../../src/kinds/common.js';
import { step } from '../engine/helpers.js';

const TEAM = 'Team/o1/Platform#create';
const lookup = (stepId: string, output: string): string => `${stepId}=>${output}`;

describe('refs are recorded places, never text', () => {
  it('sealing turns each ref into a placeholder and records where it sits', () => {
    const sealed = sealRequest({
      method: 'PUT',
      path: `/orgs/o1/teams/${ref(TEAM)}/members`,
      body: { add: [ref('Members/o1/invite#create', 'users')], role: 'owner' },
    });
    expect(sealed.path).toBe(`/orgs/o1/teams/${placeholder(TEAM, 'id')}/members`);
    expect(sealed.body).toEqual({ add: [placeholder('Members/o1/invite#create', 'users')], role: 'owner' });
    expect(sealed.refs).toEqual([
      { at: 'path', offset: 15, step: TEAM, output: 'id' },
      { at: 'body', pointer: '/add/0', step: 'Members/o1/invite#create', output: 'users' },
    ]);
    expect(refsIn([sealed]).map((r) => r.stepId)).toEqual([TEAM, 'Members/o1/invite#create']);
  });

  it('text a user wrote that reads exactly like a ref is neither a ref nor substituted', () => {
    const looksLikeOne = placeholder(TEAM, 'id');
    expect(isRef(looksLikeOne)).toBe(false);
    expect(refsIn(looksLikeOne)).toEqual([]);
    const sealed = sealRequest({
      method: 'POST',
      path: '/orgs/o1/teams',
      body: { title: looksLikeOne, parent: ref(TEAM) },
    });
    expect(sealed.refs).toEqual([{ at: 'body', pointer: '/parent', step: TEAM, output: 'id' }]);
    // The title and the ref's placeholder are the same text; only the recorded place is filled in.
    expect(resolveRequest(sealed, lookup).body).toEqual({ title: looksLikeOne, parent: `${TEAM}=>id` });
  });

  it('a saved plan is applied exactly: slots survive the JSON form, and an edited placeholder is refused', () => {
    const s = step({
      id: 'members',
      dependsOn: [],
      requests: [
        { method: 'PUT', path: `/orgs/o1/teams/${ref('team')}/members`, body: { title: placeholder('team', 'id') } },
      ],
    });
    const plan = {
      formatVersion: 1 as const,
      steps: [step({ id: 'team' }), { ...s, dependsOn: ['team'] }],
      unmanaged: [],
      warnings: [],
      blocked: [],
    };
    const back = parsePlanJson(renderJson(plan));
    const req = back.steps[1]!.requests[0]!;
    expect(resolveRequest(req, lookup)).toEqual({
      path: '/orgs/o1/teams/team%3D%3Eid/members',
      body: { title: placeholder('team', 'id') },
    });
    const edited = { ...req, path: req.path.replace('<<ref:team.id>>', '<<ref:tean.id>>') };
    expect(() => resolveRequest(edited, lookup)).toThrow(/has no <<ref:team\.id>> at 15/);
  });

  it('a ref inside other text or in an object key is a kind bug, caught when the step is made', () => {
    expect(() => sealRequest({ method: 'PATCH', path: '/x', body: { note: `team ${ref(TEAM)}` } })).toThrow(
      /whole body value/,
    );
    expect(() => sealRequest({ method: 'PATCH', path: '/x', body: { [ref(TEAM)]: 1 } })).toThrow(/object key/);
    expect(() => sealRequest({ method: 'PATCH', path: `/x/a${ref(TEAM)}` })).toThrow(/whole path segment/);
    expect(() => step({ id: 's', after: { team: ref(TEAM) } })).toThrow(/ref in its after/);
  });
});

describe('ids in request paths', () => {
  it('are encoded as one segment, and empty, "." or ".." (even encoded) are refused', () => {
    expect(pathSegment('a/b')).toBe('a%2Fb');
    expect(pathSegment('a%2Fb')).toBe('a%252Fb');
    expect(seg('org-demo')).toBe('org-demo');
    for (const bad of ['', '.', '..', '%2e%2E', '.%2e']) expect(() => pathSegment(bad)).toThrow(DocopsError);
  });

  it('a captured id is checked and encoded when it fills a path slot', () => {
    const sealed = sealRequest({ method: 'DELETE', path: `/spaces/${ref(TEAM)}` });
    expect(resolveRequest(sealed, () => '../orgs/x').path).toBe('/spaces/..%2Forgs%2Fx');
    expect(() => resolveRequest(sealed, () => '..')).toThrow(/cannot be used in a request path/);
  });

  it('the client refuses a path that would leave its resource, before anything is sent', async () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:9/v1', token: 't', retry: { maxRetries: 0 } });
    try {
      for (const path of ['/orgs/../members', '/orgs/%2E%2e/members', '/orgs//members', '/orgs/./x']) {
        await expect(client.request('GET', path)).rejects.toThrow(/a path segment is empty, "\." or "\.\."/);
      }
    } finally {
      await client.close();
    }
  });
});
