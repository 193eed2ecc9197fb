/**
 * The js-yaml fast path must give exactly what the `yaml` path gives (values, document indexes, issues, pos()
 * and keyPos() for every path) wherever it answers, and must answer for the common manifest shape.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { everyVariable, type Env } from '../../src/manifests/interpolate.js';
import { parseYamlFileWith, type ParseResult } from '../../src/manifests/parse.js';
import { REPO } from '../daemon/build.js';
import { cases, ENV, file, compareWith } from './yaml-corpus.js';

/** Fast result (or undefined when it declined) and the yaml path's result, compared. */
const compare = (text: string, env: Env = ENV): ParseResult | undefined =>
  compareWith((t, e) => parseYamlFileWith('f.yaml', t, { vars: everyVariable(e) }, { fast: true }), text, env);

describe('differential: fast path = yaml path', () => {
  for (const [name, text] of Object.entries(cases)) test(name, () => void compare(text));
});

describe('the fast path answers for the common manifest shape', () => {
  const manifest = [
    '# Members of the org',
    'apiVersion: docops/v1',
    'kind: Members',
    'metadata:',
    '  organization: org-${A}',
    'spec:',
    '  members:',
    '    - email: "user0@example.com"',
    '      role: admin   # owner',
    '    - email: user1@example.com',
    "      role: 'edit'",
    '      teams: [docs, api]',
    '      enabled: true',
    '      limit: ${N}',
    '  empty:',
    '---',
    'apiVersion: docops/v1',
    'kind: Space',
    'spec:',
    '  title: Space 0',
    '---',
    '',
  ].join('\n');

  test('a multi-document manifest with comments, quotes, flow sequences and ${VAR}', () => {
    const fast = compare(manifest);
    expect(fast).toBeDefined();
    expect(fast!.documents.map((d) => d.index)).toEqual([0, 1]);
    expect(fast!.documents[0]!.value).toMatchObject({ metadata: { organization: 'org-alpha' }, spec: { empty: null } });
    expect((fast!.documents[0]!.value as { spec: { members: { limit?: number }[] } }).spec.members[1]!.limit).toBe(42);
  });

  test('the same with CRLF line endings', () => {
    expect(compare(manifest.replace(/\n/g, '\r\n'))).toBeDefined();
  });

  test('every manifest of config.example (flow maps in sequences)', () => {
    const dir = join(REPO, 'config.example', 'manifests');
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) expect(compare(readFileSync(join(dir, f), 'utf8')), f).toBeDefined();
  });

  test.each(['flow maps in a sequence', 'flow map at the root', 'empty flow maps', 'flow map with a JSON-like pair', 'json scalars', 'json scalars in a sequence', 'comments', 'crlf', 'unicode', 'multi-document with empty documents', 'root scalar', 'interpolation errors in order', 'merge key with a block map', '__proto__ key', 'json numeric-looking keys', 'empty values', 'double-quoted escapes', 'value on the next line', 'root scalar followed by blank lines', '__proto__ in a merge source'])(
    'answers: %s',
    (name) => {
      expect(compare(cases[name]!)).toBeDefined();
    },
  );

  test.each(['flow map without a value', 'flow map with an empty value', 'flow map with a merge key', 'multi-line flow map', 'flow map with duplicate keys', 'flow map with a comment right after it', 'non-JSON numbers', 'anchors and aliases', 'tags', 'block scalar', 'multi-line plain', 'duplicate keys', 'syntax error', 'directive', 'null key', 'comment right after a quote', 'lone CR', 'long key'])(
    'declines: %s',
    (name) => {
      expect(parseYamlFileWith('f.yaml', cases[name]!, { vars: everyVariable(ENV) }, { fast: true })).toBeUndefined();
    },
  );
});

describe('differential property', () => {
  test('generated manifests read the same on both paths', () => {
    let answered = 0;
    fc.assert(
      fc.property(file, (text) => {
        if (compare(text) !== undefined) answered++;
      }),
      // FAST_RUNS=20000 for a deeper search when changing the fast path.
      { numRuns: Number(process.env.FAST_RUNS ?? 400) },
    );
    // The generator must mostly produce inputs the fast path takes, or the property would prove little.
    expect(answered).toBeGreaterThan(100);
  });
});
