/**
 * Odd but possible YAML through the whole loader: complex and non-string keys, tags, merge keys, anchors on
 * keys, aliases, duplicate keys, huge integers, `.nan`, binary, timestamps, sets and omaps, directives, a BOM,
 * CRLF, tabs, nested `${…}` defaults. Whatever comes in, loadManifests either loads JSON data or throws a
 * ValidationError whose every issue has a file and a line and column ≥ 1 — never another error, and the YAML
 * libraries never print (process.emitWarning, process.stderr).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, test, vi, type MockInstance } from 'vitest';
import { formatIssue, UsageError, ValidationError } from '../../src/model/errors.js';
import { KINDS } from '../../src/kinds/index.js';
import { loadManifests } from '../../src/manifests/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'docops-odd-yaml-'));
const file = path.join(dir, 'odd.yaml');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ENV = {
  A: 'alpha',
  B: '',
  N: '42',
  HUGE: '123456789012345678901234567890',
  NAN: '.nan',
  TAGGED: '!!binary aGk=',
  KEYISH: '[a]: b',
  DOCOPS_TOKEN: 'tok-odd-yaml-0123456789',
};
const LOAD = {
  env: ENV,
  allowEnv: ['A', 'B', 'N', 'HUGE', 'NAN', 'TAGGED', 'KEYISH', 'DOCOPS_TOKEN'],
  secrets: [ENV.DOCOPS_TOKEN],
};

let warnings: MockInstance;
let stderr: MockInstance;
beforeEach(() => {
  warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
  stderr = vi.spyOn(process.stderr, 'write');
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Load `text` as one file; the issues when rejected, or the loaded documents. */
async function load(text: string | Uint8Array): Promise<{ issues?: string[]; docs?: unknown[] }> {
  writeFileSync(file, text);
  try {
    const { documents } = await loadManifests(file, KINDS, LOAD);
    return { docs: documents.map((d) => ({ metadata: d.metadata, spec: d.spec })) };
  } catch (e) {
    if (e instanceof ValidationError) {
      for (const i of e.issues) {
        expect(i.file, formatIssue(i)).toBe(file);
        expect(i.line, formatIssue(i)).toBeGreaterThanOrEqual(1);
        expect(i.column, formatIssue(i)).toBeGreaterThanOrEqual(1);
        expect(i.message, formatIssue(i)).not.toMatch(/mapAsMap|^\s*$/);
        expect(i.message).not.toContain(ENV.DOCOPS_TOKEN);
      }
      return { issues: e.issues.map((i) => `${i.line}:${i.column}: ${i.message}`) };
    }
    if (e instanceof UsageError) return { issues: [e.message] };
    throw e;
  }
}

/** What loaded is plain JSON data (no Buffer, Date, Map, Set, NaN, ±Infinity, cycles). */
function expectJsonData(docs: unknown[]): void {
  expect(JSON.parse(JSON.stringify(docs))).toEqual(docs);
}

function expectSilent(): void {
  expect(warnings).not.toHaveBeenCalled();
  expect(stderr).not.toHaveBeenCalled();
}

const header = (kind = 'Team', org = 'org-demo') =>
  `apiVersion: docops/v1\nkind: ${kind}\nmetadata:\n  organization: ${org}\nspec:\n`;

