/**
 * Undo's plan against the sandbox: restores first and everything that names a restored object depends on its
 * restore; a collection's delete is undone with the spaces it took along; a space past its retention is
 * recreated and the recreated site shows the new space; a format-1 journal still undoes (and says what it
 * lacks).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/model/api-client.js';
import { applyPlan } from '../../src/engine/apply.js';
import { computePlan } from '../../src/engine/reconcile.js';
import type { DesiredState } from '../../src/model/state.js';
import { KINDS } from '../../src/kinds/index.js';
import { collections, DEMO_ORG_ID, spaces, startSandbox, teams, type RunningSandbox } from '@docops/sandbox';
import { siteSpaces, sites } from '../../packages/sandbox/src/site-records.js';
import { createJournal } from '../../src/safety/journal.js';
import { collectParts, undoRecords, type UndoResult } from '../../src/safety/undo.js';
import { readJournal } from '../../src/undo/journal-read.js';
import { undoFiles } from '../../src/undo/documents.js';
import { planUndo, type UndoPlan } from '../../src/undo/plan.js';
import { checkRestores } from '../../src/undo/restore.js';
import { fastClient, loadDesired, planAndApply } from '../helpers/pipeline.js';
import { runCli } from '../cli/run-cli.js';

const ORG = DEMO_ORG_ID;
const DAY = 24 * 3600 * 1000;

interface World {
  sb: RunningSandbox;
  client: ApiClient;
  clock: { now: Date };
  dir: string;
}
const open: World[] = [];
afterEach(async () => {
  for (const w of open.splice(0)) {
    await w.client.close();
    await w.sb.close();
    await rm(w.dir, { recursive: true, force: true });
  }
});

async function world(): Promise<World> {
  const clock = { now: new Date() };
  const sb = await startSandbox({ now: () => clock.now });
  const w = { sb, client: fastClient(sb), clock, dir: await mkdtemp(path.join(tmpdir(), 'docops-undo-plan-')) };
  open.push(w);
  expect((await planAndApply(w.client, await loadDesired('config.example/manifests'))).report.failed).toEqual([]);
  return w;
}

/** Manifests from text, loaded. */
async function manifests(w: World, text: string): Promise<DesiredState> {
  const dir = await mkdtemp(path.join(w.dir, 'm-'));
  await writeFile(path.join(dir, 'm.yaml'), text);
  return loadDesired(dir);
}

const doc = (kind: string, spec: string): string =>
  `apiVersion: docops/v1\nkind: ${kind}\nmetadata:\n  organization: ${ORG}\nprune: true\nspec:\n${spec}`;

/** Apply a pruning plan with the journal as the CLI wires it; returns the journal file. */
async function prune(w: World, desired: DesiredState): Promise<string> {
  const { plan, live } = await computePlan(w.client, KINDS, desired);
  const journal = createJournal(path.join(w.dir, 'journal'), live, { client: w.client, kinds: KINDS });
  const report = await applyPlan(w.client, plan, { beforeStep: journal.beforeStep });
  expect(report.failed).toEqual([]);
  return journal.file;
}

async function undo(w: World, journal: string): Promise<{ result: UndoResult; planned: UndoPlan }> {
  const input = collectParts(await readJournal(journal), KINDS);
  const checks = await checkRestores(w.client, input, w.clock.now);
  const result = undoRecords(input, checks.fates, checks.losses);
  return { result, planned: await planUndo(w.client, KINDS, undoFiles(result.documents, KINDS), checks.restores) };
}

