/**
 * Access lists through the CLI against the sandbox, across the lifecycle of the objects and teams they name:
 * - a team or an e-mail that names nothing blocks its document loudly (exit 1, the position, nothing of it
 *   planned) instead of planning around it;
 * - a pruned team takes its grants along: its delete step lists the grants this plan read as cascades (the
 *   sandbox then holds none of that team's grants, also where no manifest manages them);
 * - undo of a prune that deleted collections and a site (and soft-deleted the spaces inside) brings every grant
 *   back: restored spaces keep theirs, recreated collections and sites get theirs from their access lists; the
 *   original manifests then plan no changes.
 */
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collections, spaces, teams } from '@docops/sandbox';
import { grants } from '../../packages/sandbox/src/permission-records.js';
import { sites } from '../../packages/sandbox/src/site-records.js';
import type { SandboxStore } from '../../packages/sandbox/src/store.js';
import { doc, liveCli, manifestsOf, tempDir, type LiveCli } from '../cli/safety-cli-helpers.js';

const ORG = 'org-demo';

/** A new team, a new collection holding a new space, two live spaces and a new site, each with an access list. */
const SETUP: Record<string, string> = {
  'teams.yaml': doc('Team', '  title: Docs\n  members: [{ email: bob@acme.test }]\n'),
  'handbook.yaml': [
    doc(
      'Collection',
      '  title: Handbook\n  access:\n    - { team: Docs, role: admin }\n    - { email: carol@acme.test, role: read }\n',
    ),
    doc(
      'Space',
      '  title: Onboarding\n  parent: Handbook\n  access:\n    - { team: Docs, role: edit }\n    - { team: Writers, role: edit }\n',
    ),
  ].join('---\n'),
  'spaces.yaml': [
    doc(
      'Space',
      '  title: API Reference\n  access:\n    - { team: Platform, role: admin }\n    - { team: Support, role: read }\n',
    ),
    doc('Space', '  title: Getting Started\n  access:\n    - { team: Support, role: comment }\n'),
  ].join('---\n'),
  'site.yaml': doc(
    'Site',
    '  title: Help Center\n  spaces: [Onboarding]\n  access:\n    - { team: Support, role: read }\n    - { email: erin@acme.test, role: null }\n',
  ),
};

/** The sandbox's grants as `<type>:<object title>/<team title | user id>=<role>`, sorted. */
function stored(store: SandboxStore): string[] {
  const title = (type: string, id: string): string =>
    (type === 'space'
      ? spaces(store).get(id)?.title
      : type === 'collection'
        ? collections(store).get(id)?.title
        : sites(store).get(id)?.title) ?? id;
  return grants(store)
    .all()
    .map(
      (g) =>
        `${g.targetType}:${title(g.targetType, g.targetId)}/${g.principalType === 'team' ? (teams(store).get(g.principalId)?.title ?? g.principalId) : g.principalId}=${g.role}`,
    )
    .sort();
}

const GRANTED = [
  'collection:Handbook/Docs=admin',
  'collection:Handbook/u-carol=read',
  'site:Help Center/Support=read',
  'site:Help Center/u-erin=null',
  'space:API Reference/Platform=admin',
  'space:API Reference/Support=read',
  'space:Getting Started/Support=comment',
  'space:Onboarding/Docs=edit',
  'space:Onboarding/Writers=edit',
];

async function setUp(): Promise<{ cli: LiveCli; setup: string }> {
  const cli = await liveCli();
  const setup = await manifestsOf(SETUP);
  const applied = await cli.run(['apply', '-m', setup]);
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  expect(stored(cli.sb.store)).toEqual(GRANTED);
  return { cli, setup };
}

/** A config that lets these tests delete what they delete. */
async function permissive(): Promise<string> {
  const config = path.join(await tempDir(), 'docops.yaml');
  await writeFile(config, 'safety:\n  allowPruneAll: true\n  deletes: { fraction: 1, max: 1000 }\n');
  return config;
}

type Blocked = { kind: string; key: string; message: string; source?: { file: string; line: number; column: number } };
type PlanJson = {
  steps: { id: string; kind: string; key: string; note?: string; cascades?: { kind: string; key: string }[] }[];
  blocked: Blocked[];
};

