/**
 * Objects of title-or-id kinds that share a title: manifests that pin their ids load, plan with unique step
 * ids (display keys `Title (id)` only where a title is shared) and converge against the sandbox.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/engine/apply.js';
import type { DesiredEntry, KindDefinition, LiveObject } from '../../src/model/kind.js';
import type { Plan } from '../../src/model/plan.js';
import { computePlan } from '../../src/engine/reconcile.js';
import { identityTitle, withDisplayKeys } from '../../src/kinds/match.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';
import { teamMemberKey, teamMembers, teams, type RunningSandbox } from '@docops/sandbox';
import { desiredOf, fakeDiffContext, fakeDoc } from './helpers.js';
import { sandboxPerTest, type SandboxRun } from './sandbox-per-test.js';

const ORG = 'org-demo';
const T0 = '2024-01-01T00:00:00.000Z';
const start = sandboxPerTest('same-title');
const kind = (name: string): KindDefinition => KINDS.find((k) => k.kind === name)!;

/** A second "Platform" team next to the demo's team-platform (ada owner, bob, carol). */
function addSecondPlatform(sb: RunningSandbox): void {
  teams(sb.store).put({ id: 'team-dup', orgId: ORG, title: 'Platform', createdAt: T0 });
  for (const userId of ['u-dan', 'u-erin']) {
    teamMembers(sb.store).put({
      id: teamMemberKey('team-dup', userId),
      orgId: ORG,
      teamId: 'team-dup',
      userId,
      role: 'member',
    });
  }
}

const teamYaml = (title: string, id: string | undefined, members: string[]): string =>
  [
    'apiVersion: docops/v1',
    'kind: Team',
    'metadata:',
    `  organization: ${ORG}`,
    'spec:',
    `  title: ${title}`,
    ...(id === undefined ? [] : [`  id: ${id}`]),
    ...(members.length === 0
      ? []
      : [
          '  members:',
          ...members.map((m) => `    - email: ${m}@acme.test${m === 'ada' ? '\n      role: owner' : ''}`),
        ]),
    '',
  ].join('\n');

function writeTeams(dir: string, docs: string[]): void {
  writeFileSync(join(dir, 'teams.yaml'), docs.join('---\n'));
}

async function planAndApply(run: SandboxRun): Promise<{ plan: Plan; applied: string[]; next: Plan }> {
  const { desired } = await loadManifests(run.dir, KINDS);
  const { plan } = await computePlan(run.client, KINDS, desired);
  const report = await applyPlan(run.client, plan);
  expect(report.failed).toEqual([]);
  const again = await computePlan(run.client, KINDS, desired);
  return { plan, applied: report.applied, next: again.plan };
}

const liveTeams = (sb: RunningSandbox) =>
  Object.fromEntries(
    teams(sb.store)
      .all()
      .filter((t) => t.orgId === ORG)
      .map((t) => [
        t.id,
        {
          title: t.title,
          members: teamMembers(sb.store)
            .all()
            .filter((m) => m.teamId === t.id)
            .map((m) => m.userId)
            .sort(),
        },
      ]),
  );

describe('loader: entries sharing a title', () => {
  it('accepts two pinned entries with one title and rejects the pair when either is unpinned', async () => {
    const run = await start();
    writeTeams(run.dir, [teamYaml('Platform', 'team-platform', []), teamYaml('Platform', 'team-dup', [])]);
    const { desired } = await loadManifests(run.dir, KINDS);
    expect((desired.get('Team') ?? []).map((e) => e.id)).toEqual(['team-platform', 'team-dup']);

    for (const [a, b] of [
      ['team-platform', undefined],
      [undefined, 'team-dup'],
      [undefined, undefined],
    ] as const) {
      writeTeams(run.dir, [teamYaml('Platform', a, []), teamYaml('Platform', b, [])]);
      await expect(loadManifests(run.dir, KINDS)).rejects.toThrow(
        /duplicate Team "Platform" in org-demo, also defined at/,
      );
    }
  });
});

