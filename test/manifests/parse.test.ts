/** parseYamlFile: positions, fallbacks and the per-file problems, on in-memory text. */
import { describe, expect, test } from 'vitest';
import { formatIssue } from '../../src/model/errors.js';
import { everyVariable, parseYamlFile } from '../../src/manifests/index.js';

const lines = (r: ReturnType<typeof parseYamlFile>): string[] => r.issues.map(formatIssue);
const at = (p: { line: number; column: number }): string => `${p.line}:${p.column}`;

describe('positions', () => {
  const text = [
    'a: 1',
    'spec:',
    '  members:',
    '    - email: x@y.z',
    '      role: read',
    '    - { email: q }',
    '  empty:',
    'last: end',
    '',
  ].join('\n');
  const [doc] = parseYamlFile('f.yaml', text).documents;

  test('pos gives the start of the value at a path', () => {
    expect(at(doc!.pos(['a']))).toBe('1:4');
    expect(at(doc!.pos(['spec', 'members', 0]))).toBe('4:7');
    expect(at(doc!.pos(['spec', 'members', 0, 'role']))).toBe('5:13');
    expect(at(doc!.pos(['spec', 'members', 1, 'email']))).toBe('6:16');
    expect(at(doc!.pos([]))).toBe('1:1');
  });

  test('a key with no value points at the key', () => {
    expect(at(doc!.pos(['spec', 'empty']))).toBe('7:3');
  });

  test('missing paths fall back to the nearest existing parent', () => {
    expect(at(doc!.pos(['spec', 'members', 0, 'missing']))).toBe('4:7'); // the item's mapping
    expect(at(doc!.pos(['spec', 'members', 7, 'email']))).toBe('4:5'); // the sequence
    expect(at(doc!.pos(['nope', 'deeper']))).toBe('1:1');
  });

  test('keyPos points at the key, and falls back like pos', () => {
    expect(at(doc!.keyPos(['spec', 'members', 0, 'role']))).toBe('5:7');
    expect(at(doc!.keyPos(['spec', 'members', 0]))).toBe('4:7');
    expect(at(doc!.keyPos(['spec', 'members', 0, 'missing']))).toBe('4:7');
  });

  test('an alias is found where it is written, and what is below it in the node it names; merged-in keys fall back to their map', () => {
    const text = [
      'base: &b {role: read, email: q}',
      'x: *b',
      'y:',
      '  <<: *b',
      '  email: z',
      'list:',
      '  -',
      '  - a',
      '  - *b',
      '"a b": 1',
      '1: one',
      '',
    ].join('\n');
    const [d] = parseYamlFile('a.yaml', text).documents;
    const both = (path: (string | number)[]): string => `${at(d!.pos(path))} ${at(d!.keyPos(path))}`;
    expect(both(['x'])).toBe('2:4 2:1');
    expect(both(['x', 'role'])).toBe('1:17 1:11');
    expect(both(['list', 2, 'email'])).toBe('1:30 1:23');
    expect(both(['y', 'email'])).toBe('5:10 5:3');
    expect(both(['y', 'role'])).toBe('4:3 4:3'); // merged in: not written in y
    expect(both(['y', '<<'])).toBe('4:3 4:3'); // the merge key is no path segment
    expect(both(['list', 0])).toBe('7:4 7:4'); // an empty item: where its value would start
    expect(both(['list', 1])).toBe('8:5 8:5');
    expect(both(['a b'])).toBe('10:8 10:1');
    expect(both([1])).toBe('11:4 11:1');
    expect(both(['1'])).toBe('11:4 11:1');
    // An anchor named again inside its own node: the alias names the later (inner) one, as its value says.
    const [again] = parseYamlFile('a.yaml', 'a: &x {c: &x 1}\nb: *x\n').documents;
    expect(again!.value).toEqual({ a: { c: 1 }, b: 1 });
    expect(at(again!.pos(['b', 'c']))).toBe('2:4');
  });

  test('documents keep their index and file-relative lines', () => {
    const r = parseYamlFile('m.yaml', '---\na: 1\n---\n# nothing\n---\nb:\n  c: 2\n');
    expect(r.issues).toEqual([]);
    expect(r.documents.map((d) => [d.index, d.value, at(d.pos(['b', 'c']))])).toEqual([
      [0, { a: 1 }, '2:1'],
      [2, { b: { c: 2 } }, '7:6'],
    ]);
  });

  test('a byte-order mark does not shift columns', () => {
    const [d] = parseYamlFile('bom.yaml', Buffer.from('\ufeffa: 1\n', 'utf8')).documents;
    expect(at(d!.pos(['a']))).toBe('1:4');
    const [s] = parseYamlFile('bom.yaml', '\ufeffa: 1\n').documents;
    expect(at(s!.pos(['a']))).toBe('1:4');
  });
});

