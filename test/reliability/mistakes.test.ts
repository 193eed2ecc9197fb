/**
 * Mistakes that look like valid manifests never turn into mass deletes. Against a large live organization
 * (150 members, 40 teams, 20 translations), each mistake is applied with pruning on — and with --force where
 * --force must not help — and the sandbox must see ZERO DELETE requests.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type MemberRole, type RunningSandbox } from '@docops/sandbox';
import { runCliCollecting } from '../helpers/output-collector.js';
import { tempDir } from '../helpers/pipeline.js';
import {
  ADMIN_EMAIL,
  fillStore,
  manifest,
  readStore,
  worldManifests,
  writeManifests,
  type World,
} from '../helpers/world.js';

const ROLES: MemberRole[] = ['create', 'review', 'edit', 'comment', 'read'];

function bigWorld(): World {
  const members = [
    { email: ADMIN_EMAIL, role: 'admin' as const },
    ...Array.from({ length: 150 }, (_, i) => ({ email: `p${i}@acme.test`, role: ROLES[i % ROLES.length]! })),
  ];
  const teams = Array.from({ length: 40 }, (_, i) => ({
    title: `Team ${i}`,
    members: [{ email: `p${i}@acme.test`, role: 'owner' as const }],
  }));
  const translations = Array.from({ length: 20 }, (_, i) => ({ title: `Docs ${i}` }));
  return { members, teams, translations };
}

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** Apply `docs` to the big world with `flags`; returns the exit code, stderr and how many DELETEs were sent. */
async function applyMistake(
  docs: Record<string, unknown>[],
  flags: string[],
): Promise<{ code: number; stderr: string; deletes: number }> {
  sandbox = await startSandbox({ seed: 'empty' });
  fillStore(sandbox.store, bigWorld());
  const dir = join(tempDir('mistake'), 'manifests');
  writeManifests(dir, docs);
  const journal = tempDir('mistake-journal');
  const env = { DOCOPS_TOKEN: sandbox.token };
  const run = await runCliCollecting(
    ['apply', '-m', dir, '--api-url', sandbox.url, '--journal-dir', journal, '--log-level', 'silent', ...flags],
    env,
    [],
  );
  return { code: run.code, stderr: run.stderr, deletes: sandbox.stats().byMethod['DELETE'] ?? 0 };
}

const world = bigWorld();
const docsOf = (w: Partial<World>) => worldManifests({ members: [], teams: [], translations: [], ...w });

describe('a mistake never becomes a mass delete', () => {
  it.each([
    [
      'a bad merge left 3 of 40 teams (--prune Team)',
      docsOf({ teams: world.teams.slice(0, 3) }),
      ['--prune', 'Team'],
      /delete-fraction|delete-cap/,
    ],
    [
      'a truncated members file keeps 10 of 151 (--prune Members)',
      docsOf({ members: world.members.slice(0, 10) }),
      ['--prune', 'Members'],
      /delete-fraction|delete-cap/,
    ],
    [
      'translations renamed by a bad find-and-replace (--prune Translation)',
      docsOf({ translations: world.translations.map((t) => ({ title: t.title.replace('Docs', 'Doc') })) }),
      ['--prune', 'Translation'],
      /delete-fraction|delete-all/,
    ],
    [
      'one new team in a file that says prune: true, every live team gone, even --force',
      [manifest('Team', { title: 'Brand new' }, { prune: true })],
      ['--force'],
      /delete-all/,
    ],
    [
      'members list of only strangers, --force: the admin and token user are guarded',
      docsOf({ members: [{ email: 'x@acme.test', role: 'admin' }] }),
      ['--prune', 'Members', '--force'],
      /guard|delete-all/,
    ],
  ])('%s', async (_name, docs, flags, rule) => {
    const r = await applyMistake(docs, flags);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(rule);
    expect(r.deletes).toBe(0);
    const live = readStore(sandbox!.store);
    expect([live.members.length, live.teams.length, live.translations.length]).toEqual([151, 40, 20]);
  });

  it('an empty manifests directory with every prune on is an error and sends nothing (never "no changes")', async () => {
    sandbox = await startSandbox({ seed: 'empty' });
    fillStore(sandbox.store, bigWorld());
    const dir = tempDir('empty-manifests');
    writeFileSync(join(dir, 'README.md'), 'manifests moved elsewhere\n');
    const flags = ['--prune', 'Members', '--prune', 'Team', '--prune', 'Translation', '--force'];
    const run = await runCliCollecting(
      ['apply', '-m', dir, '--api-url', sandbox.url, '--log-level', 'silent', ...flags],
      { DOCOPS_TOKEN: sandbox.token },
      [],
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`no manifests in ${dir}`);
    expect(sandbox.stats().total).toBe(0);
  });
});