describe('representative odd YAML: docops’s own message at file:line:column, nothing printed', () => {
  const cases: [string, string, string][] = [
    [
      'complex key',
      `${header()}  title: T\n  ? [a, b]\n  : c\n`,
      '7:5: a mapping key must be a plain value, not a list or mapping',
    ],
    [
      'flow list as key',
      `${header()}  title: T\n[a]: 2\n`,
      '7:1: a mapping key must be a plain value, not a list or mapping',
    ],
    [
      'alias to a list as key',
      `x: &l [1]\n${header()}  title: T\n  *l : 2\n`,
      '8:3: a mapping key must be a plain value, not a list or mapping',
    ],
    ['binary', `${header()}  title: !!binary aGVsbG8=\n`, '6:19: tag !!binary is not supported'],
    ['timestamp', `${header()}  title: !!timestamp 2020-01-01\n`, '6:22: tag !!timestamp is not supported'],
    ['set', `${header()}  title: T\n  members: !!set {a, b}\n`, '7:18: tag !!set is not supported'],
    ['omap', `${header()}  title: T\n  members: !!omap [a: 1]\n`, '7:19: tag !!omap is not supported'],
    ['.nan', `${header()}  title: .nan\n`, '6:10: NaN is not a number JSON can hold'],
    ['-.inf', `${header()}  title: -.inf\n`, '6:10: -Infinity is not a number JSON can hold'],
    [
      'huge integer',
      `${header()}  title: T\n  id: 123456789012345678901234567890\n`,
      '7:7: integer too large to be exact (over 2^53): quote it if it is text',
    ],
    [
      'merge of a list',
      `base: &b [1]\n${header()}  <<: *b\n  title: T\n`,
      '7:7: a merge (<<) takes a mapping, or a list of mappings',
    ],
    [
      'merge of a scalar',
      `${header()}  <<: 3\n  title: T\n`,
      '6:7: a merge (<<) takes a mapping, or a list of mappings',
    ],
    [
      'cyclic alias',
      `${header()}  title: T\n  members: &m\n    - *m\n`,
      '8:7: alias *m is inside the node it names (a cycle)',
    ],
    ['duplicate key', `${header()}  title: A\n  title: B\n`, '7:3: duplicate key "title" (first set on line 6)'],
    ['unknown tag', `${header()}  title: !Ref x\n`, '6:10: YAML warning (treated as an error): Unresolved tag: !Ref'],
    [
      'unsupported version',
      `%YAML 1.3\n---\n${header()}  title: T\n`,
      '1:7: YAML warning (treated as an error): Unsupported YAML version 1.3',
    ],
    [
      'tabs as indentation',
      `${header()}\ttitle: T\n`,
      '6:1: a tab in the indentation: YAML indents with spaces only (YAML: Tabs are not allowed as indentation)',
    ],
    ['nested default left open', `${header()}  title: "\${A:-\${B}"\n`, '6:10: unterminated variable reference'],
  ];
  test.each(cases)('%s', async (_name, text, expected) => {
    const { issues } = await load(text);
    expect(issues?.[0]).toContain(expected);
    expectSilent();
  });

  test('what loads is plain data: anchors on keys, merges, core tags, BOM, CRLF, directives, nested defaults', async () => {
    const text =
      `\ufeff%YAML 1.2\n---\n${header()}  &t title: "\${B:-\${A}} \${N:-x}"\n  <<: { id: team-1 }\n  members: !!seq [ { email: a@acme.test } ]\n`.replace(
        /\n/g,
        '\r\n',
      );
    const { docs, issues } = await load(text);
    expect(issues).toBeUndefined();
    expect(docs).toEqual([
      {
        metadata: { organization: 'org-demo' },
        spec: { title: 'alpha 42', id: 'team-1', members: [{ email: 'a@acme.test' }] },
      },
    ]);
    expectSilent();
  });

  test('a substituted value is typed only when JSON holds it exactly, and never prints', async () => {
    for (const name of ['HUGE', 'NAN', 'TAGGED', 'KEYISH']) {
      const { issues } = await load(`${header()}  title: \${${name}}\n`);
      // Each stays the text it was: a string title, valid.
      expect(issues, name).toBeUndefined();
    }
    expectSilent();
  });
});

// ---- generated odd documents ----

const ODD_KEYS = [
  '? [a, b]\n  : c',
  '[x]: 1',
  '{a: 1}: 2',
  '&k title: T',
  '*k : 1',
  '<<: {x: 1}',
  '<<: [ {x: 1}, 3 ]',
  '1: one',
  '0x10: hex',
  'true: yes',
  '~: nil',
  '.nan: n',
  '"q": 1',
  "'s': 2",
  '!!str 5: five',
  '!!binary aGk=: b',
  '? !!set {a}\n  : s',
  'title: T',
  'title: U',
  'id: x',
];
const ODD_VALUES = [
  '!!binary aGVsbG8=',
  '!!timestamp 2001-12-14t21:59:43.10-05:00',
  '2001-12-14',
  '!!set {a, b}',
  '!!omap [a: 1, b: 2]',
  '!!pairs [a: 1]',
  '.nan',
  '.inf',
  '-.Inf',
  '123456789012345678901234567890',
  '0x7FFFFFFFFFFFFFFFF',
  '0o777',
  '1e400',
  '9007199254740993',
  '*a',
  '&a [1, 2]',
  '&a {x: 1}',
  '&a\n    y: *a',
  '!Ref x',
  '!!str',
  '!!int "x"',
  '!!float 1',
  '${A}',
  '${A:-${B:-${N}}}',
  '${DOCOPS_TOKEN}',
  '${HUGE}',
  '${NAN}',
  '${UNLISTED}',
  '$${x}',
  '|\n    block',
  '>-\n    folded',
  '"\\U0001F600"',
  '"\\x"',
  'null',
  '~',
  'yes',
  'on',
  '"a\\tb"',
  "'it''s'",
  '[a, {b: c}]',
  '{a: [1, 2]}',
  '- x\n    - y',
  '!<tag:yaml.org,2002:str> s',
  '!e!x 1',
  '"\\ud800"',
];
const PREFIXES = [
  '',
  '\ufeff',
  '%YAML 1.2\n---\n',
  '%YAML 1.1\n---\n',
  '%TAG !e! tag:example.com,2000:\n---\n',
  '---\n',
  '# c\n',
  'x: &a {y: 1}\n---\n',
  '--- !!set\n',
];
const KINDS_USED = ['Team', 'Site', 'Organization', 'Members', 'Space', 'Collection', 'Translation'];

