/**
 * The Site kind's reorder step against the sandbox: sibling reorders (top-level sections and groups, a group's
 * sections, a section's site spaces, root site spaces) are `PATCH …/structure/sort` requests; only a site space
 * that changes section keeps the deprecated `/move`. A section is sorted next to a group, which the `/move`
 * operations could not do (they took a second request then). Each change converges in one apply and the next
 * plan is empty.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/model/api-client.js';
import { applyPlan } from '../../../src/engine/apply.js';
import { computePlan } from '../../../src/engine/reconcile.js';
import { KINDS } from '../../../src/kinds/index.js';
import { loadManifests } from '../../../src/manifests/index.js';
import { sandboxPerTest, type SandboxRun } from '../sandbox-per-test.js';

const start = sandboxPerTest('site-sort');

async function converge(r: SandboxRun, spec: Record<string, unknown>) {
  writeFileSync(
    join(r.dir, 'site.yaml'),
    `apiVersion: docops/v1\nkind: Site\nmetadata: { organization: org-demo }\nspec: ${JSON.stringify(spec)}\n`,
  );
  const { desired } = await loadManifests(r.dir, KINDS, { env: {} });
  const { plan } = await computePlan(r.client, KINDS, desired);
  r.sb.resetStats();
  const report = await applyPlan(r.client, plan);
  expect(report.failed).toEqual([]);
  const writes = r.sb
    .stats()
    .requests.filter((q) => q.method !== 'GET')
    .map((q) => `${q.method} ${q.route.replace('/v1/orgs/:organizationId/sites/:siteId', '~')} ${q.status}`);
  const order = plan.steps.find((s) => s.id.endsWith('#order'));
  const next = (await computePlan(r.client, KINDS, desired)).plan;
  expect(next.steps).toEqual([]);
  return { plan, writes, order };
}

/** Top level as `path` / `[group: paths]`, and each section's site-space paths. */
async function layout(client: ApiClient): Promise<string[]> {
  const sites = await client.listAll<{ id: string }>('/orgs/org-demo/sites');
  const base = `/orgs/org-demo/sites/${sites[0]!.id}`;
  const structure = await client.get<{
    type: string;
    structure: {
      object: string;
      path?: string;
      title?: string;
      children?: { path: string }[];
      siteSpaces?: { path: string }[];
    }[];
  }>(`${base}/structure`);
  if (structure.type === 'siteSpaces') return structure.structure.map((x) => x.path ?? '');
  const sections = await client.listAll<{ path: string; siteSpaces: { path: string }[] }>(`${base}/sections`);
  return [
    ...structure.structure.map((x) =>
      x.object === 'site-section-group'
        ? `[${x.title}: ${(x.children ?? []).map((c) => c.path).join(',')}]`
        : (x.path ?? ''),
    ),
    ...sections.map((s) => `${s.path}: ${s.siteSpaces.map((x) => x.path).join(',')}`),
  ];
}

const section = (path: string, ...spaces: string[]) => ({ path, title: `Section ${path}`, spaces });

describe('Site order through sortSiteStructure', () => {
  it('sorts a section next to a group in one request (the /move operations needed two: sections first, then groups)', async () => {
    const r = await start();
    const groups = [
      { title: 'G1', sections: ['a'] },
      { title: 'G2', sections: ['b'] },
    ];
    await converge(r, {
      title: 'Docs',
      sections: [section('a', 'API Reference'), section('b', 'Runbooks'), section('s1', 'Getting Started')],
      sectionGroups: groups,
    });
    expect(await layout(r.client)).toEqual([
      '[G1: a]',
      '[G2: b]',
      's1',
      'a: api-reference',
      'b: runbooks',
      's1: getting-started',
    ]);

    // G1 and G2 stay; s1 goes between them: next to a group, which only the sort can anchor on.
    const { writes, order } = await converge(r, {
      title: 'Docs',
      sections: [section('a', 'API Reference'), section('s1', 'Getting Started'), section('b', 'Runbooks')],
      sectionGroups: groups,
    });
    expect(writes).toEqual(['PATCH ~/structure/sort 200']);
    expect(order!.requests.map((q) => q.body)).toEqual([
      {
        item: { type: 'site-section', id: expect.any(String) },
        position: { after: { type: 'site-section-group', id: expect.any(String) } },
      },
    ]);
    expect(await layout(r.client)).toEqual([
      '[G1: a]',
      's1',
      '[G2: b]',
      'a: api-reference',
      's1: getting-started',
      'b: runbooks',
    ]);
  });

  it('sorts the sections of a group and the site spaces of a section', async () => {
    const r = await start();
    const spaces = ['Getting Started', 'API Reference', 'Runbooks'];
    await converge(r, {
      title: 'Docs',
      sections: [section('a', ...spaces), section('b', 'Changelog'), section('c', 'Runbooks')],
      sectionGroups: [{ title: 'G', sections: ['b', 'c'] }],
    });
    const { writes } = await converge(r, {
      title: 'Docs',
      sections: [
        section('a', 'Runbooks', 'Getting Started', 'API Reference'),
        section('b', 'Changelog'),
        section('c', 'Runbooks'),
      ],
      sectionGroups: [{ title: 'G', sections: ['c', 'b'] }],
    });
    expect(writes).toEqual(['PATCH ~/structure/sort 200', 'PATCH ~/structure/sort 200']);
    expect(await layout(r.client)).toEqual([
      'a',
      '[G: c,b]',
      'a: runbooks,getting-started,api-reference',
      'c: runbooks',
      'b: changelog',
    ]);
  });

  it('sorts the root site spaces of a site without sections', async () => {
    const r = await start();
    await converge(r, { title: 'Docs', spaces: ['Getting Started', 'API Reference', 'Runbooks'] });
    const { writes } = await converge(r, { title: 'Docs', spaces: ['Runbooks', 'Getting Started', 'API Reference'] });
    expect(writes).toEqual(['PATCH ~/structure/sort 200']);
    expect(await layout(r.client)).toEqual(['runbooks', 'getting-started', 'api-reference']);
  });

  it('a site space that changes section keeps the /move next to a site space of its new section; a reorder inside one is a sort', async () => {
    const r = await start();
    await converge(r, {
      title: 'Docs',
      sections: [section('a', 'Getting Started', 'Changelog'), section('b', 'API Reference', 'Runbooks')],
    });
    const { writes, order } = await converge(r, {
      title: 'Docs',
      sections: [section('a', 'Getting Started'), section('b', 'Runbooks', 'Changelog', 'API Reference')],
    });
    expect(
      order!.requests.map(
        (q) =>
          `${q.method} ${q.path.replace(/^.*\/sites\/[^/]+/, '~').replace(/site-spaces\/[^/]+/, 'site-spaces/:id')}`,
      ),
    ).toEqual(['POST ~/site-spaces/:id/move', 'PATCH ~/structure/sort']);
    expect(writes).toEqual(['POST ~/site-spaces/:siteSpaceId/move 200', 'PATCH ~/structure/sort 200']);
    expect(await layout(r.client)).toEqual(['a', 'b', 'a: getting-started', 'b: runbooks,changelog,api-reference']);
  });
});