describe('problems', () => {
  test('each bad document is reported; the good ones still come back', () => {
    const r = parseYamlFile('f.yaml', 'a: 1\n---\nb: [\n---\nc: 1\nc: 2\n---\nd: ok\n');
    expect(lines(r)).toEqual([
      'f.yaml:3:4: unclosed "[": the list opened here has no "]" (one written over several lines must indent them more than its key) (YAML: Flow sequence in block collection must be sufficiently indented and end with a ])',
      'f.yaml:6:1: duplicate key "c" (first set on line 5)',
    ]);
    expect(r.documents.map((d) => d.value)).toEqual([{ a: 1 }, { d: 'ok' }]);
  });

  test('yaml warnings such as unknown tags are errors, not silently different values', () => {
    expect(lines(parseYamlFile('t.yaml', 'a: 1\nb: !Ref x\n'))).toEqual([
      't.yaml:2:4: YAML warning (treated as an error): Unresolved tag: !Ref',
    ]);
  });

  test('an alias bomb is stopped by the alias count guard', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
      '',
    ].join('\n');
    expect(lines(parseYamlFile('bomb.yaml', bomb))).toEqual([
      'bomb.yaml:1:1: document expands aliases too many times (possible alias bomb)',
    ]);
  });

  test('ordinary anchors, aliases and merge keys work', () => {
    const r = parseYamlFile('a.yaml', 'base: &b {role: read}\nx: *b\ny:\n  <<: *b\n  email: q\n');
    expect(r.issues).toEqual([]);
    expect(r.documents[0]!.value).toEqual({
      base: { role: 'read' },
      x: { role: 'read' },
      y: { role: 'read', email: 'q' },
    });
  });

  test('an alias without anchor is reported at the alias', () => {
    expect(lines(parseYamlFile('a.yaml', 'a: 1\nb: *nope\n'))).toEqual([
      'a.yaml:2:4: unknown alias *nope (the anchor &nope must come before it)',
    ]);
  });

  test('text with a NUL byte or over the cap is refused', () => {
    expect(lines(parseYamlFile('n.yaml', 'a: 1\nb: x\u0000y\n'))).toEqual([
      'n.yaml:2:5: file contains a NUL byte (binary file?)',
    ]);
    expect(lines(parseYamlFile('big.yaml', 'a: 12345\n', { maxFileBytes: 4 }))).toEqual([
      "big.yaml:1:1: file is too large (9 bytes; the limit is 4 bytes): split it into several files (one kind's documents, e.g. an organization's Members, may be spread over many)",
    ]);
  });

  test('invalid UTF-8 is found at the right byte, including truncated and overlong sequences', () => {
    const bytes = (...parts: (string | number[])[]) =>
      Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
    expect(lines(parseYamlFile('u.yaml', bytes('a: é\nb: x', [0xc3])))).toEqual([
      'u.yaml:2:5: file is not valid UTF-8 (byte 0xc3; binary file?)',
    ]);
    expect(lines(parseYamlFile('u.yaml', bytes('a: ', [0xc0, 0xaf])))).toEqual([
      'u.yaml:1:4: file is not valid UTF-8 (byte 0xc0; binary file?)',
    ]);
    expect(lines(parseYamlFile('u.yaml', bytes('a: ', [0xed, 0xa0, 0x80])))).toEqual([
      'u.yaml:1:4: file is not valid UTF-8 (byte 0xed; binary file?)',
    ]);
    expect(parseYamlFile('u.yaml', bytes('a: 😀 ü\n')).documents[0]!.value).toEqual({ a: '😀 ü' });
  });

  test('interpolation errors name the variable and point at the scalar; keys are left alone', () => {
    const r = parseYamlFile('e.yaml', 'a: ${MISSING}\n"${KEY}": "x ${BAD-NAME} ${OK}"\n', {
      vars: everyVariable({ OK: 'fine' }),
    });
    expect(lines(r)).toEqual([
      'e.yaml:1:4: environment variable "MISSING" is not set',
      'e.yaml:2:11: invalid variable reference "${BAD-NAME}" (names are [A-Za-z_][A-Za-z0-9_]*; write $${ for a literal ${)',
    ]);
    expect(r.documents).toEqual([]);
    expect(parseYamlFile('k.yaml', '"${KEY}": v\n').documents[0]!.value).toEqual({ '${KEY}': 'v' });
  });

  test('a plain scalar that is a substitution is typed like YAML would; quoted ones stay strings', () => {
    const env = { PORT: '8080', ON: 'true', NAME: 'docs' };
    const r = parseYamlFile('t.yaml', 'port: ${PORT}\nquoted: "${PORT}"\non: ${ON}\nname: ${NAME}\nmix: ${PORT}x\n', {
      vars: everyVariable(env),
    });
    expect(r.documents[0]!.value).toEqual({ port: 8080, quoted: '8080', on: true, name: 'docs', mix: '8080x' });
  });
});
