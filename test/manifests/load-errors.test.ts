/** One fixture per kind of mistake; each must give exactly the expected `file:line:column: message`. */
import { describe, expect, test } from 'vitest';
import { loadManifests } from '../../src/manifests/index.js';
import { fakeMembersKind, fakeTeamKind } from './fake-kinds.js';
import { FIX, issueLines } from './helpers.js';

const kinds = [fakeTeamKind(), fakeMembersKind()];
const env = { TEST_ORG: 'org-b' };
const allowEnv = ['TEST_*'];
const ROLES = 'admin, create, review, edit, comment, read';

const cases: [file: string, expected: string[]][] = [
  [
    'syntax.yaml',
    [
      '7:4: indentation: "members" is indented 3 spaces, but "title" on line 6 is indented 2; keys of one mapping start at the same column (YAML: Nested mappings are not allowed in compact mappings)',
    ],
  ],
  ['duplicate-key.yaml', ['7:3: duplicate key "title" (first set on line 6)']],
  ['empty.yaml', ['1:1: file is empty']],
  ['comments-only.yaml', ['1:1: file contains no YAML documents (only comments or empty documents)']],
  ['binary-junk.yaml', ['3:8: file is not valid UTF-8 (byte 0xff; binary file?)']],
  ['nul-byte.yaml', ['2:3: file contains a NUL byte (binary file?)']],
  ['wrong-api-version.yaml', ['1:13: apiVersion: must be "docops/v1" (got "docops/v2")']],
  ['unknown-kind.yaml', ['2:7: kind: unknown kind "Teem" (known kinds: Members, Team)']],
  [
    'missing-organization.yaml',
    [
      '4:3: metadata: missing required field "organization"',
      '4:3: metadata: unknown field "name" (allowed: organization)',
    ],
  ],
  // prune belongs beside kind; under metadata it would silently do nothing.
  ['unknown-metadata-field.yaml', ['5:3: metadata: unknown field "prune" (allowed: organization)']],
  [
    'unknown-top-level.yaml',
    ['5:1: unknown field "labels" (allowed: apiVersion, kind, metadata, prune, allowEmpty, mode, spec)'],
  ],
  ['wrong-type.yaml', ['6:10: spec.title: must be string (got integer 42)']],
  ['enum.yaml', [`15:13: spec.members[3].role: must be one of ${ROLES} (got "owner")`]],
  [
    'lengths.yaml',
    [
      '6:10: spec.title: must be at most 64 characters (got 67)',
      '7:9: spec.slug: must be at least 1 character (got 0)',
      '7:9: spec.slug: must match the pattern ^[a-z0-9-]+$ (got "")',
    ],
  ],
  ['pattern.yaml', ['7:9: spec.slug: must match the pattern ^[a-z0-9-]+$ (got "Not A Slug")']],
  ['unknown-spec-field.yaml', ['6:3: spec: missing required field "title"', '6:3: spec: unknown field "titel"']],
  ['missing-required.yaml', ['8:7: spec.members[0]: missing required field "email"']],
  ['unset-env.yaml', ['6:10: environment variable "TEST_UNSET" is not set']],
  // Line numbers count from the top of the file, not from the start of the second document.
  ['second-document.yaml', [`16:13: spec.members[0].role: must be one of ${ROLES} (got "owner")`]],
];

describe('one error per fixture file', () => {
  test.each(cases)('%s', async (name, expected) => {
    const file = `${FIX}/errors/${name}`;
    expect(await issueLines(loadManifests(file, kinds, { env, allowEnv }))).toEqual(
      expected.map((e) => `${file}:${e}`),
    );
  });

  test('loading the whole directory reports every file’s issues together, sorted by file', async () => {
    const all = await issueLines(loadManifests(`${FIX}/errors`, kinds, { env, allowEnv }));
    const expected = [...cases]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .flatMap(([name, lines]) => lines.map((l) => `${FIX}/errors/${name}:${l}`));
    expect(all).toEqual(expected);
  });
});

describe('several files, several documents', () => {
  test('mixed mistakes across files come back in one error, in file/line/column order', async () => {
    const dir = `${FIX}/mixed`;
    expect(await issueLines(loadManifests(dir, kinds, { env, allowEnv }))).toEqual([
      `${dir}/a-teams.yaml:7:3: spec: unknown field "colour"`,
      `${dir}/a-teams.yaml:9:13: apiVersion: must be "docops/v1" (got "docops/v2")`,
      `${dir}/a-teams.yaml:14:10: spec.title: must be string (got integer 7)`,
      `${dir}/b-members.yaml:4:17: metadata.organization: must be a non-empty string (got string "")`,
      `${dir}/b-members.yaml:7:14: spec.members[0].email: must be a valid email (got "not-an-email")`,
      `${dir}/c-broken.yaml:2:7: unclosed "[": the list opened here has no "]" (one written over several lines must indent them more than its key) (YAML: Flow sequence in block collection must be sufficiently indented and end with a ])`,
    ]);
  });

  test('the same identity in two files is reported at both places', async () => {
    const dir = `${FIX}/dup-identity`;
    expect(await issueLines(loadManifests(dir, kinds))).toEqual([
      `${dir}/a.yaml:6:10: duplicate Team "Platform" in org-demo, also defined at ${dir}/b.yaml:7:10`,
      `${dir}/b.yaml:7:10: duplicate Team "Platform" in org-demo, also defined at ${dir}/a.yaml:6:10`,
    ]);
  });

  test('the same pinned id in two files is reported at both places', async () => {
    const dir = `${FIX}/dup-id`;
    expect(await issueLines(loadManifests(dir, kinds))).toEqual([
      `${dir}/a.yaml:6:10: duplicate Team id "t1" (pinned by Team "Platform" in org-demo), also pinned by Team "Core" in org-demo at ${dir}/b.yaml:6:10`,
      `${dir}/b.yaml:6:10: duplicate Team id "t1" (pinned by Team "Core" in org-demo), also pinned by Team "Platform" in org-demo at ${dir}/a.yaml:6:10`,
    ]);
  });
});
