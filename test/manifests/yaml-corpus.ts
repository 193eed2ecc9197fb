/**
 * The corpus both YAML fast paths are held to (fast-parse.test.ts: js-yaml; block-parse.test.ts: the line
 * reader): hand-written cases, a generator of manifest-like files, and the summary compared with the `yaml` path.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { everyVariable, type Env } from '../../src/manifests/interpolate.js';
import { parseYamlFileWith, type ParseResult } from '../../src/manifests/parse.js';
import type { DocPath } from '../../src/manifests/paths.js';

export const ENV: Env = { A: 'alpha', N: '42', T: 'true', E: '', Z: '0o17', S: 'a: b', NUL: '~' };

/** Serializes key order, -0, NaN and ±Infinity too (toEqual would not tell some of these apart). */
export function canon(v: unknown): string {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (v === null || typeof v !== 'object') return `${typeof v}:${String(v)}`;
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  const proto = Object.getPrototypeOf(v) === Object.prototype ? '' : '!proto';
  return `{${proto}${Object.keys(v).map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** Every path in the value, plus paths that do not exist (to exercise the nearest-parent fallback). */
export function probePaths(value: unknown): DocPath[] {
  const out: DocPath[] = [[]];
  const extras: DocPath[] = [['nope'], [0], ['0'], ['<<'], [String(Symbol('<<'))], ['null'], ['1'], ['01'], ['true'], ['']];
  const walk = (v: unknown, path: DocPath): void => {
    for (const e of extras) out.push([...path, ...e]);
    if (Array.isArray(v)) v.forEach((item, i) => (out.push([...path, i], [...path, String(i)]), walk(item, [...path, i])));
    else if (v !== null && typeof v === 'object')
      for (const k of Object.keys(v)) {
        out.push([...path, k]);
        walk((v as Record<string, unknown>)[k], [...path, k]);
      }
  };
  walk(value, []);
  return out;
}

export function summary(r: ParseResult): unknown {
  return {
    issues: r.issues,
    documents: r.documents.map((d) => ({
      file: d.file,
      index: d.index,
      value: canon(d.value),
      positions: probePaths(d.value).map((p) => [p, d.pos(p), d.keyPos(p)]),
    })),
  };
}

export const SCALARS = [
  'true', 'True', 'TRUE', 'tRue', 'false', 'False', 'FALSE', 'yes', 'no', 'on', 'off', 'y', 'n',
  '~', 'null', 'Null', 'NULL', 'nUll',
  '0o17', '0o8', '0O17', '0x1F', '0X1F', '0x1g', '-0x1F', '0b1', '1_000', '017', '012', '09', '+12', '-12', '-0', '+0', '0',
  '12345678901234567890', '.inf', '-.Inf', '+.INF', '.NaN', '.nan', '.NAN', '-.nan', '.Nan', 'inf', 'NaN',
  '1e3', '1E3', '1e+3', '-1.5e-3', '.5e1', '1.e2', 'e3', '1.5', '1.', '.5', '+.5', '-1.0', '1.50', '1..2', '1,000',
  '2024-01-01', '2024-01-01T10:00:00Z', '12:30', '1:2:3', '<<', '=', '-a', 'a-', 'a:b', 'a #b', 'a#b', 'x,y', 'x]',
  '"1"', "'true'", '"~"', '""', "''", '"a\\tb"', '"\\u00e9\\x41\\n"', "'it''s'", '"say \\"hi\\""', '"\\/"', 
  'é ü 😀', 'ß', '${A}', '${N}', '${T}', '${E}', '${Z}', '${S}', '${NUL}', '${A:-d}', '${MISSING:-7}', '${MISSING}',
  '$${A}', 'x ${A} y', '${bad-name}', '${A', '"${N}"', "'${T}'", '${MISSING:-${N}}', '"${MISSING:-${A}}"', '${MISSING:-${M2:-z}}', '${MISSING:-${M2}}', '${A:-${M2}}', '[a, b]', '[1, "2", "${N}"]', '[]', '[a, [b, c]]',
];
/** Numbers JSON cannot hold exactly: the fast path leaves them to the yaml path, which reports them. */
export const NON_JSON_NUMBERS = ['12345678901234567890', '.inf', '-.Inf', '+.INF', '.NaN', '.nan', '.NAN', '0x1FFFFFFFFFFFFFFF', '1e400'];
export const JSON_SCALARS = SCALARS.filter((s) => !NON_JSON_NUMBERS.includes(s));
/** Not valid (in yaml) as a value; both paths must still agree. */
export const INVALID = ['a: b', '"a\\qb"', '[1, ${N}]', '"\\x4"', "'a' b"];

export const cases: Record<string, string> = {
  scalars: SCALARS.map((s, i) => `k${i}: ${s}`).join('\n') + '\n',
  'scalars in a sequence': SCALARS.map((s) => `- ${s}`).join('\n'),
  'scalar keys': SCALARS.filter((s) => !s.startsWith('[')).map((s, i) => `${s}: v${i}`).join('\n'),
  'json scalars': JSON_SCALARS.map((s, i) => `k${i}: ${s}`).join('\n') + '\n',
  'json scalars in a sequence': JSON_SCALARS.map((s) => `- ${s}`).join('\n'),
  'non-JSON numbers': NON_JSON_NUMBERS.map((s, i) => `k${i}: ${s}`).join('\n') + '\n',
  'json numeric-looking keys': '1: a\n02: b\n0x3: c\n1.5: d\ntrue: e\n-0: g\n',
  'invalid scalars': INVALID.map((s, i) => `k${i}: ${s}`).join('\n'),
  'empty values': 'a:\nb: # c\nc:\n  d:\ne: ~\nf: ""\ng:\n',
  comments: '# top\n\na: 1 # one\n# between\nb:\n  # inside\n  c: 2\n\n  d: 3   # x\n# end\n',
  crlf: 'a: 1\r\nb:\r\n  - x\r\n  - "y"\r\n  - z: 1\r\n    w: ${A}\r\n---\r\nc: d\r\n',
  tabs: 'a:\tb\nc: "x\ty"\n',
  unicode: 'ü: é\n😀: "😀 x"\nlist:\n  - 日本\n  - ${A}\n',
  'multi-document with empty documents': '---\na: 1\n---\n---\n# nothing\n---\nb: [1, 2]\n---\n',
  'leading comment and separator': '# c\n---\n# d\na: 1\n',
  'trailing separator only': 'a: 1\n---\n',
  'separator with comment': '--- # first\na: 1\n---   \nb: 2\n',
  'root scalar': 'hello\n',
  'root interpolated scalar': '${N}\n',
  'root sequence': '- a\n- b: 1\n  c: 2\n- - x\n  - y\n-   z: 1\n',
  'interpolation in keys stays': '${A}: v\n"${N}": w\n',
  'interpolation errors in order': 'a: ${MISSING}\nb:\n  - ${ALSO} ${BAD-X}\n  - "${Q"\nc: ${LAST}\n',
  'errors across documents': 'a: ${X1}\n---\nb: ok\n---\nc: ${X2}\n',
  'merge key with a block map': 'base: 1\n<<:\n  role: read\n  email: ${A}\nemail: own\n',
  'merge key with a sequence of maps': 'x:\n  <<:\n    - a: 1\n    - a: 2\n      b: 3\n  c: 4\n',
  'merge key with empty sources': 'a:\n  <<: []\nb:\n  <<:\n    - []\n',
  'two merge keys': '<<:\n  x: 1\n<<:\n  y: 2\nz: 3\n',
  'quoted merge key': '"<<":\n  x: 1\n',
  'merge scalar value': 'a: <<\nb:\n  - <<\n',
  '__proto__ key': '__proto__: ${A}\nx: 1\n',
  '__proto__ in a merge source': '<<:\n  __proto__:\n    polluted: 1\n  y: 2\n',
  'tag or anchor on an empty node': '!  # note\n---\na: !tag\nb: &x\n',
  'double-quoted escapes': 'a: "\\x41\\u00e9\\t\\n\\\\ \\" \\/ \\N\\_\\L\\P\\e\\0"\nb: "\\uD83D\\uDE00"\n',
  'U escapes': 'c: "\\U0001F600"\nd: "\\UFFFFFFFF"\n',
  'plain scalar continued after a comment line': 'a: x\n  # c\nb: y\n',
  'root scalar followed by blank lines': 'hello\n\n\n',
  'value on the next line': 'a:\n  x\nb: # c\n  "y"\nc:\n  - 1\nd:\n- 2\n',
  'numeric-looking keys': '1: a\n02: b\n0x3: c\n1.5: d\ntrue: e\n.inf: f\n-0: g\n',
  'keys equal as numbers': '1: a\n01: b\n',
  'same key as number and string': '1: a\n"1": b\n',
  'null key': '~: 1\n',
  'duplicate keys': 'a: 1\na: 2\n',
  'anchors and aliases': 'a: &x 1\nb: *x\n',
  'tags': 'a: !!str 1\nb: !Ref x\n',
  'flow map': 'a: {b: 1}\n',
  'flow maps in a sequence': '- { email: a@x.test, role: admin }   # c\n- {email: "b@x.test", role: \'edit\', n: "${N}"}\n- { a: [1, x], b: { c: ~ }, }\n',
  'flow map at the root': '{ a: 1, b: [x] }\n',
  'empty flow maps': 'a: {}\nb: { }\nc: [{}]\n',
  'flow map without a value': 'a: { b }\n',
  'flow map with an empty value': 'a: { b: , c: 1 }\n',
  'flow map with a merge key': 'a: { <<: { b: 1 } }\n',
  'multi-line flow map': 'a: { b: 1,\n  c: 2 }\n',
  'flow map with duplicate keys': 'a: { b: 1, b: 2 }\n',
  'flow map with a JSON-like pair': 'a: {"b":1, "c":x}\n',
  'flow map with a comment right after it': 'a: { b: 1 }# c\n',
  'block scalar': 'a: |\n  x\n  y\nb: >\n  z\n',
  'multi-line plain': 'a: x\n  y\n',
  'multi-line quoted': 'a: "x\n  y"\n',
  'comment right after a quote': 'a: "b"#c\n',
  'explicit key': '? a\n: b\n',
  'directive': '%YAML 1.1\n---\na: yes\n',
  'document end marker': 'a: 1\n...\n---\nb: 2\n',
  'empty sequence item': '- a\n-\n- c\n',
  'syntax error': 'a: [\nb: 1\n',
  'bad indentation': 'a:\n  b: 1\n c: 2\n',
  'only comments': '# a\n# b\n',
  'lone CR': 'a: 1\rb: 2\n',
  'flow sequence with pairs': 'a: [b: 1]\n',
  'long key': `${'k'.repeat(1100)}: v\n`,
};


/** Each node carries a style number; its bits pick layout variants (see `emit`). */
export type Tree =
  | { scalar: string; style: number }
  | { map: [string, Tree | null][]; style: number }
  | { seq: (Tree | null)[]; style: number }
  | { flow: string[]; style: number };

export const KEYS = ['a', 'name', 'email', 'role', 'spec', 'x y', 'true', '1', '01', '0x1', '<<', '${A}', '__proto__', 'é', 'k-1', 'null', '"q: x"', "'s'", '"\\u00e9"', 'a  '];
export const ESCAPES = ['\\0', '\\a', '\\b', '\\t', '\\n', '\\v', '\\f', '\\r', '\\e', '\\ ', '\\"', '\\/', '\\\\', '\\N', '\\_', '\\L', '\\P', '\\x41', '\\u00e9', '\\U0001F600', '\\x4', '\\u12', '\\UFFFFFFFF', '\\uD800', '\\q', '\\\t'];
export const quote = (s: string, style: number): string =>
  style === 1 ? `'${s.replace(/'/g, "''")}'` : style === 2 ? JSON.stringify(s) : s;
