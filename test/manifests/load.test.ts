/** Loading whole directories: discovery, the desired map, cross-document checks, size cap, usage errors. */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { formatIssue, UsageError } from '../../src/model/errors.js';
import { findManifestFiles, loadManifests, readManifestFile } from '../../src/manifests/index.js';
import { fakeMembersKind, fakeTeamKind } from './fake-kinds.js';
import { FIX, issueLines } from './helpers.js';

const TEAM = (title: string, org = 'org-demo'): string =>
  `apiVersion: docops/v1\nkind: Team\nmetadata:\n  organization: ${org}\nspec:\n  title: ${title}\n`;

describe('a valid directory', () => {
  test('loads every manifest below it into the desired map, keyed by manifest kind', async () => {
    const { documents, desired } = await loadManifests(`${FIX}/valid`, [fakeTeamKind(), fakeMembersKind()], {
      env: { TEST_ORG: 'org-b' },
      allowEnv: ['TEST_ORG', 'TEST_SUFFIX'],
    });
    const brief = (kind: string) =>
      desired
        .get(kind)!
        .map((e) => [e.kind, e.org, e.key, e.id ?? null, `${e.source.file}:${e.source.line}:${e.source.column}`]);
    expect([...desired.keys()]).toEqual(['Team', 'Members']);
    // Files in sorted path order: nested/deeper/team-docs.yaml, org-a/members.yaml, org-a/team-platform.yml.
    expect(brief('Team')).toEqual([
      ['Team', 'org-b', 'Docs team ${NOT_A_VAR}', null, `${FIX}/valid/nested/deeper/team-docs.yaml:6:10`],
      ['Team', 'org-a', 'Core', 'team1', `${FIX}/valid/org-a/members.yaml:19:10`],
      ['Team', 'org-a', 'Platform', null, `${FIX}/valid/org-a/team-platform.yml:6:10`],
    ]);
    expect(brief('Members')).toEqual([
      ['Member', 'org-a', 'ada@example.com', null, `${FIX}/valid/org-a/members.yaml:8:7`],
      ['Member', 'org-a', 'bob@example.com', null, `${FIX}/valid/org-a/members.yaml:10:7`],
    ]);
    expect(documents.map((d) => [d.file.slice(FIX.length), d.index, d.kind, d.metadata.organization, d.prune])).toEqual(
      [
        ['/valid/nested/deeper/team-docs.yaml', 0, 'Team', 'org-b', undefined],
        ['/valid/org-a/members.yaml', 0, 'Members', 'org-a', undefined],
        ['/valid/org-a/members.yaml', 1, 'Team', 'org-a', true],
        ['/valid/org-a/team-platform.yml', 0, 'Team', 'org-a', undefined],
      ],
    );
    // Aliases resolve to the anchored value.
    expect(documents[0]!.spec).toMatchObject({ description: 'shared text', notes: 'shared text' });
  });

  test('a default applies when the variable is unset, the variable wins when set', async () => {
    const load = (env: Record<string, string>) =>
      loadManifests(`${FIX}/valid/nested`, [fakeTeamKind()], { env, allowEnv: ['TEST_*'] });
    expect((await load({ TEST_ORG: 'o' })).desired.get('Team')![0]!.key).toBe('Docs team ${NOT_A_VAR}');
    expect((await load({ TEST_ORG: 'o', TEST_SUFFIX: 'crew' })).desired.get('Team')![0]!.key).toBe(
      'Docs crew ${NOT_A_VAR}',
    );
  });

  test('the environment defaults to process.env', async () => {
    process.env.TEST_ORG = 'from-process-env';
    try {
      const { desired } = await loadManifests(`${FIX}/valid/nested`, [fakeTeamKind()], { allowEnv: ['TEST_*'] });
      expect(desired.get('Team')![0]!.org).toBe('from-process-env');
    } finally {
      delete process.env.TEST_ORG;
    }
  });
});

