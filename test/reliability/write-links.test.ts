/**
 * Files are written where they are said to be (docs/reliability.md): a command that writes files never follows a
 * symbolic link out of the directory it was given. For every writer — `init`, `export` (its attachments and the
 * stale files `--overwrite` removes), `plan --out`, `plan --broken-links-out`, `undo -o`, the delete journal, the
 * sandbox's state file — a link planted where it writes (the file itself, or a directory on the way that leads
 * outside) makes it exit 1 naming the link, the file outside is unchanged, and a command that checks before
 * writing writes nothing at all.
 */
import { lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '@docops/sandbox';
import type { LiveKindState } from '../../src/model/kind.js';
import { liveKey, type LiveState } from '../../src/model/state.js';
import { createJournal } from '../../src/safety/journal.js';
import { writeUndoFiles } from '../../src/undo/documents.js';
import { linkOnTheWay, openInside } from '../../src/write-inside.js';
import { doc, liveCli, manifestsOf, tempDir } from '../cli/safety-cli-helpers.js';
import { changeStep, obj } from '../safety/helpers.js';

const OUTSIDE = 'OUTSIDE: not docops to write\n';

/** A directory outside the target with a file docops must never touch, and an empty target beside it. */
async function world(): Promise<{ outside: string; victim: string; target: string; listing(): string[] }> {
  const root = await tempDir('docops-links-');
  const outside = path.join(root, 'outside');
  const target = path.join(root, 'target');
  mkdirSync(outside);
  mkdirSync(target);
  const victim = path.join(outside, 'victim.txt');
  writeFileSync(victim, OUTSIDE);
  writeFileSync(path.join(outside, 'old.yaml'), OUTSIDE);
  return {
    outside,
    victim,
    target,
    listing: () => (readdirSync(target, { recursive: true }) as string[]).map(String).sort(),
  };
}

function untouched(w: { outside: string }): void {
  expect(readdirSync(w.outside).sort()).toEqual(['old.yaml', 'victim.txt']);
  for (const f of ['old.yaml', 'victim.txt']) expect(readFileSync(path.join(w.outside, f), 'utf8')).toBe(OUTSIDE);
}

describe('init and export never write through a link out of their directory', () => {
  const cases: {
    name: string;
    argv: (dir: string) => string[];
    plant(w: Awaited<ReturnType<typeof world>>): string;
  }[] = [
    {
      name: 'init: a .gitignore linking outside',
      argv: (dir) => ['init', '--org', 'org-demo', dir],
      plant: (w) => link(w.victim, path.join(w.target, '.gitignore')),
    },
    {
      name: 'init --overwrite: a docops.yaml linking outside',
      argv: (dir) => ['init', '--org', 'org-demo', dir, '--overwrite'],
      plant: (w) => link(w.victim, path.join(w.target, 'docops.yaml')),
    },
    {
      name: 'init: the workflow directory linking outside',
      argv: (dir) => ['init', '--org', 'org-demo', dir],
      plant: (w) => {
        mkdirSync(path.join(w.target, '.github'));
        return link(w.outside, path.join(w.target, '.github', 'workflows'));
      },
    },
    {
      name: 'init: the manifests directory linking outside',
      argv: (dir) => ['init', '--org', 'org-demo', dir],
      plant: (w) => link(w.outside, path.join(w.target, 'manifests')),
    },
    {
      name: 'export --overwrite: a members.yaml linking outside',
      argv: (dir) => ['export', '--org', 'org-demo', '-o', dir, '--overwrite'],
      plant: (w) => link(w.victim, path.join(w.target, 'members.yaml')),
    },
    {
      name: 'export: a teams.yaml linking outside',
      argv: (dir) => ['export', '--org', 'org-demo', '-o', dir],
      plant: (w) => link(w.victim, path.join(w.target, 'teams.yaml')),
    },
    {
      name: "export --overwrite: the OpenAPI specs' directory linking outside (its stale files would be removed)",
      argv: (dir) => ['export', '--org', 'org-demo', '-o', dir, '--overwrite'],
      plant: (w) => link(w.outside, path.join(w.target, 'openapi')),
    },
  ];

  it.each(cases)('$name', async ({ argv, plant }) => {
    const cli = await liveCli();
    const w = await world();
    const planted = plant(w);
    const before = w.listing();
    const r = await cli.run(argv(w.target));
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(`${planted} is a symbolic link`);
    untouched(w);
    // Checked before the first write: nothing written at all.
    expect(w.listing()).toEqual(before);
    expect(lstatSync(planted).isSymbolicLink()).toBe(true);
  });
});

describe('the other writers', () => {
  const MANIFESTS = { 'spaces.yaml': doc('Space', '  title: API Reference\n') };

  it('plan --out and --broken-links-out: a file that is a link', async () => {
    const cli = await liveCli();
    const w = await world();
    const dir = await manifestsOf(MANIFESTS);
    for (const flag of ['--out', '--broken-links-out']) {
      const file = link(w.victim, path.join(w.target, `${flag.slice(2)}.json`));
      const r = await cli.run(['plan', '-m', dir, flag, file]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`${file} is a symbolic link`);
    }
    untouched(w);
  });

  it('undo -o: a file undo writes that is a link', async () => {
    const w = await world();
    const planted = link(w.victim, path.join(w.target, 'undo-Team-o1.yaml'));
    const files = [{ name: 'undo-Team-o1.yaml', documents: [{ kind: 'Team' }], data: [] }];
    await expect(writeUndoFiles(w.target, files, '')).rejects.toThrow(`${planted} is a symbolic link`);
    untouched(w);
  });

  it('the delete journal: its file planted as a link', async () => {
    const w = await world();
    const at = new Date('2030-01-02T03:04:05.678Z');
    const live: LiveState = new Map<string, LiveKindState>([
      [liveKey('Team', 'o1'), { objects: [obj('Team', 'o1', 'platform', { title: 'platform' }, 't1')] }],
    ]);
    const journal = createJournal(w.target, live, { now: () => at });
    link(w.victim, journal.file);
    const del = changeStep('Team', 'o1', 'platform', 'prune', {
      requests: [{ method: 'DELETE', path: '/orgs/o1/teams/t1' }],
    });
    await expect(journal.beforeStep(del)).rejects.toThrow(`${journal.file} is a symbolic link`);
    untouched(w);
  });

  it("the sandbox's state file: a link is refused before the sandbox serves", async () => {
    const w = await world();
    const planted = link(w.victim, path.join(w.target, 'state.json'));
    await expect(startSandbox({ host: '127.0.0.1', port: 0, seed: 'demo', stateFile: planted })).rejects.toThrow(
      `${planted} is a symbolic link`,
    );
    untouched(w);
  });
});

describe('the shared check', () => {
  it('a directory link inside the directory is followed; one out of it, a dangling one and a file link are not', async () => {
    const w = await world();
    mkdirSync(path.join(w.target, 'real'));
    link(path.join(w.target, 'real'), path.join(w.target, 'inside'));
    link(w.outside, path.join(w.target, 'out'));
    link(path.join(w.target, 'nowhere'), path.join(w.target, 'dangling'));
    link(w.victim, path.join(w.target, 'file.txt'));
    expect(await linkOnTheWay(w.target, path.join(w.target, 'inside', 'a.yaml'))).toBeUndefined();
    expect(await linkOnTheWay(w.target, path.join(w.target, 'new', 'deeper', 'a.yaml'))).toBeUndefined();
    expect(await linkOnTheWay(w.target, path.join(w.target, 'out', 'a.yaml'))).toMatch(
      /out is a symbolic link to .*outside/,
    );
    expect(await linkOnTheWay(w.target, path.join(w.target, 'dangling', 'a.yaml'))).toMatch(
      /dangling is a symbolic link/,
    );
    expect(await linkOnTheWay(w.target, path.join(w.target, 'file.txt'))).toMatch(/file\.txt is a symbolic link/);
    // Opened without following: a link that appears after any check is refused by the open itself.
    await expect(openInside(w.target, path.join(w.target, 'file.txt'), 'w')).rejects.toThrow(
      /file\.txt is a symbolic link/,
    );
    await expect(openInside(w.target, path.join(w.target, 'file.txt'), 'a')).rejects.toThrow(/symbolic link/);
    untouched(w);
  });
});

function link(to: string, at: string): string {
  symlinkSync(to, at);
  return at;
}