export const scalarText = fc.oneof(
  fc
    .tuple(fc.oneof(fc.constantFrom(...SCALARS, ...INVALID), fc.string({ maxLength: 6 }), fc.string({ maxLength: 4, unit: 'binary' }), fc.stringMatching(/^[a-z0-9 .:#${}\-?,[\]'"]{1,8}$/)), fc.nat(2))
    .map(([s, style]) => quote(s, style)),
  fc.array(fc.oneof(fc.constantFrom(...ESCAPES), fc.constantFrom('a', ' ', '#', "'", 'é')), { maxLength: 4 }).map((parts) => `"${parts.join('')}"`),
);

/** Plain words as manifests write them in flow maps (`{ email: a@b.test, role: admin }`). */
export const flowSafeText = fc.stringMatching(/^[a-z][a-z0-9@.-]{0,8}$/);

/** A one-line flow map: style bits 1 spaces inside the braces, 2 a space before `:`, 4 none after it, 8 a trailing comma. */
export const flowMapText: fc.Arbitrary<string> = fc.letrec<{ map: string }>((tie) => ({
  map: fc
    .record({
      entries: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), scalarText), fc.option(fc.oneof({ depthSize: 'small' }, flowSafeText, scalarText, fc.array(scalarText, { maxLength: 2 }).map((xs) => `[${xs.join(', ')}]`), tie('map')), { freq: 6 })), { maxLength: 3 }),
      style: fc.nat(15),
    })
    .map(({ entries, style: st }) => {
      const pair = ([k, v]: [string, string | null]): string => (v === null ? k : `${k}${st & 2 ? ' :' : ':'}${st & 4 ? '' : ' '}${v}`);
      const inner = entries.map(pair).join(', ') + (st & 8 && entries.length > 0 ? ',' : '');
      return st & 1 ? `{ ${inner} }` : `{${inner}}`;
    }),
})).map;

