import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { members, teams, translations } from '@docops/sandbox';
import { grantKey, grants } from '../../packages/sandbox/src/permission-records.js';
import { runCli } from './run-cli.js';
import { doc, exampleManifests, filesIn, liveCli, manifestsOf, tempDir } from './safety-cli-helpers.js';

const ORG = 'org-demo';

/** 12 live translations; the manifests keep 4 of them, so a prune deletes 8 (67 % of 12, over the 25 % limit). */
async function bigTranslationSet() {
  const cli = await liveCli();
  for (let i = 1; i <= 11; i++) {
    translations(cli.sb.store).put({
      id: `tr-${i}`,
      orgId: ORG,
      title: `Docs ${i}`,
      languages: ['de'],
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
    });
  }
  const kept = ['French docs', 'Docs 1', 'Docs 2', 'Docs 3'];
  const dir = await manifestsOf({
    'translations.yaml': kept.map((t) => doc('Translation', `  title: ${t}\n`)).join('---\n'),
  });
  const count = () => translations(cli.sb.store).where((t) => t.orgId === ORG).length;
  return { cli, dir, count };
}

describe('apply runs the safety gate between plan and apply', () => {
  it('refuses a prune over the delete threshold with exit 3 and the rule, and writes nothing', async () => {
    const { cli, dir, count } = await bigTranslationSet();
    const journal = await tempDir();
    cli.sb.resetStats();
    const r = await cli.run(['apply', '-m', dir, '--prune', 'Translation', '--journal-dir', journal]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('safety gate refused the plan');
    expect(r.stderr).toMatch(/\[delete-fraction\] Translation in org-demo: plan deletes 8 of 12 live objects/);
    expect(r.stderr).toContain('--force');
    expect(cli.writes()).toBe(0);
    expect(count()).toBe(12);
    expect(await readdir(journal)).toEqual([]);
  });

  it('--force lifts the threshold: the prune is applied and journaled', async () => {
    const { cli, dir, count } = await bigTranslationSet();
    const journal = await tempDir();
    const r = await cli.run(['apply', '-m', dir, '--prune', 'Translation', '--force', '--journal-dir', journal]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(count()).toBe(4);
    const [file] = await readdir(journal);
    expect(file).toMatch(/^journal-.*\.jsonl$/);
    const lines = (await readFile(path.join(journal, file!), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(8);
    expect(r.stdout).toContain(`Deleted objects were journaled to ${path.join(journal, file!)}`);
  });

  it('reads the safety limits and the journal directory from --config', async () => {
    const { cli, dir, count } = await bigTranslationSet();
    const configDir = await tempDir();
    const config = path.join(configDir, 'docops.yaml');
    await writeFile(
      config,
      'safety:\n  kinds:\n    Translation:\n      deletes: { fraction: 0.7 }\njournalDir: journals\n',
    );
    const r = await cli.run(['apply', '-m', dir, '--prune', 'Translation', '--config', config]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(count()).toBe(4);
    expect(await readdir(path.join(configDir, 'journals'))).toHaveLength(1);
    // A misspelt limit never silently leaves the default in force.
    await writeFile(config, 'safety:\n  deletes: { fractoin: 0.7 }\n');
    const bad = await cli.run(['apply', '-m', dir, '--config', config]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('fractoin');
  });

  it("never removes the token's own user, even with --force", async () => {
    const cli = await liveCli();
    const others = ['bob', 'carol', 'dan', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy'];
    const roles: Record<string, string> = {
      bob: 'edit',
      carol: 'create',
      dan: 'review',
      erin: 'comment',
      frank: 'read',
      grace: 'admin',
      heidi: 'edit',
      ivan: 'read',
      judy: 'edit',
    };
    const dir = await manifestsOf({
      'members.yaml': doc(
        'Members',
        `  members:\n${others.map((n) => `    - { email: ${n}@acme.test, role: ${roles[n]} }\n`).join('')}`,
      ),
    });
    cli.sb.resetStats();
    const r = await cli.run(['apply', '-m', dir, '--prune', 'Members', '--force', '--journal-dir', await tempDir()]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/\[guard\] Members in org-demo: .*ada@acme\.test/);
    expect(cli.writes()).toBe(0);
    expect(members(cli.sb.store).get(`${ORG}/u-ada`)).toBeDefined();
  });

  it('journals a pruned team; undo of the journal gives documents that recreate it', async () => {
    const cli = await liveCli();
    const dir = await exampleManifests();
    // Drop the Support team from the manifests, then prune teams.
    const teamsFile = path.join(dir, 'teams.yaml');
    const text = await readFile(teamsFile, 'utf8');
    await writeFile(
      teamsFile,
      text
        .split('---\n')
        .filter((d) => !d.includes('title: Support'))
        .join('---\n'),
    );
    const journal = await tempDir();

    const applied = await cli.run(['apply', '-m', dir, '--prune', 'Team', '--journal-dir', journal]);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(teams(cli.sb.store).where((t) => t.title === 'Support')).toEqual([]);
    const [file] = await readdir(journal);
    expect(file).toBeDefined();
    const journalFile = path.join(journal, file!);
    expect(applied.stdout).toContain(journalFile);

    const undoDir = await tempDir();
    const undo = await runCli(['undo', journalFile, '-o', undoDir]); // offline: no API flags
    expect(undo.code).toBe(0);
    const written = await filesIn(undoDir);
    expect(written).toEqual(['undo-Team-org-demo.yaml']);
    const undoDoc = await readFile(path.join(undoDir, written[0]!), 'utf8');
    expect(undoDoc).toContain('title: Support');

    // The undo documents, added to the manifests, make the next apply recreate the team.
    await writeFile(path.join(dir, 'undo.yaml'), undoDoc);
    const plan = await cli.run(['plan', '-m', dir]);
    expect(plan.stdout).toContain('+ Team org-demo/Support');
    const again = await cli.run(['apply', '-m', dir, '--journal-dir', journal]);
    expect(again.code).toBe(0);
    expect(teams(cli.sb.store).where((t) => t.title === 'Support')).toHaveLength(1);
    await rm(journalFile);
  });

  it('a run that deletes nothing writes no journal', async () => {
    const cli = await liveCli();
    const journal = await tempDir();
    const r = await cli.run(['apply', '-m', 'config.example/manifests', '--journal-dir', journal]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('journaled');
    expect(await readdir(journal)).toEqual([]);
  });
});

describe('apply of an emptied access list (the documented way to clear one)', () => {
  const emptied = (extra = ''): string =>
    doc('Collection', '  title: Product docs\n  id: col-product\n  access: []\n', ORG, extra);

  it('is refused with exit 3 even under --force, naming allowEmpty; allowEmpty: true in the document applies it', async () => {
    const cli = await liveCli();
    for (const team of ['team-platform', 'team-writers', 'team-support']) {
      const id = grantKey('collection', 'col-product', 'team', team);
      grants(cli.sb.store).put({
        id,
        orgId: ORG,
        targetType: 'collection',
        targetId: 'col-product',
        principalType: 'team',
        principalId: team,
        role: 'read',
      });
    }
    const left = (): number => grants(cli.sb.store).where((g) => g.targetId === 'col-product').length;
    const dir = await manifestsOf({ 'col.yaml': emptied() });
    const plan = await cli.run(['plan', '-m', dir]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('apply refuses this unless the document says allowEmpty: true');
    cli.sb.resetStats();
    for (const force of [[], ['--force']]) {
      const r = await cli.run(['apply', '-m', dir, '--journal-dir', await tempDir(), ...force]);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(
        '[empty-list] CollectionAccess of Collection "Product docs" in org-demo: plan deletes all 3 of its live objects',
      );
      expect(r.stderr).toContain(
        `write allowEmpty: true in the Collection document (${path.join(dir, 'col.yaml')}:1:1)`,
      );
    }
    expect(cli.writes()).toBe(0);
    expect(left()).toBe(3);

    await writeFile(path.join(dir, 'col.yaml'), emptied('allowEmpty: true\n'));
    const r = await cli.run(['apply', '-m', dir, '--journal-dir', await tempDir()]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(allowEmpty: true)');
    expect(left()).toBe(0);
  });
});