/** Valid but unusual: must load, as plain data. */
const FINE_LINES = [
  '&k title: T',
  'title: "${B:-${A}}"',
  '<<: {title: M}',
  '<<: [{id: team-1}, {id: team-2}]',
  'id: !!str team-9',
  'title: !!str 5',
  '# comment',
  'title: >-\n    folded',
  'title: |\n    block',
];
const fineDocument = fc
  .record({
    prefix: fc.constantFrom('', '\ufeff', '%YAML 1.2\n---\n', '---\n', '# c\n'),
    lines: fc.uniqueArray(fc.constantFrom(...FINE_LINES), {
      minLength: 1,
      maxLength: 3,
      selector: (l) => l.replace(/^(&k |<<: )/, '').split(':')[0],
    }),
    crlf: fc.boolean(),
  })
  .map(({ prefix, lines, crlf }) => {
    const text = `${prefix}${header()}  title: Base\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
    return crlf ? text.replace(/\n/g, '\r\n') : text;
  });

const oddDocument = fc
  .record({
    prefix: fc.constantFrom(...PREFIXES),
    kind: fc.constantFrom(...KINDS_USED),
    org: fc.constantFrom('org-demo', '${A}', '..', '&o org-demo', '!!str org', '[a]', '123456789012345678901234567890'),
    lines: fc.array(
      fc.oneof(
        fc.constantFrom(...ODD_KEYS),
        fc
          .tuple(
            fc.constantFrom('title', 'id', 'members', 'proxy', 'spaces', 'x', '<<'),
            fc.constantFrom(...ODD_VALUES),
          )
          .map(([k, v]) => `${k}: ${v}`),
      ),
      { minLength: 1, maxLength: 5 },
    ),
    crlf: fc.boolean(),
    tab: fc.option(fc.nat(400), { freq: 4 }),
    mutation: fc.option(
      fc.tuple(
        fc.nat(400),
        fc.constantFrom(
          '',
          ' ',
          ':',
          '- ',
          '#',
          '"',
          '[',
          '{',
          '}',
          '&',
          '*',
          '!',
          '?',
          '<<',
          '%',
          '---\n',
          '...\n',
          '\t',
          '\\',
        ),
      ),
      { freq: 3 },
    ),
  })
  .map(({ prefix, kind, org, lines, crlf, tab, mutation }) => {
    let text = `${prefix}${header(kind, org)}${lines.map((l) => `  ${l}`).join('\n')}\n`;
    if (tab !== null) {
      const i = tab % text.length;
      text = text.slice(0, i) + '\t' + text.slice(i);
    }
    if (mutation !== null) {
      const [at, insert] = mutation;
      const i = at % text.length;
      text = text.slice(0, i) + insert + text.slice(i + (insert === '' ? 1 : 0));
    }
    return crlf ? text.replace(/\n/g, '\r\n') : text;
  });

describe('property: odd YAML never escapes as anything but a ValidationError, and nothing is printed', () => {
  test('generated documents', async () => {
    let rejected = 0;
    let loaded = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ arbitrary: oddDocument, weight: 4 }, { arbitrary: fineDocument, weight: 1 }),
        async (text) => {
          const { docs, issues } = await load(text);
          if (docs) {
            expectJsonData(docs);
            loaded++;
          } else {
            expect(issues!.length).toBeGreaterThan(0);
            rejected++;
          }
          expectSilent();
        },
      ),
      { numRuns: Number(process.env.ODD_RUNS ?? 300), seed: 20261124 },
    );
    // Both outcomes must occur, or the generator would prove little.
    expect(rejected).toBeGreaterThan(50);
    expect(loaded).toBeGreaterThan(0);
  });
});