export const style = fc.nat(63);
export const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: fc.record({ scalar: scalarText, style }), weight: 4 },
    { arbitrary: fc.record({ map: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), scalarText), fc.option(tie('node'), { freq: 4 })), { minLength: 1, maxLength: 4 }), style }), weight: 4 },
    { arbitrary: fc.record({ seq: fc.array(fc.option(tie('node'), { freq: 6 }), { minLength: 1, maxLength: 4 }), style }), weight: 4 },
    { arbitrary: fc.record({ flow: fc.array(scalarText, { maxLength: 3 }), style }), weight: 4 },
    // one-line flow maps; many of them are declined (keys without values, `${…}` meeting braces), so fewer
    { arbitrary: fc.record({ scalar: flowMapText, style }), weight: 1 },
  ),
})).node;

/**
 * Lines of a node placed after `prefix` (a key `k:`, `-`, or '' at the root), at `indent`. Style bits:
 * 1 indent step 4 (else 2), 2 scalar on the next line, 4 comment after the prefix, 8 a sequence under a key
 * at the key's own indent, 16 a blank line before, 32 a map item's first pair on the `-` line.
 */
export function emit(node: Tree | null, indent: number, prefix: string, out: string[]): void {
  const pad = ' '.repeat(indent);
  if (node === null) return void out.push(`${pad}${prefix}`);
  const st = node.style;
  const step = st & 1 ? 4 : 2;
  const comment = st & 4 && prefix !== '' ? ' # c' : '';
  if (st & 16) out.push('');
  if ('scalar' in node || 'flow' in node) {
    const text = 'scalar' in node ? node.scalar : `[${node.flow.join(', ')}]`;
    if (st & 2 && prefix !== '') return void out.push(`${pad}${prefix}${comment}`, `${pad}${' '.repeat(step)}${text}`);
    return void out.push(`${pad}${prefix === '' ? '' : `${prefix} `}${text}`);
  }
  if (prefix === '') {
    if ('map' in node) for (const [k, v] of node.map) emit(v, indent, `${k}:`, out);
    else for (const item of node.seq) emit(item, indent, '-', out);
    return;
  }
  if ('map' in node && prefix === '-' && st & 32) {
    // `- key: value` with the other pairs aligned under the first key.
    const lines: string[] = [];
    emit(node, indent + 2, '', lines);
    const first = lines.findIndex((l) => l.trim() !== '');
    if (first >= 0) lines[first] = `${pad}- ${lines[first]!.slice(indent + 2)}`;
    return void out.push(...lines);
  }
  out.push(`${pad}${prefix}${comment}`);
  const child = 'seq' in node && st & 8 && prefix !== '-' ? indent : indent + step;
  emit(node, child, '', out);
}

