/**
 * The site-space sequence of the reorder step, offline: the order of moves when section defaults must change
 * first, a cycle of swapped paths parked on a free path, and the path no sequence can free (an error); plus
 * the manifest check that two site spaces of one container are never written with one path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Layout, inSection } from '../../../src/kinds/site/layout.js';
import type { LiveSiteSpace, SiteStructure } from '../../../src/kinds/site/model.js';
import { planMoves } from '../../../src/kinds/site/moves.js';
import type { PathPlan } from '../../../src/kinds/site/paths.js';
import { sequenceSiteSpaces, type Action } from '../../../src/kinds/site/sequence.js';
import { siteKind } from '../../../src/kinds/site/kind.js';
import { fakeDoc, reports } from '../helpers.js';
import { ORG } from '../seed.js';

const ss = (id: string, section: string, path: string, isDefault = false): LiveSiteSpace => ({
  id,
  spaceId: `sp-${id}`,
  spaceTitle: id,
  section,
  path,
  condition: null,
  default: isDefault,
  hidden: false,
  draft: false,
});
const section = (id: string) => ({
  id,
  path: id,
  title: id,
  icon: null,
  description: null,
  condition: null,
  group: null,
  default: false,
  draft: false,
  localizedTitle: null,
  localizedDescription: null,
});
const S1 = inSection('s1');
const S2 = inSection('s2');

function layoutOf(items: LiveSiteSpace[]): Layout {
  const live: SiteStructure = { sections: [section('s1'), section('s2')], groups: [], siteSpaces: items };
  return Layout.fromLive(live);
}

const show = (actions: Action[]): string[] =>
  actions.map((a) =>
    a.type === 'move'
      ? `move ${a.move.item} ${a.move.position} ${a.move.anchor}`
      : a.type === 'default'
        ? `default ${a.container} ${a.item}`
        : `path ${a.item} ${a.from} → ${a.path}`,
  );

describe('site-space sequence', () => {
  it('with nothing to wait on, each section gets exactly the fewest moves planMoves gives (any orders)', () => {
    const orders = fc.integer({ min: 1, max: 7 }).chain((n) => {
      const ids = [...Array(n).keys()].map((i) => `x${i}`);
      return fc.record({
        live: fc.shuffledSubarray(ids, { minLength: n, maxLength: n }),
        desired: fc.shuffledSubarray(ids, { minLength: n, maxLength: n }),
      });
    });
    fc.assert(
      fc.property(orders, orders, (one, two) => {
        const items = [
          ...one.live.map((id, i) => ss(`a${id}`, 's1', `a${id}`, i === 0)),
          ...two.live.map((id, i) => ss(`b${id}`, 's2', `b${id}`, i === 0)),
        ];
        const layout = layoutOf(items);
        const desired = new Map([
          [S1, one.desired.map((id) => `a${id}`)],
          [S2, two.desired.map((id) => `b${id}`)],
        ]);
        const seq = sequenceSiteSpaces({
          layout,
          desired,
          defaults: new Map([
            [S1, `a${one.live[0]}`],
            [S2, `b${two.live[0]}`],
          ]),
          lateDefaults: new Set(),
          paths: new Map(),
          doomed: new Set(),
          floating: new Set(),
          name: (id) => id,
        });
        const expected = [...desired].flatMap(([c, list]) => planMoves(layout.slots(c), list)!);
        expect('actions' in seq && seq.actions.map((a) => (a.type === 'move' ? a.move : a))).toEqual(expected);
      }),
    );
  });

  it('a section whose site spaces all arrive makes the first arrival its default, then its old default may leave', () => {
    const items = [ss('a', 's1', 'a', true), ss('b', 's2', 'b', true), ss('c', 's2', 'c')];
    const seq = sequenceSiteSpaces({
      layout: layoutOf(items),
      desired: new Map([
        [S1, ['c']],
        [S2, ['b', 'a']],
      ]),
      defaults: new Map([
        [S1, 'a'],
        [S2, 'b'],
      ]),
      lateDefaults: new Set([S1]),
      paths: new Map(items.map((x) => [x.id, { now: x.path }])),
      doomed: new Set(),
      floating: new Set(),
      name: (id) => id,
    });
    expect('actions' in seq && show(seq.actions)).toEqual(['move c after a', `default ${S1} c`, 'move a after b']);
  });

  it('without the late default the same moves wait on each other: an error, never a partial sequence', () => {
    const items = [ss('a', 's1', 'a', true), ss('b', 's2', 'b', true)];
    const seq = sequenceSiteSpaces({
      layout: layoutOf(items),
      desired: new Map([
        [S1, ['b']],
        [S2, ['a']],
      ]),
      defaults: new Map([
        [S1, 'a'],
        [S2, 'b'],
      ]),
      lateDefaults: new Set(),
      paths: new Map(items.map((x) => [x.id, { now: x.path }])),
      doomed: new Set(),
      floating: new Set(),
      name: (id) => id,
    });
    expect(seq).toEqual({
      error: 'cannot bring b, a into place: each move waits on a section default that cannot change first',
    });
  });

  it('three site spaces rotating their paths: one is parked, then each takes the freed path', () => {
    const items = [ss('a', 's1', 'one', true), ss('b', 's1', 'two'), ss('c', 's1', 'three')];
    const paths = new Map<string, PathPlan>([
      ['a', { now: 'one', want: 'two' }],
      ['b', { now: 'two', want: 'three' }],
      ['c', { now: 'three', want: 'one' }],
    ]);
    const seq = sequenceSiteSpaces({
      layout: layoutOf(items),
      desired: new Map([[S1, ['a', 'b', 'c']]]),
      defaults: new Map([[S1, 'a']]),
      lateDefaults: new Set(),
      paths,
      doomed: new Set(),
      floating: new Set(),
      name: (id) => id,
    });
    expect('actions' in seq && show(seq.actions)).toEqual([
      'path a one → one-swap',
      'path c three → one',
      'path b two → three',
      'path a one-swap → two',
    ]);
  });

  it('a path held by a site space that stays and is not desired is an error naming both, at the written path', () => {
    const items = [ss('a', 's1', 'one', true), ss('z', 's1', 'two')];
    const seq = sequenceSiteSpaces({
      layout: layoutOf(items),
      desired: new Map([[S1, ['a']]]),
      defaults: new Map([[S1, 'a']]),
      lateDefaults: new Set(),
      paths: new Map<string, PathPlan>([
        ['a', { now: 'one', want: 'two', at: ['spec', 'sections', 0, 'spaces', 0, 'path'] }],
        ['z', { now: 'two' }],
      ]),
      doomed: new Set(),
      floating: new Set(),
      name: (id) => `site space ${id}`,
    });
    expect(seq).toEqual({
      error:
        'path "two" of site space a is used by site space z, which the manifest does not list there and which stays (prune is off): write another path, list that site space, or turn prune on',
      at: ['spec', 'sections', 0, 'spaces', 0, 'path'],
    });
    // The same holder deleted later by this plan is parked instead.
    const doomed = sequenceSiteSpaces({
      layout: layoutOf(items),
      desired: new Map([[S1, ['a']]]),
      defaults: new Map([[S1, 'a']]),
      lateDefaults: new Set(),
      paths: new Map<string, PathPlan>([
        ['a', { now: 'one', want: 'two' }],
        ['z', { now: 'two' }],
      ]),
      doomed: new Set(['z']),
      floating: new Set(),
      name: (id) => id,
    });
    expect('actions' in doomed && show(doomed.actions)).toEqual(['path z two → two-swap', 'path a one → two']);
  });
});

describe('Site manifest: paths of site spaces', () => {
  it('two site spaces of one section (or of the root) written with one path is a validation error at the second', () => {
    const r = reports();
    siteKind.toDesired(
      fakeDoc('Site', ORG, {
        title: 'Acme Help Center',
        sections: [
          {
            path: 'guides',
            spaces: [
              { space: 'Getting Started', path: 'start' },
              { space: 'Changelog', path: 'start' },
            ],
          },
          { path: 'api', spaces: [{ space: 'API Reference', path: 'start' }] },
        ],
      }),
      r.report,
    );
    expect(r.list.map((x) => `${x.pos.line}:${x.pos.column} ${x.message}`)).toEqual([
      '11:6 site-space path "start" in section "guides" is listed twice',
    ]);
  });
});
