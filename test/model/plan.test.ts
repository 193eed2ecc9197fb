import { describe, expect, it } from 'vitest';
import { pathSegments } from '../../src/model/plan.js';
import { step } from '../engine/helpers.js';

describe('pathSegments', () => {
  const s = step({
    id: 's',
    requests: [
      { method: 'PATCH', path: '/orgs/o1/teams/t%201' },
      { method: 'DELETE', path: '/orgs/o1/members/u%zz' },
    ],
  });

  it('decodes the segments of every request path, keeping undecodable ones as written', () => {
    expect([...pathSegments(s)]).toEqual(['', 'orgs', 'o1', 'teams', 't 1', 'members', 'u%zz']);
  });

  it('can look at some methods only', () => {
    const del = pathSegments(s, ['DELETE']);
    expect(del.has('u%zz')).toBe(true);
    expect(del.has('t 1')).toBe(false);
  });
});
