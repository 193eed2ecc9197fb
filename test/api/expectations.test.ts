/**
 * Lists that answer late (src/api/expectations.ts): docops's own writes are remembered and a list that does not
 * show them yet is answered as it will be — a create added, a delete left out, an update as written — until the
 * list shows them, or until twice the lag the lists are known to have has passed (then the list is right). What is
 * read off a write is the API's own: its paths, its answers, `urls.location`, the typed objects a create made.
 */
import { describe, expect, it } from 'vitest';
import { Expectations } from '../../src/api/expectations.js';

const BASE = 'https://api.test/v1';
const space = (id: string, title: string, extra: Record<string, unknown> = {}) => ({
  object: 'space',
  id,
  title,
  urls: { location: `${BASE}/spaces/${id}` },
  ...extra,
});
const titles = (items: unknown[]): string[] => items.map((i) => (i as { title: string }).title);

function world(lagMs = 5_000) {
  let now = 1_000_000;
  const e = new Expectations(lagMs, () => now, BASE);
  return { e, at: () => now, pass: (ms: number) => void (now += ms) };
}

describe('expectations: what a list shows of docops’s own writes', () => {
  it('a create not listed yet is added; once listed, the expectation is settled', () => {
    const { e, at, pass } = world();
    e.wrote('PUT', '/orgs/o/teams', { title: 'Ops' }, { object: 'team', id: 't9', title: 'Ops' }, at());
    pass(100);
    expect(titles(e.overlay('/orgs/o/teams', [{ id: 't1', title: 'Docs' }], at()))).toEqual(['Docs', 'Ops']);
    expect(e.size).toBe(1);
    expect(e.lagMs()).toBe(5_000);
    const listed = [
      { id: 't1', title: 'Docs' },
      { id: 't9', title: 'Ops' },
    ];
    expect(e.overlay('/orgs/o/teams', listed, at())).toEqual(listed);
    expect(e.size).toBe(0);
  });

  it('a delete still listed is left out; an update listed with old values is shown as written', () => {
    const { e, at } = world();
    e.wrote('DELETE', '/orgs/o/teams/t1', undefined, undefined, at());
    e.wrote('PATCH', '/orgs/o/teams/t2', { title: 'New' }, { id: 't2', title: 'New', extra: 1 }, at());
    const stale = [
      { id: 't1', title: 'Gone' },
      { id: 't2', title: 'Old', kept: true },
    ];
    expect(e.overlay('/orgs/o/teams', stale, at())).toEqual([{ id: 't2', title: 'New', kept: true, extra: 1 }]);
    // A query (a filter) is answered as it is: the overlay cannot tell what it would match.
    expect(e.size).toBe(2);
  });

  it('objects are found in the lists they were seen in (urls.location): a write to /spaces/s1 shows in the org list', () => {
    const { e, at } = world();
    e.overlay('/orgs/o/spaces', [space('s1', 'Guide'), space('s2', 'Old notes')], at());
    e.wrote('PATCH', '/spaces/s1', { emoji: '🗺' }, space('s1', 'Guide', { emoji: '🗺' }), at());
    e.wrote('POST', '/spaces/s1/move', { parent: 'c2' }, space('s1', 'Guide', { emoji: '🗺', parent: 'c2' }), at());
    e.wrote('DELETE', '/spaces/s2', undefined, undefined, at());
    expect(e.overlay('/orgs/o/spaces', [space('s1', 'Guide'), space('s2', 'Old notes')], at())).toEqual([
      space('s1', 'Guide', { emoji: '🗺', parent: 'c2' }),
    ]);
    // A space created in this very process is found there too when it is written again.
    e.wrote('POST', '/orgs/o/spaces', { title: 'New' }, space('s3', 'New'), at());
    e.wrote('PATCH', '/spaces/s3', { title: 'Newer' }, space('s3', 'Newer'), at());
    expect(titles(e.overlay('/orgs/o/spaces', [space('s1', 'Guide', { emoji: '🗺', parent: 'c2' })], at()))).toEqual([
      'Guide',
      'Newer',
    ]);
  });

  it('what a create made on the way (a section’s site spaces) is expected in the list of its type', () => {
    const { e, at } = world();
    const base = '/orgs/o/sites/x';
    e.overlay(`${base}/site-spaces`, [{ object: 'site-space', id: 'ss1', section: 'sec1' }], at());
    const made = { object: 'site-space', id: 'ss2', section: 'sec2' };
    e.wrote(
      'POST',
      `${base}/sections`,
      { path: 'new' },
      { object: 'site-section', id: 'sec2', siteSpaces: [made] },
      at(),
    );
    expect(e.overlay(`${base}/site-spaces`, [{ object: 'site-space', id: 'ss1', section: 'sec1' }], at())).toEqual([
      { object: 'site-space', id: 'ss1', section: 'sec1' },
      made,
    ]);
  });

  it('a grant (no id of its own, it wraps its team) is named by the team’s id', () => {
    const { e, at } = world();
    e.wrote('DELETE', '/spaces/s1/permissions/teams/t1', undefined, undefined, at());
    const listed = [
      { permission: 'read', team: { id: 't1' } },
      { permission: 'edit', team: { id: 't2' } },
    ];
    expect(e.overlay('/spaces/s1/permissions/teams', listed, at())).toEqual([listed[1]]);
  });

  it('after twice the lag the list is right again: a change someone else made since is never hidden longer', () => {
    const { e, at, pass } = world(1_000);
    e.wrote('PATCH', '/orgs/o/teams/t2', { title: 'Mine' }, { id: 't2', title: 'Mine' }, at());
    pass(1_500);
    expect(titles(e.overlay('/orgs/o/teams', [{ id: 't2', title: 'Theirs' }], at()))).toEqual(['Mine']);
    pass(600);
    expect(titles(e.overlay('/orgs/o/teams', [{ id: 't2', title: 'Theirs' }], at()))).toEqual(['Theirs']);
    expect(e.size).toBe(0);
  });

  it('learns a longer lag from a list seen further behind, and keeps it with what it expects (a file)', () => {
    const { e, at, pass } = world(1_000);
    e.wrote('PUT', '/orgs/o/teams', { title: 'Ops' }, { id: 't9', title: 'Ops' }, at());
    pass(1_800); // not listed 1.8 s later: the lists lag at least that
    e.overlay('/orgs/o/teams', [], at());
    expect(e.lagMs()).toBe(1_800);
    const kept = JSON.parse(JSON.stringify(e.toJSON()));
    const again = new Expectations(1_000, at, BASE);
    again.load(kept);
    expect(again.lagMs()).toBe(1_800);
    expect(titles(again.overlay('/orgs/o/teams', [], at()))).toEqual(['Ops']);
    // A malformed file is ignored, never trusted.
    const other = new Expectations(1_000, at, BASE);
    other.load({ version: 1, lagMs: 'x', expectations: [{ list: 1 }, { list: '/l', id: 'a', present: true }] });
    expect(other.size).toBe(0);
  });

  it('someone else’s change of an object (its audit event) ends what docops expected of it at once', () => {
    const { e, at } = world();
    e.wrote('PATCH', '/orgs/o/teams/t2', { title: 'Mine' }, { id: 't2', title: 'Mine' }, at());
    e.forget('t2');
    expect(titles(e.overlay('/orgs/o/teams', [{ id: 't2', title: 'Theirs' }], at()))).toEqual(['Theirs']);
  });
});
