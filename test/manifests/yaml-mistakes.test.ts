/**
 * Common YAML mistakes say what the user did, at the line of the mistake, with the parser's words kept as detail
 * (issue 34, point 6; src/manifests/yaml-syntax.ts). Each case is a small broken file and the exact message.
 * The same words come through every YAML input: manifests, docops.yaml, policy files and brand files.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseYamlFile } from '../../src/manifests/index.js';
import { formatIssue, ValidationError } from '../../src/model/errors.js';
import { loadManifests } from '../../src/manifests/load.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadConfig } from '../../src/config/load.js';
import { loadPolicyPath } from '../../src/policy/load.js';

const TEAM = 'apiVersion: docops/v1\nkind: Team\nmetadata:\n  organization: org-demo\nspec:\n';

/** [what the user did, the file, the one message]. */
const MISTAKES: [string, string, string][] = [
  [
    'a key indented more than the one above it',
    `${TEAM}  title: Platform\n   members: []\n`,
    'm.yaml:7:4: indentation: "members" is indented 3 spaces, but "title" on line 6 is indented 2; keys of one mapping start at the same column (YAML: Nested mappings are not allowed in compact mappings)',
  ],
  [
    'a key indented less than the one above it',
    `${TEAM}  title: Platform\n members: []\n`,
    'm.yaml:7:2: indentation: "members" is indented 1 space, but "title" on line 6 is indented 2; keys of one mapping start at the same column (YAML: All mapping items must start at the same column)',
  ],
  [
    "a list item's key indented less than its first key",
    `${TEAM}  title: Platform\n  members:\n    - email: ada@acme.test\n     role: member\n`,
    'm.yaml:9:6: indentation: "role" is indented 5 spaces, but "email" on line 8 is indented 6; keys of one mapping start at the same column (YAML: Sequence item without - indicator)',
  ],
  [
    "a list item's key indented more than its first key",
    `${TEAM}  title: Platform\n  members:\n    - email: ada@acme.test\n        role: member\n`,
    'm.yaml:9:9: indentation: "role" is indented 8 spaces, but "email" on line 8 is indented 6; keys of one mapping start at the same column (YAML: Nested mappings are not allowed in compact mappings)',
  ],
  [
    'a key back out at no level above it',
    `${TEAM}  title: Platform\n  members:\n    - email: ada@acme.test\n   role: member\n`,
    'm.yaml:9:4: indentation: "role" is indented 3 spaces, but "members" on line 7 is indented 2; keys of one mapping start at the same column (YAML: All mapping items must start at the same column)',
  ],
  [
    'a tab as indentation',
    `${TEAM}\ttitle: Platform\n`,
    'm.yaml:6:1: a tab in the indentation: YAML indents with spaces only (YAML: Tabs are not allowed as indentation)',
  ],
  [
    'a tab after spaces',
    `${TEAM}  title: Platform\n  \tmembers: []\n`,
    'm.yaml:7:3: a tab in the indentation: YAML indents with spaces only (YAML: Tabs are not allowed as indentation)',
  ],
  [
    'no space after a colon',
    `${TEAM}  title:Platform\n  members: []\n`,
    'm.yaml:6:8: missing space after the colon: "title:Platform" is one word to YAML; write "title: Platform" (YAML: Implicit keys need to be on a single line)',
  ],
  [
    'no space after a colon, on the last line',
    `${TEAM}  members: []\n  title:Platform\n`,
    'm.yaml:7:8: missing space after the colon: "title:Platform" is one word to YAML; write "title: Platform" (YAML: Implicit map keys need to be followed by map values)',
  ],
  [
    'no space after a quoted key',
    `${TEAM}  "title":"Platform"\n`,
    'm.yaml:6:10: missing space after the colon: write "key: value" (YAML: Unexpected scalar at node end)',
  ],
  [
    'no colon',
    `${TEAM}  title Platform\n  members: []\n`,
    'm.yaml:6:3: "title Platform" is not "key: value": a colon is missing, or the line is indented wrong (YAML: Implicit keys need to be on a single line)',
  ],
  [
    'an unclosed double quote',
    `${TEAM}  title: "Platform\n  members: []\n`,
    'm.yaml:6:10: unclosed quote: the " opened here is never closed (YAML: Missing closing "quote)',
  ],
  [
    'an unclosed single quote',
    `${TEAM}  title: 'Platform\n`,
    "m.yaml:6:10: unclosed quote: the ' opened here is never closed (YAML: Missing closing 'quote)",
  ],
  [
    'text after a closing quote',
    `${TEAM}  title: "Plat"form\n`,
    'm.yaml:6:16: text after the closing quote: put the whole value in the quotes (YAML: Unexpected scalar at node end)',
  ],
  [
    '": " inside an unquoted value',
    `${TEAM}  title: Docs: the guide\n`,
    'm.yaml:6:10: an unquoted value cannot hold ": " (YAML reads a key there): put it in quotes, "Docs: the guide" (YAML: Nested mappings are not allowed in compact mappings)',
  ],
  ['a duplicate key', `${TEAM}  title: A\n  title: B\n`, 'm.yaml:7:3: duplicate key "title" (first set on line 6)'],
  [
    'a list item indented less than the one before',
    `${TEAM}  title: P\n  members:\n    - email: ada@acme.test\n   - email: bob@acme.test\n`,
    'm.yaml:9:4: indentation: this list item is indented 3 spaces, but the one on line 8 is indented 4; items of one list start at the same column (YAML: A block sequence may not be used as an implicit map key)',
  ],
  [
    'a list item indented more than the one before',
    `${TEAM}  title: P\n  members:\n  - email: ada@acme.test\n    - email: bob@acme.test\n`,
    'm.yaml:9:5: indentation: this list item is indented 4 spaces, but the one on line 8 is indented 2; items of one list start at the same column (YAML: A block sequence may not be used as an implicit map key)',
  ],
  [
    'a list item among keys',
    `${TEAM}  title: P\n  - ada@acme.test\n`,
    'm.yaml:7:3: a list item among the keys of a mapping at the column of "title" on line 6: a list goes under a key of its own, its items on the lines below (YAML: A block sequence may not be used as an implicit map key)',
  ],
  [
    'a key among list items',
    `${TEAM}  - ada@acme.test\n  title: P\n`,
    'm.yaml:7:3: indentation: "title" is at the column of the list item on line 6; a mapping holds either keys or list items, not both (YAML: All mapping items must start at the same column)',
  ],
  [
    'an unclosed [',
    `${TEAM}  members: [{ email: ada@acme.test }\n`,
    'm.yaml:6:12: unclosed "[": the list opened here has no "]" (one written over several lines must indent them more than its key) (YAML: Flow sequence in block collection must be sufficiently indented and end with a ])',
  ],
  [
    'an unclosed {',
    `${TEAM}  members: [{ email: ada@acme.test ]\n`,
    'm.yaml:6:13: unclosed "{": the mapping opened here has no "}" (one written over several lines must indent them more than its key) (YAML: Flow map in block collection must be sufficiently indented and end with a })',
  ],
  [
    'the text of a | block not indented',
    `${TEAM}  title: P\n  description: |\n  Our team\n`,
    'm.yaml:8:3: indentation: the text of the | or > block on line 7 must be indented more than its key (YAML: Implicit map keys need to be followed by map values)',
  ],
  [
    'a value starting with @',
    `${TEAM}  title: @platform\n`,
    'm.yaml:6:10: a value starting with "@" must be quoted (YAML: Plain value cannot start with reserved character @)',
  ],
  [
    'a backslash in double quotes',
    `${TEAM}  title: "C:\\docs"\n`,
    'm.yaml:6:13: "\\d" is no escape in double quotes: write a backslash as "\\\\", or use single quotes (YAML: Invalid escape sequence \\d)',
  ],
];

