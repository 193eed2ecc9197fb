/**
 * The line reader (block-parse.ts) alone must give exactly what the `yaml` path gives wherever it answers, on
 * the fast path's whole corpus and generator, and must answer for the files docops itself writes (export, the
 * bench's generated organizations) — the large ones it exists for.
 */
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { orgDocuments, manifestText } from '../../src/bench/documents.js';
import { generateOrg, scaledSizes, BENCH_SIZES } from '../../src/bench/org-model.js';
import { blockParseYaml } from '../../src/manifests/block-parse.js';
import { renderManifestFile, renderDocument } from '../../src/export/write.js';
import type { Env } from '../../src/manifests/interpolate.js';
import { parseYamlFileWith, type ParseResult } from '../../src/manifests/parse.js';
import { withNoDocumentsIssue, yamlInput } from '../../src/manifests/parse-input.js';
import { KINDS } from '../../src/kinds/index.js';
import { REPO } from '../daemon/build.js';
import { cases, compareWith, ENV, file, fileOf, summary, type Tree } from './yaml-corpus.js';

/** The line reader alone, between the same checks of the text and of the result as every path. */
function block(text: string): ParseResult | undefined {
  const input = yamlInput('f.yaml', text, {});
  if ('result' in input) return input.result;
  const r = blockParseYaml('f.yaml', input.text);
  return r && withNoDocumentsIssue('f.yaml', r);
}
const compare = (text: string, env: Env = ENV): ParseResult | undefined => compareWith(block, text, env);

describe('differential: line reader = yaml path', () => {
  for (const [name, text] of Object.entries(cases)) test(name, () => void compare(text));
});

const MANIFEST = [
  '# yaml-language-server: $schema=../schemas/document.schema.json',
  '# Members of the org',
  'apiVersion: docops/v1',
  'kind: Members',
  'metadata:',
  '  organization: org-1',
  'spec:',
  '  members:',
  '    - email: "user0@example.com"',
  '      role: admin   # owner',
  '    # a comment between items',
  '    - email: user1@example.com',
  "      role: 'it''s'",
  '      enabled: true',
  '      limit: 42',
  '      ratio: -1.5',
  '      none: ~',
  '      text: a#b c,d [x] {y} http://z',
  '  empty:',
  '',
  '---',
  'apiVersion: docops/v1',
  'kind: Team',
  'spec:',
  '  title: Docs',
  '  members:',
  '  - email: same-column@example.com',
  '---',
  '',
].join('\n');