describe('display keys', () => {
  const entry = (kindName: string, title: string, id?: string, org = ORG): DesiredEntry => {
    const spec = { title, ...(id ? { id } : {}) };
    const e: DesiredEntry = {
      kind: kindName,
      org,
      key: title,
      spec,
      source: { file: 'f.yaml', line: 1, column: 1 },
      doc: fakeDoc(kindName, org, spec),
    };
    if (id !== undefined) e.id = id;
    return e;
  };

  it('keeps entries with a unique title as they are and disambiguates pinned entries that share one', () => {
    const unique = entry('Team', 'Writers', 't-w');
    const other = entry('Team', 'Platform', 't-x', 'org-other');
    const a = entry('Team', 'Platform', 't-1');
    const b = entry('Team', 'Platform', 't-2');
    const out = withDisplayKeys([unique, a, other, b]);
    expect(out[0]).toBe(unique);
    expect(out[2]).toBe(other);
    expect(out.map((e) => e.key)).toEqual(['Writers', 'Platform (t-1)', 'Platform', 'Platform (t-2)']);
    expect(out.map(identityTitle)).toEqual(['Writers', 'Platform', 'Platform', 'Platform']);
    expect(a.key).toBe('Platform'); // the loader's entries are not changed
  });

  // Each title-or-id kind: two pinned same-titled entries, two same-titled live objects, one renamed.
  it.each(['Team', 'Translation', 'Collection', 'Space', 'Site'])(
    '%s: steps of same-titled pinned entries get unique ids',
    (name) => {
      const k = kind(name);
      const docs = [
        fakeDoc(name, ORG, { title: 'Shared', id: 'x-1' }),
        fakeDoc(name, ORG, { title: 'Shared', id: 'x-2' }),
        fakeDoc(name, ORG, { title: 'Solo', id: 'x-3' }),
      ];
      const desired = desiredOf(k, docs);
      const live: LiveObject[] = ['x-1', 'x-2', 'x-3'].map((id) => ({
        kind: name,
        org: ORG,
        key: 'Old',
        id,
        fields: { title: 'Old' },
      }));
      const { steps } = k.diff(fakeDiffContext(), ORG, desired, { objects: live });
      const ids = steps.map((s) => s.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(
        expect.arrayContaining([
          `${name}/${ORG}/Shared (x-1)#update`,
          `${name}/${ORG}/Shared (x-2)#update`,
          `${name}/${ORG}/Solo#update`,
        ]),
      );
    },
  );
});

// Each title-or-id kind: an entry pinned to an id that is gone is matched by title, with one warning saying so.
describe('a pinned id that no longer exists', () => {
  it.each(['Team', 'Translation', 'Collection', 'Space', 'Site'])('%s: warns and matches by title', (name) => {
    const k = kind(name);
    const desired = desiredOf(k, [fakeDoc(name, ORG, { title: 'Kept', id: 'x-gone' })]);
    const live: LiveObject[] = [{ kind: name, org: ORG, key: 'Kept', id: 'x-live', fields: { title: 'Kept' } }];
    const { warnings, steps } = k.diff(fakeDiffContext(), ORG, desired, { objects: live });
    expect(warnings).toEqual([
      { kind: name, org: ORG, key: 'Kept', message: 'pinned id x-gone does not exist; matched by title instead' },
    ]);
    expect(steps.filter((s) => s.action === 'create')).toEqual([]);
  });
});

describe('two teams with one title against the sandbox', () => {
  it("renames one and changes the other's members in one apply, then plans no changes", async () => {
    const run = await start();
    addSecondPlatform(run.sb);
    writeTeams(run.dir, [
      teamYaml('Platform', 'team-platform', ['ada', 'bob']),
      teamYaml('Platform Ops', 'team-dup', ['dan', 'erin']),
    ]);
    const { plan, applied, next } = await planAndApply(run);
    expect(applied).toEqual(['Team/org-demo/Platform#members', 'Team/org-demo/Platform Ops#update']);
    expect(plan.steps.map((s) => s.id)).toEqual(applied);
    expect(next.steps).toEqual([]);
    const after = liveTeams(run.sb);
    expect(after['team-platform']).toEqual({ title: 'Platform', members: ['u-ada', 'u-bob'] });
    expect(after['team-dup']).toEqual({ title: 'Platform Ops', members: ['u-dan', 'u-erin'] });
  });

  it('keeps both titles and changes both member lists, with step ids naming the ids', async () => {
    const run = await start();
    addSecondPlatform(run.sb);
    writeTeams(run.dir, [
      teamYaml('Platform', 'team-platform', ['ada', 'carol']),
      teamYaml('Platform', 'team-dup', ['dan', 'ivan']),
      teamYaml('Support', undefined, ['ivan']),
    ]);
    const { plan, applied, next } = await planAndApply(run);
    expect(applied.sort()).toEqual([
      'Team/org-demo/Platform (team-dup)#members',
      'Team/org-demo/Platform (team-platform)#members',
      'Team/org-demo/Support#members',
    ]);
    expect(plan.steps.map((s) => s.key).sort()).toEqual(['Platform (team-dup)', 'Platform (team-platform)', 'Support']);
    expect(next.steps).toEqual([]);
    expect(next.warnings).toEqual([]);
    const after = liveTeams(run.sb);
    expect(after['team-platform']).toEqual({ title: 'Platform', members: ['u-ada', 'u-carol'] });
    expect(after['team-dup']).toEqual({ title: 'Platform', members: ['u-dan', 'u-ivan'] });
  });
});
