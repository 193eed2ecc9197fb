import { sealRequest, ref } from '../../src/model/refs.js';
import type { Plan, Step } from '../../src/model/plan.js';

/** A small plan with one of everything the renderers must show. */
export function samplePlan(): Plan {
  const createTeam: Step = {
    id: 'Team/acme/platform#create',
    action: 'create',
    phase: 'create',
    kind: 'Team',
    org: 'acme',
    key: 'platform',
    wave: 1,
    before: null,
    after: { title: 'Platform' },
    dependsOn: [],
    requests: [{ method: 'POST', path: '/orgs/o1/teams', body: { title: 'Platform' }, capture: { id: 'id' } }],
    source: { file: 'manifests/teams.yaml', line: 4, column: 5 },
  };
  const addMember: Step = {
    id: 'TeamMember/acme/platform/ann@example.com#create',
    action: 'create',
    phase: 'create',
    kind: 'TeamMember',
    org: 'acme',
    key: 'platform/ann@example.com',
    wave: 2,
    before: null,
    after: { team: 'Platform', role: 'member' },
    dependsOn: [createTeam.id],
    requests: [
      sealRequest({ method: 'PUT', path: `/orgs/o1/teams/${ref(createTeam.id)}/members/u1`, body: { role: 'member' } }),
    ],
    note: 'invite by e-mail',
  };
  const renameTeam: Step = {
    id: 'Team/acme/docs#update',
    action: 'update',
    phase: 'update',
    kind: 'Team',
    org: 'acme',
    key: 'docs',
    wave: 1,
    before: { title: 'Docs', description: 'old', labels: ['a'] },
    after: { title: 'Documentation', labels: ['a', 'b'], apiToken: 'should-never-print' },
    dependsOn: [],
    requests: [{ method: 'PATCH', path: '/orgs/o1/teams/t2', body: { title: 'Documentation' } }],
  };
  const pruneTeam: Step = {
    id: 'Team/acme/legacy#delete',
    action: 'delete',
    phase: 'prune',
    kind: 'Team',
    org: 'acme',
    key: 'legacy',
    wave: 1,
    before: { title: 'Legacy' },
    after: null,
    dependsOn: [],
    requests: [{ method: 'DELETE', path: '/orgs/o1/teams/t9' }],
  };
  return {
    formatVersion: 1,
    steps: [createTeam, renameTeam, addMember, pruneTeam],
    unmanaged: [{ kind: 'Space', org: 'acme', key: 'Scratch', id: 's7' }],
    warnings: [
      {
        kind: 'Member',
        org: 'acme',
        key: 'bob@example.com',
        message: 'not in the organization; pass --invite to invite',
      },
    ],
    blocked: [],
  };
}

/** A plan of n steps over a few kinds, with long-ish values, for size limits. */
export function hugePlan(n: number): Plan {
  const kinds = ['Team', 'Space', 'Member', 'Collection'];
  const steps: Step[] = Array.from({ length: n }, (_, i) => {
    const kind = kinds[i % kinds.length]!;
    const action = (['create', 'update', 'delete'] as const)[i % 3]!;
    return {
      id: `${kind}/acme/item-${i}#${action}`,
      action,
      phase: action,
      kind,
      org: 'acme',
      key: `item-${i}`,
      wave: 1,
      before: action === 'create' ? null : { title: `Old title ${i}`, description: 'x'.repeat(40) },
      after: action === 'delete' ? null : { title: `New title ${i}`, description: 'y'.repeat(40) },
      dependsOn: [],
      requests: [],
    };
  });
  return { formatVersion: 1, steps, unmanaged: [], warnings: [], blocked: [] };
}