describe('the line reader answers for the shapes docops and its users write', () => {
  test('a multi-document manifest: comments, quotes, typed scalars, empty values', () => {
    // The second document's sequence sits at its key's column: declined, so cut it to check the rest answers.
    const text = MANIFEST.replace('  - email: same-column@example.com', '    - email: deeper@example.com');
    const r = compare(text);
    expect(r).toBeDefined();
    expect(r!.documents.map((d) => d.index)).toEqual([0, 1]);
    const members = (r!.documents[0]!.value as { spec: { members: Record<string, unknown>[]; empty: unknown } }).spec;
    expect(members.empty).toBeNull();
    expect(members.members[1]).toEqual({ email: 'user1@example.com', role: "it's", enabled: true, limit: 42, ratio: -1.5, none: null, text: 'a#b c,d [x] {y} http://z' });
    expect(r!.documents[0]!.pos(['spec', 'members', 1, 'limit'])).toEqual({ file: 'f.yaml', line: 15, column: 14 });
    expect(r!.documents[0]!.keyPos(['spec', 'members', 1, 'limit'])).toEqual({ file: 'f.yaml', line: 15, column: 7 });
  });

  test('a comment line deeper than the scalar before it is a comment, as in yaml', () => {
    expect(compare('a: x\n  # c\nb: y\n')?.documents[0]?.value).toEqual({ a: 'x', b: 'y' });
    expect(block('a: x\n  # c\n  y\n')).toBeUndefined();
  });

  test('declines a sequence at its key column (the js-yaml path reads it)', () => {
    expect(block(MANIFEST)).toBeUndefined();
  });

  test('the bench organization as its manifests are written (every kind, members and teams)', () => {
    const org = generateOrg(scaledSizes(BENCH_SIZES, 300));
    const files = orgDocuments(org, new Set(KINDS.map((k) => k.kind)));
    expect(files.size).toBeGreaterThan(3);
    for (const [name, docs] of files) expect(compare(manifestText(docs)), name).toBeDefined();
  });

  test('what export writes (schema comment, note, documents)', () => {
    const docs = [
      { apiVersion: 'docops/v1', kind: 'Space', metadata: { organization: 'org-1' }, spec: { title: 'Guide', visibility: 'public', parent: 'Handbook' } },
      { apiVersion: 'docops/v1', kind: 'Team', metadata: { organization: 'org-1' }, spec: { title: 'API', members: [{ email: 'a@x.test', role: 'owner' }, { email: 'b@x.test' }] } },
    ];
    const text = renderManifestFile('/tmp/m/spaces.yaml', docs.map(renderDocument), 'exported by docops');
    const r = compare(text);
    expect(r).toBeDefined();
    expect(r!.documents.map((d) => d.value)).toEqual(docs);
  });

  test.each([
    ['a nested flow collection', 'a: [1, [2]]\n'],
    ['a flow collection over two lines', 'a: [1,\n  2]\n'],
    ['a flow map entry without a value', 'a: { b }\n'],
    ['a trailing comma', 'a: [1, 2, ]\n'],
    ['a comment inside a flow collection', 'a: [1, 2 # c\n  ]\n'],
    ['a variable', 'a: ${A}\n'],
    ['an escape', 'a: "x\\ty"\n'],
    ['an anchor', 'a: &x 1\n'],
    ['a block scalar', 'a: |\n  x\n'],
    ['a multi-line plain scalar', 'a: x\n  y\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a quoted key', '"a": 1\n'],
    ['a numeric key', '1: a\n'],
    ['a boolean key', 'true: a\n'],
    ['a __proto__ key', '__proto__: 1\n'],
    ['CRLF', 'a: 1\r\n'],
    ['an empty document between separators', 'a: 1\n---\n---\nb: 2\n'],
    ['a root scalar', 'hello\n'],
    ['an empty sequence item', '- a\n-\n'],
    ['a nested sequence on one line', '- - a\n'],
    ['a non-JSON number', 'a: .inf\n'],
    ['a control character', 'a: x\u0007y\n'],
    ['an indented root', '  a: 1\n'],
  ])('declines %s', (_name, text) => {
    expect(block(text)).toBeUndefined();
  });

  test('yaml stringify of nested maps and sequences reads back the same', () => {
    const value = { a: { b: [{ c: 1, d: [1, 'x'] }, 'y'], e: { f: { g: 'deep' } } }, h: [] as unknown[], i: 'x: y' };
    const r = compare(stringify(value));
    expect(r?.documents[0]?.value).toEqual(value);
  });

  test('flat one-line flow collections, as config.example writes its lists', () => {
    const text = 'members:\n  - { email: a@x.test, role: admin }   # c\n  - {email: "b@x.test", role: \'edit\'}\nteams: [docs, api, 7, ~]\nnone: {}\nempty: [ ]\n';
    const r = compare(text);
    expect(r?.documents[0]?.value).toEqual({ members: [{ email: 'a@x.test', role: 'admin' }, { email: 'b@x.test', role: 'edit' }], teams: ['docs', 'api', 7, null], none: {}, empty: [] });
    expect(r!.documents[0]!.pos(['members', 1, 'role'])).toEqual({ file: 'f.yaml', line: 3, column: 31 });
    expect(r!.documents[0]!.keyPos(['members', 1, 'role'])).toEqual({ file: 'f.yaml', line: 3, column: 25 });
  });

  test('config.example: every manifest but the site (nested flow maps) and the OpenAPI file (block scalars)', () => {
    const dir = join(REPO, 'config.example', 'manifests');
    const files = readdirSync(dir).filter((n) => n.endsWith('.yaml'));
    const answered = files.filter((f) => compare(readFileSync(join(dir, f), 'utf8')) !== undefined);
    expect(answered.sort()).toEqual(files.filter((f) => f !== 'site.yaml' && f !== 'petstore.openapi.yaml').sort());
  });
});

// ---- generated files in (and near) the shape the line reader takes ----

/** Plain-word keys, and a few it must decline (typed, quoted, spaced, non-ASCII, __proto__). */
const BLOCK_KEYS = ['a', 'name', 'email', 'role', 'spec', 'k-1', 'x.y', 'a/b', '_x', 'yes', 'no', 'on', 'y', 'e3', 'constructor', 'Null2'];
const HOSTILE_KEYS = ['true', 'null', '1', '__proto__', '"q"', "'s'", 'a b', 'é', 'a:b', '<<'];
/** Plain, single- and double-quoted scalars, many of them next to what YAML reads otherwise. */
const SAFE_SCALARS = ['x', 'a b', 'user0@example.com', 'a#b', 'a #b', 'x,y', '-1', '1.5', '~', 'true', "'it''s'", '"x"', '""', 'é', '0x1F', 'yes', 'a:b', '[a, 1]', '{ email: a@x.test, role: admin }', '[]'];
const BLOCK_SCALARS = [
  'x', 'a b', 'a  b', 'user0@example.com', 'http://x.test/a?b=c', 'a#b', 'a #b', 'x,y', 'x]', '{y}', 'a:b', 'a: b', 'a:', '-a', '--x', '- a', '-',
  '1', '-1', '0', '-0', '+5', '1.5', '-1.5e3', '.5', '1.', '0x1F', '0o17', '017', '1_000', '12345678901234567890', '.inf', '.nan', '2024-01-01',
  '~', 'null', 'Null', 'NULL', 'nUll', 'true', 'False', 'TRUE', 'yes', 'off',
  "'it''s'", "'a # b'", "''", "'x' # c", "'x'#c", "'''", '"x"', '""', '"a # b"', '"a\\tb"', '"x" y', '"é 😀"', "'multi",
  '=', '&a', '*a', '!t', '|', '>', '%x', '@x', '`x', '?x', ':x', '[z]', '# c', 'é', 'a ',
  '[a, b]', '[ 1, "x", \'y\' ]', '[]', '[ ]', '{}', '{ a: 1, b: x }', '{a: "q", b: ~}', '{ a: [1] }', '[a, ]', '[a,,b]', '{ a }', '{ a: }', '[a #b]', '[a:b]', '{ a:b }', '{ "a": 1 }', '{ true: 1 }', '{ a: 1, a: 2 }', '[-1, -x, - y]', '[a]#c', '[a] # c', '{ a: b c, d: e  }', '[x y, z]', 'x\u0007y'.replace('\\u0007', '\u0007'),
];

