import { ref } from '../../src/model/refs.js';
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/model/errors.js';
import { translationKind } from '../../src/kinds/translation.js';
import { desiredOf, fakeDiffContext, fakeDoc, plan } from './helpers.js';
import { ORG, seedRoutes } from './seed.js';

const desired = (...specs: Record<string, unknown>[]) =>
  desiredOf(
    translationKind,
    specs.map((s) => fakeDoc('Translation', ORG, s)),
  );

describe('Translation', () => {
  it('plans nothing when the title matches', async () => {
    const { result } = await plan(
      translationKind,
      ORG,
      desired({ title: 'French docs', languages: ['fr'] }),
      seedRoutes(),
    );
    expect(result).toEqual({ steps: [], unmanaged: [], warnings: [], blocked: [] });
  });

  it('creates by POST {title}, capturing the id for later kinds', async () => {
    const ctx = fakeDiffContext();
    const { result } = await plan(
      translationKind,
      ORG,
      desired({ title: 'French docs' }, { title: 'German docs' }),
      seedRoutes(),
      ctx,
    );
    expect(result.steps).toEqual([
      {
        id: 'Translation/org-demo/German docs#create',
        action: 'create',
        phase: 'create',
        kind: 'Translation',
        org: ORG,
        key: 'German docs',
        wave: 20,
        before: null,
        after: { title: 'German docs' },
        dependsOn: [],
        requests: [
          {
            method: 'POST',
            path: '/orgs/org-demo/translations',
            body: { title: 'German docs' },
            capture: { id: 'id' },
            recover: { match: [{ field: 'title', body: '/title' }] },
          },
        ],
        source: { file: 'translation.yaml', line: 10, column: 1 },
      },
    ]);
    expect(ctx.resolve('Translation', ORG, 'German docs')).toBe(ref('Translation/org-demo/German docs#create'));
    expect(ctx.resolve('Translation', ORG, 'French docs')).toBe('tr-fr');
  });

  it('renames by pinned id with PUT {title}', async () => {
    const { result } = await plan(translationKind, ORG, desired({ title: 'Français', id: 'tr-fr' }), seedRoutes());
    expect(result.steps.map((s) => [s.id, s.before, s.after, s.requests])).toEqual([
      [
        'Translation/org-demo/Français#update',
        { title: 'French docs' },
        { title: 'Français' },
        [{ method: 'PUT', path: '/orgs/org-demo/translations/tr-fr', body: { title: 'Français' } }],
      ],
    ]);
  });

  it('blocks when the written languages differ (the API cannot change them), rename included', async () => {
    const ctx = fakeDiffContext();
    const { result } = await plan(
      translationKind,
      ORG,
      desired({ title: 'Français', id: 'tr-fr', languages: ['fr', 'de'] }),
      seedRoutes(),
      ctx,
    );
    expect(result.steps).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.blocked).toEqual([
      {
        kind: 'Translation',
        org: ORG,
        key: 'Français',
        message:
          'languages are [fr], the manifest says [fr, de], and the API cannot change them: change them in the app, or write the live ones',
        source: { file: 'translation.yaml', line: 10, column: 2 },
      },
    ]);
    // The translation exists: later kinds still find it.
    expect(ctx.resolve('Translation', ORG, 'Français')).toBe('tr-fr');
  });

  it('blocks a new translation with languages (a new one has none and they cannot be set), registering nothing', async () => {
    const ctx = fakeDiffContext();
    const { result } = await plan(
      translationKind,
      ORG,
      desired({ title: 'German docs', languages: ['de'] }),
      seedRoutes(),
      ctx,
    );
    expect(result.steps).toEqual([]);
    expect(result.blocked.map((b) => b.message)).toEqual([
      'languages cannot be set through the API (a new translation has none): create it in the app with [de] and pin its id, or leave languages out',
    ]);
    expect(ctx.resolve('Translation', ORG, 'German docs')).toBeUndefined();
  });

  it('lists unmanaged translations, and deletes them only under prune', async () => {
    const quiet = await plan(translationKind, ORG, [], seedRoutes());
    expect(quiet.result.unmanaged).toEqual([{ kind: 'Translation', org: ORG, key: 'French docs', id: 'tr-fr' }]);
    expect(quiet.result.steps).toEqual([]);
    const pruned = await plan(translationKind, ORG, [], seedRoutes(), fakeDiffContext({ prune: ['Translation'] }));
    expect(pruned.result.unmanaged).toEqual([]);
    expect(pruned.result.steps.map((s) => [s.id, s.action, s.phase, s.requests])).toEqual([
      [
        'Translation/org-demo/French docs#delete',
        'delete',
        'prune',
        [{ method: 'DELETE', path: '/orgs/org-demo/translations/tr-fr' }],
      ],
    ]);
  });

  it('refuses to guess between two live translations with one title', async () => {
    const routes = seedRoutes();
    (routes[`/orgs/${ORG}/translations`] as unknown[]).push({
      object: 'translation-settings',
      id: 'tr-fr2',
      title: 'French docs',
      languages: [],
    });
    await expect(plan(translationKind, ORG, desired({ title: 'French docs' }), routes)).rejects.toThrow(ConflictError);
  });

  it('makes prune step ids unique when unmanaged titles repeat', async () => {
    const routes = seedRoutes();
    (routes[`/orgs/${ORG}/translations`] as unknown[]).push({
      object: 'translation-settings',
      id: 'tr-fr2',
      title: 'French docs',
      languages: [],
    });
    const { result } = await plan(translationKind, ORG, [], routes, fakeDiffContext({ prune: ['Translation'] }));
    expect(result.steps.map((s) => s.id)).toEqual([
      'Translation/org-demo/French docs (tr-fr)#delete',
      'Translation/org-demo/French docs (tr-fr2)#delete',
    ]);
  });

  it('exports pinned documents that re-diff to zero steps', async () => {
    const { live } = await plan(translationKind, ORG, [], seedRoutes());
    const docs = translationKind.export!(ORG, live) as { spec: Record<string, unknown> }[];
    expect(docs.map((d) => d.spec)).toEqual([{ title: 'French docs', id: 'tr-fr', languages: ['fr'] }]);
    const again = translationKind.diff(
      fakeDiffContext({ prune: ['Translation'] }),
      ORG,
      desired(...docs.map((d) => d.spec)),
      live,
    );
    expect(again).toEqual({ steps: [], unmanaged: [], warnings: [], blocked: [] });
  });
});
