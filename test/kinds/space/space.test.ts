/** Space kind offline: create (in a live or new collection), update, move, prune, and ids registered for sites. */
import { describe, expect, it } from 'vitest';
import { type Step } from '../../../src/model/plan.js';
import { ref } from '../../../src/model/refs.js';
import { spaceKind } from '../../../src/kinds/space/kind.js';
import { desiredOf, fakeDiffContext, fakeDoc, plan } from '../helpers.js';
import { ORG } from '../seed.js';
import { SPACES } from '../site/fixtures.js';

const routes = () => ({
  [`/orgs/${ORG}/spaces`]: SPACES.map((s) => ({ ...s, editMode: 'live', defaultLevel: null })),
  [`/orgs/${ORG}/collections`]: [
    { object: 'collection', id: 'col-product', title: 'Product docs' },
    { object: 'collection', id: 'col-internal', title: 'Internal' },
  ],
});
const desired = (...specs: Record<string, unknown>[]) =>
  desiredOf(
    spaceKind,
    specs.map((s) => fakeDoc('Space', ORG, s)),
  );
const SEED = [
  { title: 'Getting Started', emoji: '🚀', parent: 'col-product' },
  { title: 'API Reference', emoji: '📘', parent: 'col-product' },
  { title: 'Runbooks', emoji: '🛠', parent: 'col-internal' },
  { title: 'Changelog', emoji: '📝', parent: null },
];
// In the order the diff wrote them (the collection steps they depend on are not part of these plans).
const summary = (steps: Step[]) =>
  steps.map((s) => [
    s.id,
    s.phase,
    s.wave,
    s.dependsOn,
    s.requests.map((r) => `${r.method} ${r.path}${r.body === undefined ? '' : ` ${JSON.stringify(r.body)}`}`),
  ]);

describe('Space diff', () => {
  it('plans nothing when spaces match the seed', async () => {
    const { result } = await plan(spaceKind, ORG, desired(...SEED), routes());
    expect(result).toEqual({ steps: [], unmanaged: [], warnings: [], blocked: [] });
  });

  it('creates a space in a collection created in the same plan, with defaultLevel in the same step, and registers it', async () => {
    const ctx = fakeDiffContext({
      registered: {
        [`Collection|${ORG}|Guides`]: ref('Collection/org-demo/Guides#create'),
        [`Collection|${ORG}|Internal`]: 'col-internal',
      },
    });
    const { result } = await plan(
      spaceKind,
      ORG,
      desired(...SEED, { title: 'Tutorials', emoji: '🎓', parent: 'Guides', editMode: 'locked', defaultLevel: 'read' }),
      routes(),
      ctx,
    );
    expect(summary(result.steps)).toEqual([
      [
        'Space/org-demo/Tutorials#create',
        'create',
        26,
        ['Collection/org-demo/Guides#create'],
        [
          'POST /orgs/org-demo/spaces {"title":"Tutorials","emoji":"🎓","parent":"<<ref:Collection/org-demo/Guides#create.id>>","editMode":"locked"}',
          'PATCH /spaces/<<ref:Space/org-demo/Tutorials#create.id>> {"defaultLevel":"read"}',
        ],
      ],
    ]);
    expect(ctx.registered.get(`Space|${ORG}|Tutorials`)).toBe(ref('Space/org-demo/Tutorials#create'));
    expect(ctx.registered.get(`Space|${ORG}|Runbooks`)).toBe('sp-runbooks');
  });

  it('updates with one PATCH and moves to another collection by title (live titles resolve through the engine)', async () => {
    const ctx = fakeDiffContext({ registered: { [`Collection|${ORG}|Internal`]: 'col-internal' } });
    const [gs, api, rb, cl] = SEED;
    const { result } = await plan(
      spaceKind,
      ORG,
      desired({ ...gs!, emoji: '✨', editMode: 'locked' }, { ...api!, parent: 'Internal' }, rb!, cl!),
      routes(),
      ctx,
    );
    expect(summary(result.steps)).toEqual([
      [
        'Space/org-demo/Getting Started#update',
        'update',
        26,
        [],
        ['PATCH /spaces/sp-getting-started {"emoji":"✨","editMode":"locked"}'],
      ],
      ['Space/org-demo/API Reference#move', 'update', 26, [], ['POST /spaces/sp-api/move {"parent":"col-internal"}']],
    ]);
  });

  it('unmanaged spaces are listed; under prune they are soft-deleted', async () => {
    const off = await plan(spaceKind, ORG, desired(SEED[0]!), routes());
    expect(off.result.unmanaged.map((u) => u.id)).toEqual(['sp-api', 'sp-runbooks', 'sp-changelog']);
    const on = await plan(
      spaceKind,
      ORG,
      desired(...SEED.slice(0, 3)),
      routes(),
      fakeDiffContext({ prune: ['Space'] }),
    );
    expect(summary(on.result.steps)).toEqual([
      ['Space/org-demo/Changelog#delete', 'prune', 26, [], ['DELETE /spaces/sp-changelog']],
    ]);
  });
});