const blockStyle = fc.oneof({ arbitrary: fc.nat(63).map((st) => st & ~(2 | 8)), weight: 20 }, { arbitrary: fc.nat(63), weight: 1 });
const blockArbs = fc.letrec<{ node: Tree; map: Tree; seq: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: fc.record({ scalar: fc.oneof({ arbitrary: fc.constantFrom(...SAFE_SCALARS), weight: 15 }, { arbitrary: fc.constantFrom(...BLOCK_SCALARS), weight: 1 }), style: blockStyle }), weight: 4 },
    { arbitrary: tie('map'), weight: 4 },
    { arbitrary: tie('seq'), weight: 4 },
  ),
  map: fc.record({
    // Keys mostly distinct (a duplicate is declined), sometimes not.
    map: fc.oneof(
      { arbitrary: fc.uniqueArray(fc.tuple(fc.oneof({ arbitrary: fc.constantFrom(...BLOCK_KEYS), weight: 40 }, { arbitrary: fc.constantFrom(...HOSTILE_KEYS), weight: 1 }), fc.option(tie('node'), { freq: 6 })), { minLength: 1, maxLength: 4, selector: ([k]) => k }), weight: 9 },
      { arbitrary: fc.array(fc.tuple(fc.constantFrom(...BLOCK_KEYS), fc.option(tie('node'), { freq: 6 })), { minLength: 1, maxLength: 4 }), weight: 1 },
    ),
    style: blockStyle,
  }),
  // Items are never empty (`-` alone is declined); fc.option would make them so more and more with depth.
  seq: fc.record({ seq: fc.array(tie('node'), { minLength: 1, maxLength: 4 }), style: blockStyle }),
}));
/** Documents are maps or sequences (a root scalar is declined), rarely with CRLF. */
const blockFile = fileOf(fc.oneof(blockArbs.map, blockArbs.seq), { crlfPercent: 5, mutatedPercent: 30 });

describe('every YAML file in the repository', () => {
  // Manifests good and bad (test/fixtures), config.example, deploy/, the Action: wherever the line reader
  // answers, it must read what the yaml path reads. (Bad input is where a reader's corners show.)
  const files = execFileSync('git', ['ls-files', '*.yaml', '*.yml'], { cwd: REPO, encoding: 'utf8' }).split('\n').filter((f) => f !== '');

  test('reads the same as the yaml path wherever it answers', () => {
    expect(files.length).toBeGreaterThan(100);
    let answered = 0;
    for (const f of files) {
      const bytes = readFileSync(join(REPO, f));
      const input = yamlInput(f, bytes, {});
      if ('result' in input) continue;
      const slow = parseYamlFileWith(f, bytes, {}, { fast: false });
      const r = blockParseYaml(f, input.text);
      if (r === undefined) continue;
      answered++;
      expect(summary(withNoDocumentsIssue(f, r)), f).toEqual(summary(slow));
    }
    expect(answered).toBeGreaterThan(50);
  });

  test('and so does the whole fast path (the line reader, then js-yaml)', () => {
    let answered = 0;
    for (const f of files) {
      const bytes = readFileSync(join(REPO, f));
      const fast = parseYamlFileWith(f, bytes, {}, { fast: true });
      if (fast === undefined) continue;
      answered++;
      expect(summary(fast), f).toEqual(summary(parseYamlFileWith(f, bytes, {}, { fast: false })));
    }
    expect(answered).toBeGreaterThan(100);
  });
});

describe('differential property', () => {
  test('files in the line reader\'s shape read the same on it and the yaml path', () => {
    let answered = 0;
    fc.assert(
      fc.property(blockFile, (text) => {
        if (compare(text) !== undefined) answered++;
      }),
      { numRuns: Number(process.env.FAST_RUNS ?? 1000) },
    );
    // Most generated files must be answered, or the property would prove little.
    expect(answered).toBeGreaterThan(200);
  });

  test('the fast path\'s generated manifests read the same on the line reader and the yaml path', () => {
    let answered = 0;
    fc.assert(
      fc.property(file, (text) => {
        if (compare(text) !== undefined) answered++;
      }),
      { numRuns: Number(process.env.FAST_RUNS ?? 400) },
    );
    // That generator writes mostly shapes the line reader declines (flow, variables, escapes): only none may differ.
    expect(answered).toBeGreaterThanOrEqual(0);
  });
});