export function renderDocument(node: Tree): string[] {
  const out: string[] = [];
  emit(node, 0, '', out);
  return out;
}

/** Files of one to three documents of `node`s, with separators, CRLF, a comment line and a one-character mutation. */
/** How often (per cent) a file has CRLF line breaks and a one-character mutation; the defaults are the fast path's. */
export interface FileShape {
  crlfPercent: number;
  mutatedPercent: number;
}

const percent = <T>(p: number, yes: fc.Arbitrary<T>, no: T): fc.Arbitrary<T> =>
  fc.oneof({ arbitrary: yes, weight: p }, { arbitrary: fc.constant(no), weight: 100 - p });

export const fileOf = (node: fc.Arbitrary<Tree>, shape: FileShape = { crlfPercent: 50, mutatedPercent: 67 }): fc.Arbitrary<string> =>
  fc
  .record({
    docs: fc.array(fc.option(node, { freq: 5 }), { minLength: 1, maxLength: 3 }),
    leadingSeparator: fc.boolean(),
    crlf: percent(shape.crlfPercent, fc.constant(true), false),
    commentLine: fc.option(fc.nat(40)),
    mutation: percent<[number, string] | null>(shape.mutatedPercent, fc.tuple(fc.nat(400), fc.constantFrom('', ' ', '  ', ':', '- ', '#', '"', "'", '\n', '[', ',', '\t', '---\n', '\\', '?', '&', '*', '!')), null),
  })
  .map(({ docs, leadingSeparator, crlf, commentLine, mutation }) => {
    const lines = docs.flatMap((d, i) => [...(i > 0 || leadingSeparator ? ['---'] : []), ...(d === null ? [] : renderDocument(d))]);
    if (commentLine !== null) lines.splice(commentLine % (lines.length + 1), 0, '  # note');
    let text = lines.join('\n') + '\n';
    if (mutation !== null) {
      const [at, insert] = mutation;
      const i = at % text.length;
      text = text.slice(0, i) + insert + text.slice(i + (insert === '' ? 1 : 0));
    }
    return crlf ? text.replace(/\n/g, '\r\n') : text;
  });

export const file = fileOf(tree);

/** `read`'s result (undefined where it declines) compared with the yaml path's; returns it. */
export function compareWith(read: (text: string, env: Env) => ParseResult | undefined, text: string, env: Env = ENV): ParseResult | undefined {
  const slow = parseYamlFileWith('f.yaml', text, { vars: everyVariable(env) }, { fast: false });
  const fast = read(text, env);
  if (fast !== undefined) expect(summary(fast), JSON.stringify(text)).toEqual(summary(slow));
  return fast;
}
