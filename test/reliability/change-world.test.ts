/**
 * The change world (change-world.ts) is what issue 33's fault tests plan: without faults its plan creates,
 * changes and deletes objects of every kind, and one apply converges.
 */
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import { planOnce } from '../helpers/pipeline.js';
import { startChangeWorld } from './change-world.js';
import { duplicateIdentities } from './every-kind-world.js';

describe('the change world', () => {
  it('plans creates, updates and deletes of every kind, and one apply without faults converges', async () => {
    const w = await startChangeWorld();
    try {
      const plan = await planOnce(w.client, w.desired, w.options);
      const kindsOf = (action: string): string[] =>
        [...new Set(plan.steps.filter((s) => s.action === action).map((s) => s.kind))].sort();
      const manifestKinds = ['Collection', 'Members', 'OpenAPISpec', 'SamlProvider', 'Site', 'Space', 'Team'];
      expect(kindsOf('create')).toEqual(
        expect.arrayContaining([...manifestKinds, 'Translation', 'SiteSection', 'SiteShareLink']),
      );
      expect(kindsOf('update')).toEqual(
        expect.arrayContaining([...manifestKinds, 'Organization', 'CollectionAccess', 'SpaceAccess', 'SiteAccess']),
      );
      expect(kindsOf('delete')).toEqual(
        expect.arrayContaining([
          ...manifestKinds.filter((k) => k !== 'Members'),
          'Translation',
          'CollectionAccess',
          'SiteSection',
          'SiteSectionGroup',
          'SiteShareLink',
          'SiteSpace',
        ]),
      );
      const report = await applyPlan(w.client, plan, { concurrency: 8 });
      expect(report.failed).toEqual([]);
      const next = await planOnce(w.client, w.desired, w.options);
      expect(next.steps.map((s) => s.id)).toEqual([]);
      expect(duplicateIdentities(w.sandbox.store)).toEqual([]);
    } finally {
      await w.close();
    }
  }, 60_000);
});