describe('YAML mistakes, in the words of what the user did', () => {
  it.each(MISTAKES)('%s', (_what, text, expected) => {
    expect(parseYamlFile('m.yaml', text).issues.map(formatIssue)).toEqual([expected]);
  });

  it('a mistake in a second document of a file, with CRLF line ends, is at its own line', () => {
    const text = `${TEAM}  title: A\n---\n${TEAM}  title: B\n   members: []\n`.replace(/\n/g, '\r\n');
    expect(parseYamlFile('m.yaml', text).issues.map(formatIssue)).toEqual([
      'm.yaml:14:4: indentation: "members" is indented 3 spaces, but "title" on line 13 is indented 2; keys of one mapping start at the same column (YAML: Nested mappings are not allowed in compact mappings)',
    ]);
  });
});

describe('the same words for every YAML input', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docops-yaml-mistakes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const OVER = (key: string, above: string) =>
    `indentation: "${key}" is indented 3 spaces, but "${above}" on line 2 is indented 2; keys of one mapping start at the same column (YAML: Nested mappings are not allowed in compact mappings)`;
  const issuesOf = async (load: () => Promise<unknown>): Promise<string[]> => {
    const err = await load().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).issues.map(formatIssue);
  };

  it('docops.yaml', async () => {
    const file = join(dir, 'docops.yaml');
    writeFileSync(file, 'safety:\n  deletes: { max: 5 }\n   updates: { max: 5 }\n');
    expect(await issuesOf(() => loadConfig(file, { env: {} }))).toEqual([
      `${file}:3:4: indentation: "updates" is indented 3 spaces, but "deletes" on line 2 is indented 2; keys of one mapping start at the same column (YAML: All mapping items must start at the same column)`,
    ]);
  });

  it('a policy file', async () => {
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, 'rules:\n  - name: no-deletes\n     when: change.action == "delete"\n');
    expect(await issuesOf(() => loadPolicyPath(file))).toEqual([
      `${file}:3:6: indentation: "when" is indented 5 spaces, but "name" on line 2 is indented 4; keys of one mapping start at the same column (YAML: Nested mappings are not allowed in compact mappings)`,
    ]);
  });

  it('a manifest, and a brand file a Site manifest names', async () => {
    const manifests = join(dir, 'manifests');
    mkdirSync(manifests);
    writeFileSync(
      join(manifests, 'site.yaml'),
      'apiVersion: docops/v1\nkind: Site\nmetadata:\n  organization: org-demo\nspec:\n  title: Help\n  customization: { file: brand.yaml }\n',
    );
    writeFileSync(join(manifests, 'brand.yaml'), 'styling:\n  font: Inter\n   primaryColor: { light: "#FF6600" }\n');
    writeFileSync(join(manifests, 'team.yaml'), `${TEAM}  title: Platform\n   members: []\n`);
    expect(await issuesOf(() => loadManifests(manifests, KINDS))).toEqual([
      `${join(manifests, 'brand.yaml')}:3:4: ${OVER('primaryColor', 'font')}`,
      `${join(manifests, 'team.yaml')}:7:4: indentation: "members" is indented 3 spaces, but "title" on line 6 is indented 2; keys of one mapping start at the same column (YAML: Nested mappings are not allowed in compact mappings)`,
    ]);
  });
});
