/**
 * A Space's `parent` naming a live collection by title in an organization without Collection manifests: the
 * space is moved there (it used to be "parent not found; parent not managed", i.e. drift reported as no
 * changes). Two live collections with that title block the space instead of guessing.
 */
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import { computePlan } from '../../../src/engine/reconcile.js';
import { KINDS } from '../../../src/kinds/index.js';
import { spaceKind } from '../../../src/kinds/space/kind.js';
import { desiredOf, fakeDoc, plan } from '../helpers.js';
import { sandboxPerTest } from '../sandbox-per-test.js';
import { ORG } from '../seed.js';
import { SPACES } from '../site/fixtures.js';

const start = sandboxPerTest('space-parent');
const desired = (...specs: Record<string, unknown>[]) =>
  desiredOf(
    spaceKind,
    specs.map((s) => fakeDoc('Space', ORG, s)),
  );
const routes = (collections: { id: string; title: string }[]) => ({
  [`/orgs/${ORG}/spaces`]: SPACES.map((s) => ({ ...s, editMode: 'live', defaultLevel: null })),
  [`/orgs/${ORG}/collections`]: collections.map((c) => ({ object: 'collection', ...c })),
});

describe('Space parent naming a live collection by title', () => {
  it('moves the space there, with no Collection manifest anywhere', async () => {
    const { result } = await plan(
      spaceKind,
      ORG,
      desired({ title: 'Getting Started', parent: 'Internal' }),
      routes([
        { id: 'col-product', title: 'Product docs' },
        { id: 'col-internal', title: 'Internal' },
      ]),
    );
    expect(result.warnings).toEqual([]);
    expect(result.blocked).toEqual([]);
    expect(
      result.steps.map((s) => [s.id, s.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body)}`)]),
    ).toEqual([
      ['Space/org-demo/Getting Started#move', ['POST /spaces/sp-getting-started/move {"parent":"col-internal"}']],
    ]);
  });

  it('a new space is created in it', async () => {
    const { result } = await plan(
      spaceKind,
      ORG,
      desired({ title: 'Playbooks', parent: 'Internal' }),
      routes([{ id: 'col-internal', title: 'Internal' }]),
    );
    expect(result.steps.map((s) => s.requests[0]!.body)).toEqual([{ title: 'Playbooks', parent: 'col-internal' }]);
  });

  it('two live collections with the title: the space is blocked at its parent, nothing is guessed', async () => {
    const { result } = await plan(
      spaceKind,
      ORG,
      desired({ title: 'Getting Started', parent: 'Internal' }, { title: 'Playbooks', parent: 'Internal' }),
      routes([
        { id: 'col-a', title: 'Internal' },
        { id: 'col-b', title: 'Internal' },
      ]),
    );
    expect(result.steps).toEqual([]);
    expect(
      result.blocked.map((b) => [b.key, `${b.source?.file}:${b.source?.line}:${b.source?.column}`, b.message]),
    ).toEqual([
      [
        'Getting Started',
        'space.yaml:10:2',
        'parent "Internal" names 2 live collections (col-a, col-b); write the id of the one you mean',
      ],
      [
        'Playbooks',
        'space.yaml:10:2',
        'parent "Internal" names 2 live collections (col-a, col-b); write the id of the one you mean',
      ],
    ]);
  });

  it('against the sandbox: one apply moves the space, the next plan is empty', async () => {
    const r = await start();
    const state = new Map([['Space', desired({ title: 'Getting Started', parent: 'Internal' })]]);
    const { plan: first } = await computePlan(r.client, KINDS, state);
    expect(first.steps.map((s) => s.id)).toEqual(['Space/org-demo/Getting Started#move']);
    const report = await applyPlan(r.client, first);
    expect(report.failed).toEqual([]);
    const space = await r.client.get<{ parent?: string }>('/spaces/sp-getting-started');
    expect(space.parent).toBe('col-internal');
    const next = (await computePlan(r.client, KINDS, state)).plan;
    expect(next.steps).toEqual([]);
    expect(next.warnings).toEqual([]);
    expect(next.blocked).toEqual([]);
  });
});
