/**
 * A js-yaml schema whose implicit (plain scalar) typing is exactly the `yaml` package's YAML 1.2 core schema,
 * as docops uses it (`yaml` 2.x, `merge: true`). Regexes and conversions are copied from
 * yaml/dist/schema/core/{bool,int,float}.js and common/null.js, in the same order `yaml` tries them: null,
 * bool, int.oct, int, int.hex, float.nan, float.exp, float. No js-yaml extras (timestamps, binary, omap, set,
 * YAML 1.1 booleans, `0b`, `_`). A plain `<<` is the merge key, like `yaml` with `merge: true`.
 */
import jsyaml from 'js-yaml';

export const MERGE_TAG = 'tag:yaml.org,2002:merge';

type Rule = [test: RegExp, construct: (s: string) => unknown];

/**
 * One js-yaml type per tag (js-yaml keeps only the last type of a tag), trying the rules in yaml's order.
 * `mayMatch` is a cheap first-character gate: js-yaml asks every type about every plain scalar.
 */
const family = (tag: string, mayMatch: (s: string) => boolean, rules: Rule[]): jsyaml.Type =>
  new jsyaml.Type(tag, {
    kind: 'scalar',
    resolve: (data: unknown) => typeof data === 'string' && mayMatch(data) && rules.some(([test]) => test.test(data)),
    construct: (data: string) => rules.find(([test]) => test.test(data))?.[1](data),
  });

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const firstIs = (test: (c: number) => boolean) => (s: string) => test(s.charCodeAt(0));
const numberStart = (c: number): boolean => isDigit(c) || c === 0x2b /* + */ || c === 0x2d; /* - */

/**
 * Numbers JSON cannot hold exactly (`.nan`, `.inf`, overflow, integers past 2^53) are reported by the `yaml`
 * path (yaml-values.ts); the fast path stops reading (the throw ends js-yaml's load, and fast-parse.ts declines).
 */
function declineNumber(): never {
  throw new Error('number JSON cannot hold exactly: left to the yaml path');
}
const exact = (n: number): number => (Number.isFinite(n) && (!Number.isInteger(n) || Number.isSafeInteger(n)) ? n : declineNumber());

// The families' regexes exclude each other, so trying tags in this order equals yaml's single ordered list.
// Integers: parseInt(str.substring(offset), radix), as yaml's intResolve without intAsBigInt (`-0` stays -0).
const isNullStart = firstIs((c) => c === 0x7e /* ~ */ || c === 0x6e /* n */ || c === 0x4e) /* N */;
const NULL_RULES: Rule[] = [[/^(?:~|[Nn]ull|NULL)?$/, () => null]];
const isBoolStart = firstIs((c) => c === 0x74 /* t */ || c === 0x54 /* T */ || c === 0x66 /* f */ || c === 0x46) /* F */;
const BOOL_RULES: Rule[] = [[/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (s) => s[0] === 't' || s[0] === 'T']];
const isIntStart = firstIs(numberStart);
const INT_RULES: Rule[] = [
  [/^0o[0-7]+$/, (s) => exact(parseInt(s.substring(2), 8))],
  [/^[-+]?[0-9]+$/, (s) => exact(parseInt(s, 10))],
  [/^0x[0-9a-fA-F]+$/, (s) => exact(parseInt(s.substring(2), 16))],
];
const isFloatStart = firstIs((c) => numberStart(c) || c === 0x2e /* . */);
const FLOAT_RULES: Rule[] = [
  [/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/, () => declineNumber()],
  [/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/, (s) => exact(parseFloat(s))],
  [/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/, (s) => exact(parseFloat(s))],
];
const NULL = family('tag:yaml.org,2002:null', isNullStart, NULL_RULES);
const BOOL = family('tag:yaml.org,2002:bool', isBoolStart, BOOL_RULES);
const INT = family('tag:yaml.org,2002:int', isIntStart, INT_RULES);
const FLOAT = family('tag:yaml.org,2002:float', isFloatStart, FLOAT_RULES);

const FAMILIES: [mayMatch: (s: string) => boolean, rules: Rule[]][] = [
  [isNullStart, NULL_RULES],
  [isBoolStart, BOOL_RULES],
  [isIntStart, INT_RULES],
  [isFloatStart, FLOAT_RULES],
];

/**
 * A non-empty plain scalar's value under the same rules (block-parse.ts, which reads plain scalars without
 * js-yaml). Throws where the types above throw: a number JSON cannot hold exactly.
 */
export function typePlainScalar(s: string): unknown {
  for (const [mayMatch, rules] of FAMILIES) {
    if (!mayMatch(s)) continue;
    for (const [test, construct] of rules) if (test.test(s)) return construct(s);
  }
  return s;
}
// js-yaml merges when the key's tag is MERGE_TAG; its own merge type also accepts null, which `yaml` does not.
const MERGE = family(MERGE_TAG, (s) => s === '<<', [[/^<<$/, (s) => s]]);

/** Plain scalars that match none of these stay strings (js-yaml leaves them untyped). */
export const YAML_CORE_SCHEMA: jsyaml.Schema = jsyaml.FAILSAFE_SCHEMA.extend({
  implicit: [NULL, BOOL, INT, FLOAT, MERGE],
});