describe('access lists across the lifecycle', () => {
  it('a team or e-mail that names nothing blocks the document loudly: exit 1, where, nothing of it planned', async () => {
    const cli = await liveCli();
    const dir = await manifestsOf({
      'space.yaml': doc(
        'Space',
        '  title: API Reference\n  emoji: "📕"\n  access:\n    - { team: Platform, role: admin }\n    - { team: Nobody, role: read }\n    - { email: zed@nowhere.test, role: read }\n',
      ),
      'other.yaml': doc('Space', '  title: Changelog\n  emoji: "🗒"\n'),
    });
    const run = await cli.run(['plan', '-m', dir, '--format', 'json']);
    expect(run.code, run.stderr).toBe(1);
    const plan = JSON.parse(run.stdout) as PlanJson;
    // The other document plans; nothing of the blocked one does (not even its emoji, not its valid grant).
    expect(plan.steps.map((s) => s.id)).toEqual(['Space/org-demo/Changelog#update']);
    expect(plan.blocked).toHaveLength(1);
    const b = plan.blocked[0]!;
    expect([b.kind, b.key, b.source?.line, b.source?.column]).toEqual(['Space', 'API Reference', 10, 15]);
    expect(b.message).toContain(
      'team "Nobody" is no Team manifest, live team title or team id of organization org-demo',
    );
    expect(b.message).toContain('zed@nowhere.test is not an organization member');
    expect(b.message).toMatch(/space\.yaml:11:\d+/);
    // apply refuses the same way and writes nothing.
    cli.sb.resetStats();
    const applied = await cli.run(['apply', '-m', dir]);
    expect(applied.code).toBe(1);
    expect(grants(cli.sb.store).all()).toEqual([]);
    expect(spaces(cli.sb.store).get('sp-api')!.emoji).toBe('📘');
  });

  it('a pruned team takes its grants: the delete step lists the ones the plan read as cascades; the sandbox holds none of them after', async () => {
    const { cli } = await setUp();
    // Support leaves the Team manifests (prune), and the API Reference list; Getting Started and the site stop managing access.
    const dir = await manifestsOf({
      'teams.yaml': ['Docs', 'Platform', 'Writers']
        .map((t) => doc('Team', `  title: ${t}\n`, ORG, 'prune: true\n'))
        .join('---\n'),
      'spaces.yaml': doc('Space', '  title: API Reference\n  access:\n    - { team: Platform, role: admin }\n'),
    });
    const run = await cli.run(['plan', '-m', dir, '--format', 'json', '--detailed-exitcode']);
    expect(run.code, run.stderr).toBe(2);
    const plan = JSON.parse(run.stdout) as PlanJson;
    expect(plan.blocked).toEqual([]);
    const del = plan.steps.find((s) => s.id === 'Team/org-demo/Support#delete')!;
    expect(del.cascades?.map((c) => `${c.kind} ${c.key}`)).toEqual([
      'TeamMember Support/frank@acme.test',
      'TeamMember Support/ivan@acme.test',
      'SpaceAccess API Reference/team:Support',
    ]);
    // The space grant the plan did not read (Getting Started's list is unmanaged now) shows as a count.
    expect(del.note).toBe('its access to 1 other space goes too');
    // The access diff sends no DELETE of its own for it: the team's delete takes it.
    expect(plan.steps.map((s) => s.id).filter((id) => id.includes('Access/'))).toEqual([]);
    const applied = await cli.run([
      'apply',
      '-m',
      dir,
      '--config',
      await permissive(),
      '--journal-dir',
      await tempDir(),
    ]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(stored(cli.sb.store)).toEqual(GRANTED.filter((g) => !g.includes('/Support=')));
  });

  it('undo of a prune that deleted the collections and the site brings every grant back; the original manifests plan no changes', async () => {
    const { cli, setup } = await setUp();
    const pruning = await manifestsOf({
      'placeholders.yaml': [
        doc('Collection', '  title: Placeholder collection\n', ORG, 'prune: true\n'),
        doc('Site', '  title: Placeholder site\n', ORG, 'prune: true\n'),
      ].join('---\n'),
    });
    const config = await permissive();
    const journalDir = await tempDir();
    const pruned = await cli.run(['apply', '-m', pruning, '--config', config, '--journal-dir', journalDir]);
    expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
    // The collection's and the site's grants went with them; the soft-deleted spaces keep theirs (hidden).
    expect(
      collections(cli.sb.store)
        .all()
        .map((c) => c.title),
    ).toEqual(['Placeholder collection']);
    expect(stored(cli.sb.store).filter((g) => !g.startsWith('space:'))).toEqual([]);

    const [journal] = await readdir(journalDir);
    const undo = await cli.run([
      'undo',
      path.join(journalDir, journal!),
      '--apply',
      '--format',
      'json',
      '--journal-dir',
      journalDir,
    ]);
    expect(undo.code, undo.stderr).toBe(0);
    const report = JSON.parse(undo.stdout) as {
      result: { failed: unknown[] };
      plan: { steps: { id: string }[]; blocked: unknown[] };
    };
    expect(report.result.failed).toEqual([]);
    expect(report.plan.blocked).toEqual([]);
    expect(
      report.plan.steps
        .map((s) => s.id)
        .filter((id) => id.includes('Access/'))
        .sort(),
    ).toEqual([
      'CollectionAccess/org-demo/Handbook#grant-admin',
      'CollectionAccess/org-demo/Handbook#grant-read',
      'SiteAccess/org-demo/Help Center#grant-none',
      'SiteAccess/org-demo/Help Center#grant-read',
    ]);
    expect(stored(cli.sb.store)).toEqual(GRANTED);
    const again = await cli.run(['plan', '-m', setup, '--format', 'json']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as PlanJson).steps).toEqual([]);
  });
});