describe("undo's plan", () => {
  it('brings a collection back with the spaces its delete took along: restored, then moved into the new collection', async () => {
    const w = await world();
    // Only collections are pruned: the spaces inside go with them without a step of their own.
    const journal = await prune(w, await manifests(w, doc('Collection', '  title: Internal\n')));
    expect(spaces(w.sb.store).get('sp-api')!.deletedAt).toBeDefined();
    const { result, planned } = await undo(w, journal);
    expect(result.objects.map((o) => `${o.kind}:${o.key}:${o.outcome}`)).toEqual([
      'Collection:Product docs:recreate',
      'Space:Getting Started:restore',
      'Space:API Reference:restore',
    ]);
    const steps = planned.plan.steps.map((s) => `${s.id} <- ${s.dependsOn.join(',')}`);
    expect(steps).toEqual([
      'Space/org-demo/API Reference#restore <- ',
      'Space/org-demo/Getting Started#restore <- ',
      'Collection/org-demo/Product docs#create <- ',
      'Space/org-demo/API Reference#move <- Collection/org-demo/Product docs#create,Space/org-demo/API Reference#restore',
      'Space/org-demo/Getting Started#move <- Collection/org-demo/Product docs#create,Space/org-demo/Getting Started#restore',
    ]);
    expect(planned.plan.unmanaged).toEqual([]);
    expect((await applyPlan(w.client, planned.plan)).failed).toEqual([]);
    const product = collections(w.sb.store)
      .all()
      .find((c) => c.title === 'Product docs')!;
    expect(
      ['sp-api', 'sp-getting-started'].map((id) => spaces(w.sb.store).get(id)).map((s) => [s?.parent, s?.deletedAt]),
    ).toEqual([
      [product.id, undefined],
      [product.id, undefined],
    ]);
  });

  it('recreates a space past its retention, and the recreated site shows the new space', async () => {
    const w = await world();
    const journal = await prune(
      w,
      await manifests(
        w,
        [
          doc('Site', '  title: Other site\n'),
          doc('Space', '  title: Getting Started\n  id: sp-getting-started\n'),
        ].join('---\n'),
      ),
    );
    w.clock.now = new Date(w.clock.now.getTime() + 8 * DAY);
    const { result, planned } = await undo(w, journal);
    expect(
      result.objects
        .filter((o) => o.kind === 'Space')
        .map((o) => `${o.key}:${o.outcome}`)
        .sort(),
    ).toEqual(['API Reference:recreate', 'Changelog:recreate', 'Runbooks:recreate']);
    expect(planned.plan.steps.filter((s) => s.id.endsWith('#restore'))).toEqual([]);
    expect(planned.plan.blocked).toEqual([]);
    expect((await applyPlan(w.client, planned.plan)).failed).toEqual([]);
    const runbooks = spaces(w.sb.store)
      .all()
      .find((s) => s.title === 'Runbooks' && s.deletedAt === undefined)!;
    expect(runbooks.id).not.toBe('sp-runbooks');
    const site = sites(w.sb.store)
      .all()
      .find((s) => s.title === 'Acme Help Center')!;
    expect(
      siteSpaces(w.sb.store)
        .where((x) => x.siteId === site.id)
        .map((x) => x.spaceId),
    ).toContain(runbooks.id);
  });

  it('skips exactly what names a space whose restore fails at apply', async () => {
    const w = await world();
    const journal = await prune(
      w,
      await manifests(
        w,
        [doc('Site', '  title: Other site\n'), doc('Space', '  title: Changelog\n  id: sp-changelog\n')].join('---\n'),
      ),
    );
    const { planned } = await undo(w, journal);
    // Between plan and apply the retention of the deleted spaces runs out.
    w.clock.now = new Date(w.clock.now.getTime() + 8 * DAY);
    const report = await applyPlan(w.client, planned.plan);
    expect(report.failed.map((f) => f.stepId).sort()).toEqual([
      'Space/org-demo/API Reference#restore',
      'Space/org-demo/Getting Started#restore',
      'Space/org-demo/Runbooks#restore',
    ]);
    expect(report.applied).toContain('Site/org-demo/Acme Help Center#create');
    // Skipped: the steps that name a restored space (site spaces, the sections made for them), and what depends on those.
    const down = new Set(report.failed.map((f) => f.stepId));
    for (const step of planned.plan.steps) if (step.dependsOn.some((d) => down.has(d))) down.add(step.id);
    expect(report.skipped.sort()).toEqual(
      planned.plan.steps
        .filter((x) => down.has(x.id) && !x.id.endsWith('#restore'))
        .map((x) => x.id)
        .sort(),
    );
    const direct = planned.plan.steps.filter((x) => x.dependsOn.some((d) => d.endsWith('#restore')));
    expect(direct.map((x) => x.id).sort()).toEqual([
      'SiteSection/org-demo/Acme Help Center/api#create',
      'SiteSection/org-demo/Acme Help Center/getting-started#create',
      'SiteSection/org-demo/Acme Help Center/operations#create',
    ]);
  });

  it('reads a format-1 journal: recreates from the fields it has, and says what it lacks', async () => {
    const w = await world();
    const file = path.join(w.dir, 'v1.jsonl');
    const line = {
      v: 1,
      time: '2030-01-01T00:00:00.000Z',
      stepId: 'Team/org-demo/Support#delete',
      phase: 'prune',
      action: 'delete',
      kind: 'Team',
      org: ORG,
      key: 'Support',
      objectKey: 'Support',
      id: 'team-support',
      fields: { title: 'Support' },
      snapshot: 'live',
    };
    await writeFile(file, JSON.stringify(line) + '\n');
    await w.client.request('DELETE', `/orgs/${ORG}/teams/team-support`);
    const r = await runCli(
      ['undo', file, '--apply', '--api-url', w.sb.url, '--log-level', 'silent', '--journal-dir', path.join(w.dir, 'j')],
      { DOCOPS_TOKEN: w.sb.token },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'Team org-demo/Support (team-support): journaled without a complete snapshot (journal format 1): only its own fields come back, not what its delete took along',
    );
    expect(
      teams(w.sb.store)
        .all()
        .filter((t) => t.title === 'Support'),
    ).toHaveLength(1);
  });
});

describe('docops undo arguments', () => {
  it('help, a missing journal, unknown flags, no credentials without -o, --prune, and never overwriting a file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'docops-undo-args-'));
    try {
      const file = path.join(dir, 'j.jsonl');
      const line = {
        v: 2,
        time: '2030-01-01T00:00:00.000Z',
        stepId: 'Team/o1/A#delete',
        phase: 'prune',
        action: 'delete',
        kind: 'Team',
        org: 'o1',
        key: 'A',
        objectKey: 'A',
        id: 't1',
        fields: { title: 'A' },
        snapshot: 'live',
      };
      await writeFile(file, JSON.stringify(line) + '\n');
      const help = await runCli(['undo', '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Usage: docops undo JOURNAL [--apply] [-o DIR]');
      expect(help.stdout).toContain('--apply');
      expect((await runCli(['undo'])).stderr).toContain('expected exactly one journal file (got 0)');
      expect((await runCli(['undo', file, '--aply'])).stderr).toContain(
        'unknown flag --aply for `docops undo`. Did you mean --apply?',
      );
      const offline = await runCli(['undo', file]);
      expect(offline.code).toBe(1);
      expect(offline.stderr).toContain('or pass -o DIR alone to only write the documents (offline)');
      expect((await runCli(['undo', file, '--apply', '-o', path.join(dir, 'x')])).stderr).toContain(
        'undo reads the API',
      );
      expect((await runCli(['undo', file, '--prune', 'Team', '--sandbox'])).stderr).toContain('undo never deletes');
      const out = path.join(dir, 'out');
      expect((await runCli(['undo', file, '-o', out])).code).toBe(0);
      const again = await runCli(['undo', file, '-o', out]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('undo-Team-o1.yaml already exists; choose another -o directory');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