describe('in a scratch directory', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'docops-manifests-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('discovery skips dot-directories, node_modules and non-YAML files, and sorts paths', async () => {
    for (const d of ['b', 'a/z', '.git', 'node_modules/x', 'c.d']) await mkdir(path.join(dir, d), { recursive: true });
    const files = [
      'b/team.yml',
      'a/z/one.yaml',
      'a-team.yaml',
      '.git/x.yaml',
      'node_modules/x/y.yaml',
      'notes.md',
      'c.d/q.YAML',
      '.dotfile.yaml',
    ];
    for (const f of files) await writeFile(path.join(dir, f), 'x: 1\n');
    await symlink(path.join(dir, 'b'), path.join(dir, 'a-linked')); // followed; b's files are read once, under the first name
    await symlink(path.join(dir, 'c.d', 'q.YAML'), path.join(dir, 'linked.yaml'));
    expect(await findManifestFiles(dir)).toEqual([
      '.dotfile.yaml',
      'a-linked/team.yml',
      'a-team.yaml',
      'a/z/one.yaml',
      'c.d/q.YAML',
    ]);
  });

  test('a directory without manifests is an error, never an empty desired state', async () => {
    await expect(loadManifests(dir, [fakeTeamKind()])).rejects.toThrow(
      new UsageError(
        `no manifests in ${dir}: it holds no .yaml or .yml file (hidden directories and node_modules are not searched); point it at the directory that holds the manifests`,
      ),
    );
    await mkdir(path.join(dir, '.git'));
    await writeFile(path.join(dir, '.git', 'x.yaml'), TEAM('Hidden'));
    await writeFile(path.join(dir, 'README.md'), '# not a manifest\n');
    await expect(loadManifests(dir, [fakeTeamKind()])).rejects.toThrow(UsageError);
  });

  test('a missing directory is a UsageError', async () => {
    await expect(loadManifests(path.join(dir, 'nope'), [fakeTeamKind()])).rejects.toThrow(UsageError);
  });

  test('a file over the size cap is reported without being parsed; the other files still load', async () => {
    await writeFile(path.join(dir, 'huge.yaml'), '# ' + 'x'.repeat(2 * 1024 * 1024) + '\n');
    await writeFile(path.join(dir, 'team.yaml'), TEAM('Platform').replace('title: Platform', 'title: 5'));
    const rel = path.relative(process.cwd(), dir);
    expect(await issueLines(loadManifests(rel, [fakeTeamKind()]))).toEqual([
      `${rel}/huge.yaml:1:1: file is too large (2097155 bytes; the limit is 2 MiB): split it into several files (one kind's documents, e.g. an organization's Members, may be spread over many)`,
      `${rel}/team.yaml:6:10: spec.title: must be string (got integer 5)`,
    ]);
    await writeFile(path.join(dir, 'team.yaml'), TEAM('Platform'));
    expect(await issueLines(loadManifests(rel, [fakeTeamKind()], { maxFileBytes: 100 }))).toEqual([
      `${rel}/huge.yaml:1:1: file is too large (2097155 bytes; the limit is 100 bytes): split it into several files (one kind's documents, e.g. an organization's Members, may be spread over many)`,
    ]);
  });

  test('a dangling symlink is an issue at the link; so is a file that vanished before reading', async () => {
    await symlink(path.join(dir, 'gone.yaml'), path.join(dir, 'dangling.yaml'));
    await writeFile(path.join(dir, 'team.yaml'), TEAM('Platform'));
    expect(await issueLines(loadManifests(dir, [fakeTeamKind()]))).toEqual([
      `${path.relative(process.cwd(), dir).startsWith('..') ? dir : path.relative(process.cwd(), dir)}/dangling.yaml:1:1: symbolic link is dangling: what it points to does not exist`,
    ]);
    expect((await readManifestFile(path.join(dir, 'gone.yaml'))).issues.map(formatIssue)).toEqual([
      `${path.join(dir, 'gone.yaml')}:1:1: cannot read file: ENOENT`,
    ]);
  });

  test('toDesired runs only for valid documents; crossValidate sees every kind’s entries', async () => {
    const calls = { toDesired: 0 };
    await writeFile(path.join(dir, 'bad.yaml'), TEAM('Core') + '  colour: red\n');
    await writeFile(
      path.join(dir, 'good.yaml'),
      TEAM('Platform') +
        '  members:\n    - email: ada@example.com\n      role: read\n    - email: zed@example.com\n      role: read\n',
    );
    await writeFile(
      path.join(dir, 'members.yaml'),
      'apiVersion: docops/v1\nkind: Members\nmetadata:\n  organization: org-demo\nspec:\n  members:\n    - email: ADA@example.com\n      role: read\n',
    );
    const rel = path.relative(process.cwd(), dir);
    expect(await issueLines(loadManifests(rel, [fakeTeamKind(calls), fakeMembersKind()]))).toEqual([
      `${rel}/bad.yaml:7:3: spec: unknown field "colour"`,
      `${rel}/good.yaml:10:14: spec.members[1].email: zed@example.com is not a member of org-demo`,
    ]);
    expect(calls.toDesired).toBe(1);
  });

  test('paths outside the working directory are shown as given', async () => {
    await writeFile(path.join(dir, 'team.yaml'), TEAM('x'.repeat(65)));
    const lines = await issueLines(loadManifests(dir, [fakeTeamKind()]));
    const shown = path.relative(process.cwd(), dir).startsWith('..') ? dir : path.relative(process.cwd(), dir);
    expect(lines).toEqual([`${shown}/team.yaml:6:10: spec.title: must be at most 64 characters (got 65)`]);
  });
});
